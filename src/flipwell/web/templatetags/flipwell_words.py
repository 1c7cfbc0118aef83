"""``plain`` and ``rules_cited``: a sentence as a person reads it first, and the rules it
rests on for the expandable "why" after it (`flipwell.web.words`; templates/manage/_why.html
in the console, templates/public/_why.html on the pages players read). ``turn_ruled`` and
``what_owed``: the words of a league's facts (`flipwell.web.words.turn_rulings`,
`flipwell.web.words.incidents`)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from django import template

from flipwell.web.words import split_rules
from flipwell.web.words.incidents import what_owed as owed_in_words
from flipwell.web.words.turn_rulings import WORDS

if TYPE_CHECKING:
    from flipwell.league.services.malfunctions.game_ending import Owed

register = template.Library()


@register.filter
def plain(text: object) -> str:
    """The sentence without its bracketed rule ids."""
    return split_rules(str(text))[0]


@register.filter
def rules_cited(text: object, more: object = None) -> str:
    """The rule ids a text cites, joined by ", "; "" when it cites none. Given a list of
    texts (an explanation's lines), the ids of them all, each once, in order; `more` (a text
    or a list) adds the ids it cites after them: ``{{ what|rules_cited:details }}``."""
    cited = [rule for one in (*_texts(text), *_texts(more)) for rule in split_rules(one)[1]]
    return ", ".join(dict.fromkeys(cited))


@register.filter
def turn_ruled(kind: str) -> str:
    """What a turn ruling of `kind` ruled, as the player's pages say it."""
    return WORDS[kind].ruled


@register.filter
def what_owed(owed: Owed) -> str:
    """What a game-ending event gives one player, in plain words."""
    return owed_in_words(owed)


def _texts(value: object) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str) or not isinstance(value, Iterable):
        return [str(value)]
    return [str(one) for one in value]
