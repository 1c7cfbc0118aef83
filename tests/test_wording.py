"""What players read speaks of a player as "they" (issue #11, item 11): no "he", "his" or "him"
in a message, an explanation or a page. The check reads the source: every string literal of
the code that writes text for people (docstrings and comments aside) and every template."""

from __future__ import annotations

import ast
import re
from pathlib import Path

SRC = Path(__file__).parents[1] / "src" / "flipwell"
TEXT_CODE = ("rules", "league/services", "league/selectors", "league/enums.py", "web")
GENDERED = re.compile(r"\b(he|his|him|himself)\b", re.IGNORECASE)


def _python_files() -> list[Path]:
    found: list[Path] = []
    for part in TEXT_CODE:
        path = SRC / part
        found.extend([path] if path.is_file() else sorted(path.rglob("*.py")))
    return found


def _docstrings(tree: ast.AST) -> set[int]:
    """ids of the string constants that are docstrings (of a module, class or function), or
    an attribute's docstring (a bare string statement)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            found.add(id(node.value))
    return found


def _gendered_strings(path: Path) -> list[str]:
    tree = ast.parse(path.read_text())
    skip = _docstrings(tree)
    found = []
    for node in ast.walk(tree):
        text = node.value if isinstance(node, ast.Constant) else None
        if isinstance(text, str) and id(node) not in skip and GENDERED.search(text):
            found.append(f"{path.relative_to(SRC)}:{node.lineno}: {text!r}")
    return found


def _template_text(path: Path) -> str:
    """A template without its comments."""
    text = re.sub(r"{#.*?#}", "", path.read_text())
    return re.sub(r"{% comment %}.*?{% endcomment %}", "", text, flags=re.S)


def test_wording_no_he_his_or_him_in_messages():
    found = [line for path in _python_files() for line in _gendered_strings(path)]

    assert not found, "\n".join(found)


def test_wording_no_he_his_or_him_in_templates():
    found = [
        f"{path.relative_to(SRC)}: {match.group(0)!r}"
        for path in sorted((SRC / "web" / "templates").rglob("*.html"))
        for match in GENDERED.finditer(_template_text(path))
    ]

    assert not found, "\n".join(found)


# issue 27 §5: a rule id ("R3.2-c", "A06", "§8.5") in brackets inside a sentence.
RULE_IN_BRACKETS = re.compile(
    r"[\[(](?:R\d+(?:\.\d+)*-[a-z]+|A\d{2}|§\d+(?:\.\d+)*)[^\])\n]{0,40}[\])]"
)
RULE_ID = re.compile(r"\b(?:R\d+(?:\.\d+)*-[a-z]+|A\d{2})\b|§\d")
# "1 ball(s)", "game(s)": a plural a program could have written properly.
PLURAL_IN_BRACKETS = re.compile(r"\w\(s\)")
PLAYER_TEMPLATES = ("public", "scoresheet", "me", "tv")
OFFICIAL_WORDS = ("Forms list", "Draw seed")


def test_wording_player_pages_write_no_rule_id_in_a_sentence():
    """Issue 27 §5: the pages a player reads ("[R3.2-c]", "[R2.4-d]", "(R7.3-p)") cite a rule
    apart from the sentence (folded in public/_why.html), never inside it."""
    found = [
        f"{path.relative_to(SRC)}: {match.group(0)!r}"
        for folder in PLAYER_TEMPLATES
        for path in sorted((SRC / "web" / "templates" / folder).rglob("*.html"))
        for match in RULE_IN_BRACKETS.finditer(_template_text(path))
    ]

    assert not found, "\n".join(found)


def test_wording_form_labels_name_no_rule_id():
    """Issue 27 §5: a field's label ("Leading points subtracted (R7.3-n)") is the sentence
    read first; the rule goes in its help text."""
    from django import forms

    from flipwell.web import forms as web_forms

    modules = [
        __import__(f"flipwell.web.forms.{path.stem}", fromlist=["_"])
        for path in sorted(Path(web_forms.__file__).parent.glob("*.py"))
    ]
    found = [
        f"{form.__name__}.{name}: {field.label!r}"
        for module in modules
        for form in vars(module).values()
        if isinstance(form, type) and issubclass(form, forms.BaseForm)
        for name, field in getattr(form, "base_fields", {}).items()
        if field.label and RULE_ID.search(str(field.label))
    ]

    assert not found, "\n".join(found)


def test_wording_no_plural_in_brackets_or_console_jargon():
    """Issue 27 §5: "1 ball(s)", "Forms list:", "Draw seed" and "(A06)" are gone from the
    templates and from the web code's messages."""
    templates = {
        path: _template_text(path) for path in sorted((SRC / "web" / "templates").rglob("*.html"))
    }
    code = {path: path.read_text() for path in sorted((SRC / "web").rglob("*.py"))}
    found = [
        f"{path.relative_to(SRC)}: {words!r}"
        for path, text in {**templates, **code}.items()
        for words in [m.group(0) for m in PLURAL_IN_BRACKETS.finditer(text)]
        + [w for w in (*OFFICIAL_WORDS, "(A06)") if w in text]
    ]

    assert not found, "\n".join(found)


WHY_FOLD = re.compile(
    r'<details class="why">.*?</details>|{% include "manage/_why.html"[^%]*%}', re.S
)


def test_wording_console_templates_cite_rules_only_in_the_why():
    """Issue 27 §5: a console template writes a rule id ("(R2.2-a)", "(A52)", "§8.5") only in
    its folded "why" (manage/_why.html, ``<details class="why">``), never in a sentence, a
    heading or a help text read first."""
    from flipwell.web.words import RULE_ID as ANY_RULE

    found = [
        f"{path.relative_to(SRC)}: {match.group(0)!r}"
        for path in sorted((SRC / "web" / "templates" / "manage").rglob("*.html"))
        if path.name != "_why.html"
        for match in ANY_RULE.finditer(WHY_FOLD.sub("", _template_text(path)))
    ]

    assert not found, "\n".join(found)


def test_wording_help_texts_cite_rules_only_in_brackets():
    """Issue 27 §5: the console shows a help text without its bracketed rule ids, which go
    to the "why" (flipwell.web.words.split_rules); a rule id elsewhere in it would stay in
    the sentence ("Rule R7.3-n: only when…")."""
    from django import forms

    from flipwell.web import forms as web_forms
    from flipwell.web.words import RULE_ID as ANY_RULE
    from flipwell.web.words import split_rules

    modules = [
        __import__(f"flipwell.web.forms.{path.stem}", fromlist=["_"])
        for path in sorted(Path(web_forms.__file__).parent.glob("*.py"))
    ]
    found = [
        f"{form.__name__}.{name}: {field.help_text!r}"
        for module in modules
        for form in vars(module).values()
        if isinstance(form, type) and issubclass(form, forms.BaseForm)
        for name, field in getattr(form, "base_fields", {}).items()
        if ANY_RULE.search(split_rules(str(field.help_text))[0])
        or any(ANY_RULE.search(str(label)) for _, label in getattr(field, "choices", ()))
    ]

    assert not found, "\n".join(found)


CODE_SUFFIXES = (".py", ".html", ".js", ".css", ".txt")
ISSUE_REFERENCE = re.compile(r"\bissue (#\d+|\d+\b)", re.IGNORECASE)
"""'issue #13', 'issue 27 §5': which issue asked belongs in the commit log, not in the code."""


def test_the_code_says_what_and_why_never_which_issue_asked():
    found = [
        f"{path.relative_to(SRC)}:{number}: {line.strip()}"
        for path in sorted(SRC.rglob("*"))
        if path.suffix in CODE_SUFFIXES and "__pycache__" not in path.parts
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if ISSUE_REFERENCE.search(line)
    ]
    assert found == []
