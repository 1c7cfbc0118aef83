"""One truth on every screen (issue 33 §2): every number a person or a client reads about a
game (its scores, places and points) comes from one derived view of the meet built from the
season fold, the meet board's game lines (`flipwell.league.selectors.meet_board`, from
`flipwell.rules.game_lines`); nothing else reads the stored sheet lines to show them, and
nothing else computes places or points (STYLE.md §16).

Words:
- *reading stored sheet lines*: naming the `ScoreLine` model, asking the ORM for a
  ``machine_score`` column or for a submission's ``lines`` (``x.lines.all()``,
  ``prefetch_related("lines")``), or reading the board's copy of the counted sheet as entered
  (`BoardGame.entered_scores`, which the API's meet read once showed as the result).
- *computing places or points*: calling the rules' scorers (``score_game``, ``score_match``,
  ``scored_game``, ``game_points``, ``fifth_game``, ``match_bonus_points``) or reading a
  scored game's ``final_scores`` (the fold's numbers before they are a game line).
- *allowed*: a module whose job it is (the models, the services that store and check sheets,
  the adapters that make facts of them, the fold and the view), or one function of a module
  named with the reason it reads a fact that is not a number of the result (a sheet waiting
  for confirmation, a correction's claimed scores, which sheet lines are empty).

Every reference counts, at any depth of a module.
"""

from __future__ import annotations

import ast
from pathlib import Path

import flipwell

SRC = Path(flipwell.__file__).parent

SHEET_READERS = (
    "flipwell.rules",  # knows no model: facts are plain data
    "flipwell.league.models",
    "flipwell.league.migrations",
    "flipwell.league.admin",  # the admin shows and edits facts (read only for sheets)
    "flipwell.league.adapters",  # stored sheets -> the rules' facts, which the fold folds
    "flipwell.league.services",  # writes: store, check and refold sheets
    "flipwell.league.selectors.meet_board",  # THE view: game lines with the counted sheet
    # The playoff night's sheets are other models (PlayoffResult, PlayoffSheetLine) whose
    # scores no rule adjusts: the playoff selectors are their view.
    "flipwell.league.selectors.playoffs",
    "flipwell.league.selectors.playoff_sheet",
)
"""Modules whose job is to read stored sheet lines."""

SHEET_READING_FUNCTIONS = {
    ("flipwell.league.selectors.scoresheet", "_pending"): "the sheet waiting for confirmation "
    "as entered, which the fold then scores as if confirmed (pending_game_lines)",
    ("flipwell.league.selectors.scoresheet", "_open_corrections"): "a correction request's "
    "recorded and claimed scores: the facts the players answer, not a result",
    ("flipwell.league.selectors.console", "meet_forfeits"): "which lines of a counted sheet "
    "are empty (forfeits entered on a sheet): no number",
    ("flipwell.api.schemas.sheets", "SubmissionOut"): "every version of a sheet as entered: "
    "the facts, beside the result (GameOut.result)",
    ("flipwell.league.selectors.lookups", "game_with_sheets"): "loads those versions for "
    "SubmissionOut (the API's game_sheets)",
    ("flipwell.api.schemas.playoff_corrections", "PlayoffCorrectionOut"): "a playoff "
    "correction's claimed scores: the facts the players answer, not a result (the playoff "
    "sheets' scores no rule adjusts)",
}
"""One function (or class) of a module, and why it may read stored sheet lines."""

SCORERS = (
    "score_game",
    "score_match",
    "scored_game",
    "game_points",
    "fifth_game",
    "match_bonus_points",
)
SCORING_MODULES = (
    "flipwell.rules",
    "flipwell.league.services",  # a write checks a sheet before storing it
    "flipwell.league.derived.results",  # the season fold
    "flipwell.league.exchange",  # season files: folded to check them
    "flipwell.league.selectors.meet_board",  # THE view
    "flipwell.cli",  # `flipwell standings FILE`: a season file folded, no database
)
"""Modules that may compute places or points, or read a scored game's `final_scores`."""

ORM_CALLS = {"values_list", "values", "only", "filter", "exclude", "order_by", "get", "defer"}
ORM_OF_LINES = {"all", "values_list", "values", "filter", "order_by", "first", "get"}


def _within(name: str, prefixes: tuple[str, ...]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def _sheet_reads(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, what) for each read of stored sheet lines in `tree` (see the module's words)."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id == "ScoreLine":
            found.append((node.lineno, "ScoreLine"))
        elif isinstance(node, ast.Attribute) and node.attr in {"ScoreLine", "entered_scores"}:
            found.append((node.lineno, node.attr))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            method = node.func.attr
            texts = [a.value for a in node.args if isinstance(a, ast.Constant)]
            texts = [t for t in texts if isinstance(t, str)]
            if method in ORM_CALLS and any(t.split("__")[-1] == "machine_score" for t in texts):
                found.append((node.lineno, f"{method}(... 'machine_score')"))
            if method == "prefetch_related" and any(t.split("__")[-1] == "lines" for t in texts):
                found.append((node.lineno, "prefetch_related('lines')"))
            owner = node.func.value
            if (
                method in ORM_OF_LINES
                and isinstance(owner, ast.Attribute)
                and owner.attr == "lines"
                and _is_submission(owner.value)
            ):
                found.append((node.lineno, f".lines.{method}()"))
    return found


def _is_submission(node: ast.expr) -> bool:
    """A name that says it is a score submission (`submission`, `obj` of SubmissionOut...),
    not a playoff sheet or a machine's history (whose `lines` are other things)."""
    name = node.id if isinstance(node, ast.Name) else getattr(node, "attr", "")
    return name in {"submission", "obj", "counted", "stored", "base", "proposed", "request"}


def _scoring(tree: ast.AST) -> list[tuple[int, str]]:
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            if name in SCORERS:
                found.append((node.lineno, f"{name}()"))
        elif isinstance(node, ast.Attribute) and node.attr == "final_scores":
            found.append((node.lineno, ".final_scores"))
    return found


def _enclosing(tree: ast.AST) -> dict[int, str]:
    """Line -> the top-level function or class of the module it is in."""
    found: dict[int, str] = {}
    body = tree.body if isinstance(tree, ast.Module) else []
    for node in body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            for line in range(node.lineno, (node.end_lineno or node.lineno) + 1):
                found[line] = node.name
    return found


def _modules() -> list[tuple[str, ast.AST]]:
    found = []
    for path in sorted(SRC.rglob("*.py")):
        parts = path.relative_to(SRC.parent).with_suffix("").parts
        module = ".".join(parts).removesuffix(".__init__")
        found.append((module, ast.parse(path.read_text())))
    return found


def sheet_readers(module: str, tree: ast.AST) -> list[str]:
    """Each read of stored sheet lines in `module` outside what `SHEET_READERS` and
    `SHEET_READING_FUNCTIONS` allow, as ``"module:line (function) what"``."""
    if _within(module, SHEET_READERS):
        return []
    where = _enclosing(tree)
    return [
        f"{module}:{line} ({where.get(line, '')}) {what}"
        for line, what in _sheet_reads(tree)
        if (module, where.get(line, "")) not in SHEET_READING_FUNCTIONS
    ]


def scorers(module: str, tree: ast.AST) -> list[str]:
    """Each computation of places or points in `module` outside `SCORING_MODULES`."""
    if _within(module, SCORING_MODULES):
        return []
    return [f"{module}:{line} {what}" for line, what in _scoring(tree)]


def test_only_the_view_reads_stored_sheet_lines():
    broken = [problem for module, tree in _modules() for problem in sheet_readers(module, tree)]

    assert broken == []


def test_only_the_view_computes_places_and_points():
    broken = [problem for module, tree in _modules() for problem in scorers(module, tree)]

    assert broken == []


def test_each_allowed_function_still_reads_sheet_lines():
    """An allowance that no longer reads anything is dropped, so it cannot hide a new one."""
    trees = dict(_modules())
    used = set()
    for (module, function), _ in SHEET_READING_FUNCTIONS.items():
        where = _enclosing(trees[module])
        if any(where.get(line) == function for line, _ in _sheet_reads(trees[module])):
            used.add((module, function))

    assert used == set(SHEET_READING_FUNCTIONS)


def _parsed(source: str) -> ast.AST:
    return ast.parse(source)


def test_checker_finds_a_selector_that_reads_entered_scores():
    """The bug of issue 33: the API's meet read showed the entered score, not the fold's."""
    source = (
        "def board(meet):\n"
        "    return m.ScoreLine.objects.filter(submission__game__group__meet=meet)"
        ".values_list('player_id', 'machine_score')\n"
    )

    found = sheet_readers("flipwell.league.selectors.public_pages", _parsed(source))

    assert sorted(found) == [
        "flipwell.league.selectors.public_pages:2 (board) ScoreLine",
        "flipwell.league.selectors.public_pages:2 (board) values_list(... 'machine_score')",
    ]


def test_checker_finds_a_schema_that_reads_a_submissions_lines():
    source = "class BoardGameOut:\n    def resolve_scores(obj):\n        return obj.lines.all()\n"

    found = sheet_readers("flipwell.api.schemas.meets", _parsed(source))

    assert found == ["flipwell.api.schemas.meets:3 (BoardGameOut) .lines.all()"]


def test_checker_finds_a_reader_of_the_boards_entered_sheet():
    """The bug of issue 33: the API's meet read gave the sheet as entered beside the fold's
    order (18,100,000, not the 32,700,000 that counts)."""
    source = "def resolve_scores(obj):\n    return obj.entered_scores.items()\n"

    found = sheet_readers("flipwell.api.schemas.meets", _parsed(source))

    assert found == ["flipwell.api.schemas.meets:2 (resolve_scores) entered_scores"]


def test_checker_finds_a_sheet_scored_outside_the_view():
    """The bug of issue 33: the check table scored the entered sheet alone (score_game)."""
    source = "def points(sheet):\n    return score_game(sheet, tie_order=[])\n"

    found = scorers("flipwell.league.selectors.scoresheet", _parsed(source))

    assert found == ["flipwell.league.selectors.scoresheet:2 score_game()"]


def test_checker_lets_the_view_and_the_services_read_sheets():
    source = "def f(game):\n    return m.ScoreLine.objects.filter(game=game)\n"

    assert sheet_readers("flipwell.league.selectors.meet_board", _parsed(source)) == []
    assert sheet_readers("flipwell.league.services.scores.entry", _parsed(source)) == []
