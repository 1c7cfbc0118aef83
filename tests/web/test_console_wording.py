"""Words an official reads first (issue 27 §5): on every console page, a rule id ("R2.4-g",
"A52", "§8.5") appears only in the folded "why" after a sentence (templates/manage/_why.html,
``<details class="why">``), never in the sentence, a heading, a help text or a message.

Words:
- *visible text*: a page's text outside its ``<details class="why">`` elements, its ``<title>``,
  scripts and styles.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

import pytest
from django.template.loader import render_to_string

from flipwell.web.words import RULE_ID, split_rules
from tests.web.console_forms import PAGES, urls_of

pytestmark = pytest.mark.django_db


class VisibleText(HTMLParser):
    """A page's text outside each ``<details class="why">``, its title, scripts and styles."""

    HIDDEN = ("title", "script", "style")

    def __init__(self) -> None:
        super().__init__()
        self.text: list[str] = []
        self._open: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        classes = (dict(attrs).get("class") or "").split()
        hides = tag in self.HIDDEN or (tag == "details" and "why" in classes)
        if tag in ("input", "br", "meta", "link", "img", "hr", "wbr"):
            return
        self._open.append(tag if not hides else f"hidden:{tag}")
        self._hidden += hides

    def handle_endtag(self, tag: str) -> None:
        while self._open:
            top = self._open.pop()
            self._hidden -= top.startswith("hidden:")
            if top.removeprefix("hidden:") == tag:
                break

    def handle_data(self, data: str) -> None:
        if not self._hidden:
            self.text.append(data)


def visible(page: str) -> str:
    reader = VisibleText()
    reader.feed(page)
    return re.sub(r"\s+", " ", " ".join(reader.text))


def test_split_rules_moves_bracketed_rule_ids_out_of_the_sentence():
    """Issue 27 §5: "(R5-c, A21)" leaves the sentence; words in the same bracket stay."""
    said = "Game 3's pick is Ann's (last place in game 2, R5-c, A21): not yours (A66)."

    assert split_rules(said) == (
        "Game 3's pick is Ann's (last place in game 2): not yours.",
        ("R5-c", "A21", "A66"),
    )


def test_split_rules_keeps_a_bracket_without_rule_ids():
    assert split_rules("Closing needs a reason (A52: a group is not finished) (see below).") == (
        "Closing needs a reason (a group is not finished) (see below).",
        ("A52",),
    )


def test_console_field_error_shows_its_rules_folded():
    """Issue 27 §5: a service's refusal "… (R2.4-g)." shows the sentence, the rule in the why."""
    from django import forms

    class One(forms.Form):
        note = forms.CharField(help_text="Leave empty: the next meet (R2.4-f).")

    form = One({"note": ""})
    form.is_valid()
    form.add_error("note", "A non-countable forfeit needs a reason (R2.4-g).")

    html = render_to_string("manage/_form.html", {"form": form, "action": "x", "submit": "Go"})

    assert visible(html).count("R2.4") == 0
    assert "A non-countable forfeit needs a reason." in visible(html)
    assert "Leave empty: the next meet." in visible(html)
    assert html.count('<details class="why"><summary>Why</summary>') == 2
    assert "The rulebook: R2.4-g." in html
    assert "The rulebook: R2.4-f." in html


def test_console_pages_show_rule_ids_only_in_the_why(client, console_night: dict[str, Any]):
    """Issue 27 §5: no console page of a league night (meet open, next meet planned) shows a
    rule id outside its folded "why"."""
    client.force_login(console_night["lo"])
    found = []
    opened = 0
    for pattern in PAGES:
        for url in urls_of(pattern, console_night["ids"]):
            response = client.get(url)
            if response.status_code != 200 or "html" not in response["Content-Type"]:
                continue
            opened += 1
            text = visible(response.content.decode())
            found += [
                f"{url}: …{text[max(0, m.start() - 60) : m.end() + 10]}…"
                for m in RULE_ID.finditer(text)
            ]

    assert opened > 20
    assert found == [], "\n".join(found)
