"""``plain`` and ``rules_cited``: a message or help text as the console shows it, the sentence
first and its rules in the expandable "why" (`flipwell.web.words`, templates/manage/_why.html)."""

from __future__ import annotations

from django import template

from flipwell.web.words import split_rules

register = template.Library()


@register.filter
def plain(text: object) -> str:
    """The sentence without its bracketed rule ids."""
    return split_rules(str(text))[0]


@register.filter
def rules_cited(text: object) -> str:
    """The rule ids the text cites, joined by ", "; "" when it cites none."""
    return ", ".join(split_rules(str(text))[1])
