"""The layers hold: each part of flipwell imports only the parts below it (issue 9, item 4).

Words:
- *layer*: the first package under ``flipwell`` a module belongs to: ``rules`` (the rulebook,
  pure), ``league`` (the stored facts and what is derived from them), ``serving`` (conditional
  requests, remembered pages, live streams, health: under both front ends, over the league),
  ``web`` and ``api`` (the two front ends). The modules directly under ``flipwell`` (settings,
  urls, the command line) wire the layers together and belong to none.
- *forbidden import*: rules -> Django, league, serving, web or api; league -> serving, web or
  api; serving -> web or api; web <-> api;
  inside the league, its selectors (reads) -> its services (writes), which call them; and, in
  the front ends, anything of the rules but their top level (``flipwell.rules``
  itself and the names in its ``__all__``): the rules' submodules are internals.

- *screen code*: what makes a page or an e-mail, which the league never does (STYLE.md §17):
  reversing a URL (``reverse``, ``reverse_lazy``, ``resolve_url`` of ``django.urls`` or
  ``django.shortcuts``), rendering a template (``django.template.loader``, its
  ``render_to_string``, ``get_template``, ``select_template``) and anything of
  ``django.shortcuts``. No import shows the web layer there, so the import rules alone would
  miss it: it is checked on its own, in every module of the league.
- *wording* in the league: what a person reads, which the league keeps none of either
  (STYLE.md §17): no module of the league is named for words (``incident_words``: they live in
  `flipwell.web.words`), and a registry of kinds (`WORDING_FREE`, e.g. the turn rulings') holds
  facts only: no string of a sentence (four words or more) outside its docstrings. A notice
  goes to the web as facts (`flipwell.league.notices.RulingAbout`), which the web words: no
  sentence in the league is handed to a notice call (`notice_wording`: a notice's facts, its
  queueing, its words), directly, through a name assigned before or through a function of the
  module it calls; what a ``raise`` says (a `Refusal`'s message to the one who acts) is no
  notice.
- *ORM access* in a view, a form or an endpoint: a model's manager (``Model.objects``,
  ``_default_manager``). A view of the web (`flipwell.web.views`) or an endpoint of the API
  (`flipwell.api.endpoints`) parses, calls one service or selector and renders (STYLE.md §7),
  a form (`flipwell.web.forms`) parses, and the API's lookups (`flipwell.api.queries`) say
  what a missing row means to a client: the rows they read come from a selector
  (`flipwell.league.selectors`, e.g. ``lookups``, ``listings``, ``sheet_rows``,
  ``form_rows``).

Every import counts, at any depth of a module (inside a function or ``if TYPE_CHECKING``),
relative ones resolved against the module's package.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import flipwell
import flipwell.rules

SRC = Path(flipwell.__file__).parent
FORBIDDEN: dict[str, tuple[str, ...]] = {
    "rules": ("django", "flipwell.league", "flipwell.serving", "flipwell.web", "flipwell.api"),
    "league": ("flipwell.serving", "flipwell.web", "flipwell.api"),
    "serving": ("flipwell.web", "flipwell.api"),
    "web": ("flipwell.api",),
    "api": ("flipwell.web",),
}
WITHIN_LEAGUE: dict[str, tuple[str, ...]] = {
    "flipwell.league.selectors": ("flipwell.league.services",),
}
"""Parts of a layer that must not import another part of it (reads never import writes)."""
SCREEN_MODULES = ("django.shortcuts", "django.template.loader")
"""Modules the league imports nothing of."""
SCREEN_NAMES: dict[str, frozenset[str]] = {
    "django.urls": frozenset({"reverse", "reverse_lazy", "resolve_url"}),
    "django.template": frozenset({"loader", "render_to_string", "get_template", "select_template"}),
}
"""Names the league takes from nothing, by the module that offers them."""
SCREEN_CALLS = frozenset().union(*SCREEN_NAMES.values()) - {"loader"}
"""Functions the league calls on no module (``django.urls.reverse(...)``)."""
SCREEN_CODE_BELONGS = (
    "league/ renders nothing a person sees (STYLE.md §17): URLs, templates and e-mails "
    "belong in flipwell.web (a notice's words: flipwell.web.emails); the league hands the web "
    "layer plain facts (flipwell.league.notices.NoticeFacts)"
)
WORDING_FREE = ("flipwell.league.turn_rulings",)
"""Registries of kinds in the league whose entries hold facts only (code, rules, numbers)."""
SENTENCE_WORDS = 4
"""A string of this many words or more is a sentence a person reads (an f-string's values and
what holds no letter are not words: ``f"{name}: {player}, meet {n}"`` has one)."""
WORDING_BELONGS = (
    "league/ keeps no UI wording (STYLE.md §17): a kind's words belong in flipwell.web.words "
    "(flipwell.web.words.turn_rulings), a notice is queued as facts "
    "(flipwell.league.notices.RulingAbout) that flipwell.web.emails puts in words"
)
RULES_TOP = "flipwell.rules"
FRONT_ENDS = ("web", "api")


def _layer(module: str) -> str | None:
    parts = module.split(".")
    inside = len(parts) >= 2 and parts[0] == "flipwell" and parts[1] in FORBIDDEN
    return parts[1] if inside else None


def _within(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def _imported(module: str, is_package: bool, tree: ast.AST) -> list[tuple[int, str, str]]:
    """(line, module imported, name taken from it or "") for every import in `tree`."""
    package = module if is_package else module.rpartition(".")[0]
    found: list[tuple[int, str, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name, "") for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            found += [(node.lineno, base, alias.name) for alias in node.names]
    return found


def forbidden_imports(module: str, source: str, *, is_package: bool = False) -> list[str]:
    """Each import in `source` (the text of `module`) that breaks a layer rule, as
    ``"module:line imports target"``; empty when the module keeps to its layer."""
    layer = _layer(module)
    if layer is None:
        return []
    broken: list[str] = []
    for line, imported, name in _imported(module, is_package, ast.parse(source)):
        targets = [imported, f"{imported}.{name}"] if name else [imported]
        bad = any(_within(t, p) for t in targets for p in FORBIDDEN.get(layer, ()))
        for part, forbidden in WITHIN_LEAGUE.items():
            if _within(module, part):
                bad = bad or any(_within(t, p) for t in targets for p in forbidden)
        if layer in FRONT_ENDS and _within(imported, RULES_TOP):
            exported = imported == RULES_TOP and name in flipwell.rules.__all__
            bad = bad or not (exported or (imported == RULES_TOP and not name))
        if bad:
            shown = f"{imported}.{name}" if name else imported
            broken.append(f"{module}:{line} imports {shown}")
    return broken


def screen_code(module: str, source: str, *, is_package: bool = False) -> list[str]:
    """Each place in `source` (the text of `module`, a module of the league) that reverses a
    URL or renders a template, as ``"module:line uses target"``; empty for any other layer."""
    if _layer(module) != "league":
        return []
    tree = ast.parse(source)
    found: list[str] = []
    for line, imported, name in _imported(module, is_package, tree):
        shown = f"{imported}.{name}" if name else imported
        taken = f"{imported}.{name}" if name else ""
        whole = [imported, taken] if taken else [imported]
        if any(_within(t, p) for t in whole for p in SCREEN_MODULES) or (
            name in SCREEN_NAMES.get(imported, ())
        ):
            found.append(f"{module}:{line} uses {shown}")
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in SCREEN_CALLS:
            owner = ast.unparse(node.value)
            if owner.rpartition(".")[2] in ("urls", "shortcuts", "loader", "template"):
                found.append(f"{module}:{node.lineno} uses {owner}.{node.attr}")
    return found


def wording(module: str, source: str) -> list[str]:
    """Each place in `source` (the text of `module`) that holds UI wording in the league (see
    the module docstring), as ``"module:line says ..."``; empty for any other layer."""
    if _layer(module) != "league":
        return []
    found = []
    if "words" in module.rpartition(".")[2]:
        found.append(f"{module}:1 is named for words")
    if module not in WORDING_FREE:
        return found
    tree = ast.parse(source)
    skipped = {  # docstrings, and the parts of an f-string (read as one text below)
        id(part)
        for node in ast.walk(tree)
        for part in (
            [node.value]
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
            else node.values
            if isinstance(node, ast.JoinedStr)
            else []
        )
    }
    for node in ast.walk(tree):
        text = _text(node) if id(node) not in skipped else ""
        words = [w for w in text.split() if "{" not in w and any(c.isalpha() for c in w)]
        if len(words) >= SENTENCE_WORDS:
            found.append(f"{module}:{node.lineno} says {text[:40]!r}")
    return found


def _text(node: ast.AST) -> str:
    """A string literal's text, an f-string's with ``{}`` for each value; "" for the rest."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(
            _text(part) if isinstance(part, ast.Constant) else "{}" for part in node.values
        )
    return ""


NOTICE_CALLS = frozenset({"notice", "notice_of", "queue_ruling", "draft", "Draft", "Written"})
"""What queues a notice or holds its words; every ``...Facts(...)`` (a notice's facts, the
rules' facts) is read the same way."""
NOTICE_WORDS_BELONG = (
    "league/ writes no notice (STYLE.md §17): a service queues its facts (a dataclass of "
    "flipwell.league.notices, e.g. PenaltyFacts) with Write.notice_of, and flipwell.web.words "
    "puts them in words (flipwell.web.words.violations)"
)


def notice_wording(module: str, source: str) -> list[str]:
    """Each sentence (`SENTENCE_WORDS` words or more) in `source` (the text of `module`, a
    module of the league) that a notice would say, as ``"module:line says ..."``; empty for
    any other layer. A notice's text is what a notice call (`NOTICE_CALLS`, a ``...Facts``)
    is handed: the strings in its arguments, in what the names there are assigned in the same
    function, and in the module's functions they call, at any depth. Not read: what a
    ``raise`` says (a `Refusal`, a `RuleError`: an answer to the one who acts), docstrings,
    and what is handed to a function another module defines (its result is what the notice
    gets, and that module is read on its own: ``require_reason(reason, what="A ruling")``
    words a refusal, not the reason)."""
    if _layer(module) != "league":
        return []
    tree = ast.parse(source)
    reading = _Reading(tree)
    found: dict[tuple[int, str], None] = {}
    scopes = [tree, *(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef))]
    for scope in scopes:
        for call in _own(scope):
            if isinstance(call, ast.Call) and _is_notice_call(call):
                for node in reading.handed(call, scope):
                    text = _text(node)
                    words = [
                        w for w in text.split() if "{" not in w and any(c.isalpha() for c in w)
                    ]
                    if len(words) >= SENTENCE_WORDS:
                        found[(node.lineno, text)] = None
    return [f"{module}:{line} says {text[:40]!r}" for line, text in sorted(found)]


def _own(scope: ast.AST) -> list[ast.AST]:
    """The nodes of `scope` (a module or a function), but those of the functions and classes
    defined in it (each a scope of its own)."""
    nodes: list[ast.AST] = []
    stack = list(ast.iter_child_nodes(scope))
    while stack:
        here = stack.pop()
        if not isinstance(here, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            nodes.append(here)
            stack += ast.iter_child_nodes(here)
    return nodes


def _is_notice_call(call: ast.Call) -> bool:
    name = ast.unparse(call.func).rpartition(".")[2]
    return name in NOTICE_CALLS or name.endswith("Facts")


class _Reading:
    """What a notice call of one module reaches (see `notice_wording`): `functions`, the
    module's own, by name; `imported`, the names its imports bind."""

    def __init__(self, tree: ast.Module) -> None:
        self.functions = {
            node.name: node
            for node in tree.body
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        }
        self.imported = {
            (alias.asname or alias.name).partition(".")[0]
            for node in ast.walk(tree)
            if isinstance(node, ast.Import | ast.ImportFrom)
            for alias in node.names
        }
        self.seen: set[tuple[str, int]] = set()

    def handed(self, node: ast.AST, scope: ast.AST) -> list[ast.AST]:
        """The strings `node` holds or reaches, `scope` the function (or module) it is in."""
        strings: list[ast.AST] = []
        stack = [node]
        while stack:
            here = stack.pop()
            if isinstance(here, ast.Raise) or (
                isinstance(here, ast.Expr) and isinstance(here.value, ast.Constant)
            ):
                continue
            if isinstance(here, ast.Call) and self._elsewhere(here):
                continue
            if isinstance(here, ast.Constant | ast.JoinedStr):
                strings.append(here)
                if isinstance(here, ast.JoinedStr):
                    stack += [v.value for v in here.values if isinstance(v, ast.FormattedValue)]
                continue
            if isinstance(here, ast.Name):
                strings += self._named(here.id, scope)
            stack += ast.iter_child_nodes(here)
        return strings

    def _elsewhere(self, call: ast.Call) -> bool:
        """Whether `call` calls what another module defines (and queues no notice)."""
        owner = ast.unparse(call.func).partition(".")[0]
        return owner in self.imported and not _is_notice_call(call)

    def _named(self, name: str, scope: ast.AST) -> list[ast.AST]:
        """The strings a name reaches: the module's function of that name, else what it is
        assigned in `scope`."""
        function = self.functions.get(name)
        key = (name, id(scope) if function is None else 0)
        if key in self.seen:
            return []
        self.seen.add(key)
        if function is not None:
            return self.handed(function, function)
        values = [
            assigned.value
            for assigned in _own(scope)
            if isinstance(assigned, ast.Assign | ast.AnnAssign | ast.AugAssign)
            and assigned.value is not None
            and any(
                isinstance(target, ast.Name) and target.id == name
                for target in (
                    assigned.targets if isinstance(assigned, ast.Assign) else [assigned.target]
                )
            )
        ]
        return [found for value in values for found in self.handed(value, scope)]


VIEWS = (
    "flipwell.web",
    "flipwell.api",
    "flipwell.serving",
)
"""The front ends, whose modules read rows only through a selector: the web (views, forms,
sign-in and score-sheet tokens), the API (endpoints, lookups, tokens, commands) and serving
(the conditional pages, the live streams, health). Their migrations are not theirs to
choose."""
MANAGERS = frozenset({"objects", "_default_manager"})
ROW_SHORTCUTS = frozenset({"get_object_or_404", "get_list_or_404"})
"""Django's shortcuts that read rows of the model they are given."""


def orm_access(module: str, source: str) -> list[str]:
    """Each place in `source` (the text of `module`) that asks a model's manager for rows, as
    ``"module:line uses X.objects"``, when `module` is one of `VIEWS`' (a view or a form of
    the web, an endpoint or the lookups of the API); empty otherwise."""
    if not any(_within(module, part) for part in VIEWS) or ".migrations." in module:
        return []
    return [
        f"{module}:{node.lineno} uses {ast.unparse(node)}"
        for node in ast.walk(ast.parse(source))
        if (isinstance(node, ast.Attribute) and node.attr in MANAGERS)
        or (isinstance(node, ast.Name | ast.Attribute) and _name(node) in ROW_SHORTCUTS)
    ]


def _name(node: ast.Name | ast.Attribute) -> str:
    return node.id if isinstance(node, ast.Name) else node.attr


def _modules() -> list[tuple[str, Path]]:
    found = []
    for path in sorted(SRC.rglob("*.py")):
        parts = path.relative_to(SRC.parent).with_suffix("").parts
        found.append((".".join(parts), path))
    return found


def test_layers_hold_in_every_module():
    broken = [
        problem
        for module, path in _modules()
        for problem in forbidden_imports(
            module.removesuffix(".__init__"),
            path.read_text(),
            is_package=path.name == "__init__.py",
        )
    ]
    assert broken == []


def test_league_has_no_screen_code():
    found = [
        place
        for module, path in _modules()
        for place in screen_code(
            module.removesuffix(".__init__"),
            path.read_text(),
            is_package=path.name == "__init__.py",
        )
    ]
    assert found == [], SCREEN_CODE_BELONGS


def test_league_keeps_no_wording():
    found = [
        place
        for module, path in _modules()
        for place in wording(module.removesuffix(".__init__"), path.read_text())
    ]
    assert found == [], WORDING_BELONGS


def test_league_registries_are_checked_for_wording():
    """Each registry `WORDING_FREE` names is a module of the league (a renamed one would pass
    unread)."""
    modules = {module for module, _path in _modules()}
    assert [name for name in WORDING_FREE if name not in modules] == []


def test_league_writes_no_notice_words():
    found = [
        place
        for module, path in _modules()
        for place in notice_wording(module.removesuffix(".__init__"), path.read_text())
    ]
    assert found == [], NOTICE_WORDS_BELONG


NOTIFY_IN_WORDS = """
def _notify(write, row, group):
    write.notice(
        player=row.player,
        key=f"violation:{row.pk}",
        what=f"a violation recorded at meet {row.meet.number}",
        details=_details(row, group),
    )


def _details(row, group):
    details = [f"{row.get_kind_display()}, in group {group.number}."]
    if row.serious:
        details.append("It is a serious violation this season.")
    return details
"""
QUEUE_IN_WORDS = """
def queue(player, meet):
    what = f"your group restarted at meet {meet.number}"
    queue_ruling(player=player, key="k", about=RulingFacts(what=what, details=()))
"""
REFUSE_THEN_NOTIFY = """
def record(write, row, game):
    _check(game)
    if row.game_id is None:
        raise Refusal({"game": f"Game {game.number} is not one of the group's."})
    message = "Waited two minutes at the plunger"
    write.notice_of(player=row.player, key=f"violation:{row.pk}", about=_facts(row))


def _check(game):
    raise ConflictError({"game": "That game has confirmed scores already."})


def _facts(row):
    \"\"\"The facts of the violation's notice, which the web words.\"\"\"
    _check(row.game)
    return PenaltyFacts(kind=row.kind, meet=row.meet.number, reason=row.reason)
"""

REASON_THEN_NOTIFY = """
from flipwell.league.services._edge import require_reason


def designate(write, reason, entry):
    why = require_reason(reason, field="reason", what="A late-join forfeit designation")
    write.notice_of(player=entry.player, key="k", about=LateJoinFacts(reason=why))
"""


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (
            NOTIFY_IN_WORDS,
            [
                "flipwell.league.services.violations:6 says 'a violation recorded at meet {}'",
                "flipwell.league.services.violations:14 says 'It is a serious violation this "
                "season.'",
            ],
        ),
        (
            QUEUE_IN_WORDS,
            ["flipwell.league.services.violations:3 says 'your group restarted at meet {}'"],
        ),
        (REFUSE_THEN_NOTIFY, []),
        (REASON_THEN_NOTIFY, []),
    ],
)
def test_notice_wording_checker_finds_a_notice_written_in_the_league(source, expected):
    assert notice_wording("flipwell.league.services.violations", source) == expected


def test_notice_wording_checker_reads_only_the_league():
    assert notice_wording("flipwell.web.words.violations", NOTIFY_IN_WORDS) == []


@pytest.mark.parametrize(
    ("module", "source", "expected"),
    [
        (
            "flipwell.league.incident_words",
            "",
            ["flipwell.league.incident_words:1 is named for words"],
        ),
        (
            "flipwell.league.turn_rulings",
            'X = Kind(kind="x", when="When a player does not begin play")',
            ["flipwell.league.turn_rulings:1 says 'When a player does not begin play'"],
        ),
        (
            "flipwell.league.turn_rulings",
            'def f(g):\n    return f"a warning at meet {g} of the season"',
            ["flipwell.league.turn_rulings:2 says 'a warning at meet {} of the season'"],
        ),
    ],
)
def test_wording_checker_finds_words_in_the_league(module, source, expected):
    assert wording(module, source) == expected


@pytest.mark.parametrize(
    ("module", "source"),
    [
        (
            "flipwell.league.turn_rulings",
            '"""A docstring of many words."""\nX = Kind(name="Slow-play warning")',
        ),
        ("flipwell.league.turn_rulings", 'class K:\n    """Its docstring, long as it may be."""'),
        (
            "flipwell.league.services.violations",
            'raise Refusal({"kind": "There is no such kind of violation."})',
        ),
        ("flipwell.web.words.turn_rulings", 'WHEN = "When a player does not begin play"'),
    ],
)
def test_wording_checker_allows_the_rest(module, source):
    assert wording(module, source) == []


@pytest.mark.parametrize(
    ("module", "source", "expected"),
    [
        (
            "flipwell.league.notices",
            "from django.urls import reverse",
            ["flipwell.league.notices:1 uses django.urls.reverse"],
        ),
        (
            "flipwell.league.selectors.setup",
            "def f():\n    from django.urls import reverse_lazy, resolve_url",
            [
                "flipwell.league.selectors.setup:2 uses django.urls.reverse_lazy",
                "flipwell.league.selectors.setup:2 uses django.urls.resolve_url",
            ],
        ),
        (
            "flipwell.league.notices",
            "from django.template.loader import render_to_string",
            ["flipwell.league.notices:1 uses django.template.loader.render_to_string"],
        ),
        (
            "flipwell.league.notices",
            "from django.template import loader",
            ["flipwell.league.notices:1 uses django.template.loader"],
        ),
        (
            "flipwell.league.services.meets",
            "from django.shortcuts import get_object_or_404",
            ["flipwell.league.services.meets:1 uses django.shortcuts.get_object_or_404"],
        ),
        (
            "flipwell.league.notices",
            "import django.urls\nx = django.urls.reverse('web:me')",
            ["flipwell.league.notices:2 uses django.urls.reverse"],
        ),
        (
            "flipwell.league.notices",
            "from django.template import loader\nloader.get_template('x.txt')",
            [
                "flipwell.league.notices:1 uses django.template.loader",
                "flipwell.league.notices:2 uses loader.get_template",
            ],
        ),
    ],
)
def test_screen_code_checker_finds_a_url_or_a_template(module, source, expected):
    assert screen_code(module, source) == expected


@pytest.mark.parametrize(
    ("module", "source"),
    [
        ("flipwell.league.validators", "from django.urls import get_resolver"),
        ("flipwell.league.selectors.treasury", "rows.sort(reverse=True)\nnames.reverse()"),
        ("flipwell.web.emails", "from django.urls import reverse"),
        ("flipwell.web.views.me", "from django.shortcuts import render"),
    ],
)
def test_screen_code_checker_allows_the_rest(module, source):
    assert screen_code(module, source) == []


def test_front_ends_read_rows_through_selectors():
    found = [
        place
        for module, path in _modules()
        for place in orm_access(module.removesuffix(".__init__"), path.read_text())
    ]
    assert found == [], (
        "the web, the API and serving read rows through a selector (flipwell.league.selectors; "
        "a form's rows: flipwell.league.selectors.form_rows; access checks': "
        "flipwell.league.selectors.access)"
    )


@pytest.mark.parametrize(
    ("module", "source", "expected"),
    [
        (
            "flipwell.web.views.scoresheet",
            "game = m.Game.objects.filter(pk=1).first()",
            ["flipwell.web.views.scoresheet:1 uses m.Game.objects"],
        ),
        (
            "flipwell.web.views.manage._common",
            "def f():\n    return Season._default_manager.get(pk=1)",
            ["flipwell.web.views.manage._common:2 uses Season._default_manager"],
        ),
        (
            "flipwell.web.forms.meets",
            "PLAYERS = m.Player.objects.all()",
            ["flipwell.web.forms.meets:1 uses m.Player.objects"],
        ),
        (
            "flipwell.api.queries",
            "def league(slug):\n    return m.League.objects.get(slug=slug)",
            ["flipwell.api.queries:2 uses m.League.objects"],
        ),
        (
            "flipwell.web.auth",
            "User.objects.filter(pk=1)",
            ["flipwell.web.auth:1 uses User.objects"],
        ),
        (
            "flipwell.serving.health",
            "m.League.objects.exists()",
            ["flipwell.serving.health:1 uses m.League.objects"],
        ),
        (
            "flipwell.web.views.print",
            "s = get_object_or_404(m.Season, pk=1)",
            ["flipwell.web.views.print:1 uses get_object_or_404"],
        ),
        (
            "flipwell.web.auth",
            "from django import shortcuts\nshortcuts.get_list_or_404(m.League)",
            ["flipwell.web.auth:2 uses shortcuts.get_list_or_404"],
        ),
        ("flipwell.api.migrations.0011_x", "ApiToken.objects.all()", []),
        ("flipwell.league.services.meets", "m.Meet.objects.all()", []),
        ("flipwell.league.selectors.lookups", "m.Meet.objects.all()", []),
    ],
)
def test_orm_access_checker_finds_a_manager_in_a_front_end(module, source, expected):
    assert orm_access(module, source) == expected


def test_layers_checker_reads_every_layer():
    assert sorted({_layer(module) for module, _ in _modules()} - {None}) == [
        "api",
        "league",
        "rules",
        "serving",
        "web",
    ]


@pytest.mark.parametrize(
    ("module", "source", "expected"),
    [
        (
            "flipwell.rules.scoring",
            "from django.db import models",
            ["flipwell.rules.scoring:1 imports django.db.models"],
        ),
        (
            "flipwell.rules.scoring",
            "def f():\n    import flipwell.league.models",
            ["flipwell.rules.scoring:2 imports flipwell.league.models"],
        ),
        (
            "flipwell.league.selectors.setup",
            "if TYPE_CHECKING:\n    from flipwell.api.models import ApiToken",
            ["flipwell.league.selectors.setup:2 imports flipwell.api.models.ApiToken"],
        ),
        (
            "flipwell.league.services.tokens",
            "from ...web import charts",
            ["flipwell.league.services.tokens:1 imports flipwell.web.charts"],
        ),
        (
            "flipwell.league.services.tokens",
            "from flipwell import api",
            ["flipwell.league.services.tokens:1 imports flipwell.api"],
        ),
        (
            "flipwell.web.views.manage.setup",
            "from flipwell.api.tokens import token_for_secret",
            ["flipwell.web.views.manage.setup:1 imports flipwell.api.tokens.token_for_secret"],
        ),
        (
            "flipwell.api.queries",
            "import flipwell.web.charts",
            ["flipwell.api.queries:1 imports flipwell.web.charts"],
        ),
        (
            "flipwell.web.charts",
            "from flipwell.rules.checks import fmt",
            ["flipwell.web.charts:1 imports flipwell.rules.checks.fmt"],
        ),
        (
            "flipwell.api.endpoints.files",
            "from flipwell.rules import _private",
            ["flipwell.api.endpoints.files:1 imports flipwell.rules._private"],
        ),
        (
            "flipwell.web.charts",
            "from flipwell.rules import playoffs",
            ["flipwell.web.charts:1 imports flipwell.rules.playoffs"],
        ),
        (
            "flipwell.api",
            "from .models import ApiToken\nfrom ..web import forms",
            ["flipwell.api:2 imports flipwell.web.forms"],
        ),
        (
            "flipwell.league.selectors.player_links",
            "from flipwell.league.services.meets import scheduled_start",
            [
                "flipwell.league.selectors.player_links:1 imports "
                "flipwell.league.services.meets.scheduled_start"
            ],
        ),
        (
            "flipwell.league.selectors.console",
            "from flipwell.league import services",
            ["flipwell.league.selectors.console:1 imports flipwell.league.services"],
        ),
        (
            "flipwell.league.derived.caches",
            "from flipwell.serving import pages",
            ["flipwell.league.derived.caches:1 imports flipwell.serving.pages"],
        ),
        (
            "flipwell.serving.http_cache",
            "from flipwell.web.views import public",
            ["flipwell.serving.http_cache:1 imports flipwell.web.views.public"],
        ),
    ],
)
def test_layers_checker_refuses_an_import_across_a_layer(module, source, expected):
    is_package = module == "flipwell.api"
    assert forbidden_imports(module, source, is_package=is_package) == expected


@pytest.mark.parametrize(
    ("module", "source"),
    [
        ("flipwell.rules.scoring", "from flipwell.rules.checks import fmt\nimport fractions"),
        ("flipwell.league.models.tokens", "from django.db import models"),
        ("flipwell.league.services.tokens", "from flipwell.rules import Ruleset"),
        ("flipwell.web.views.manage.setup", "from flipwell.league.services import tokens"),
        ("flipwell.api.auth", "from flipwell.league.models import ApiToken"),
        ("flipwell.api.endpoints.files", "import flipwell.rules\nfrom flipwell.rules import fmt"),
        ("flipwell.urls", "from flipwell.api.api import api\nfrom flipwell.web import urls"),
        ("flipwell.serving.pages", "from flipwell.league.derived.caches import build"),
        ("flipwell.web.views.tv", "from flipwell.serving.http_cache import View"),
    ],
)
def test_layers_checker_allows_an_import_downwards(module, source):
    assert forbidden_imports(module, source) == []
