"""``race_word``: a player's place in the playoff race in words (`flipwell.web.race_words`),
the one way every template says it: ``{% race_word line standings as word %}``."""

from __future__ import annotations

from django import template

from flipwell.league.selectors.standings import StandingLine, Standings
from flipwell.web.race_words import (
    CLINCHED,
    ELIMINATED,
    NO_GAME_YET,
    NOT_ELIGIBLE,
    SEASON_FORFEITED,
    RaceWord,
)
from flipwell.web.race_words import race_word as word_for

register = template.Library()


@register.simple_tag
def race_word(line: StandingLine | None, standings: Standings | None) -> RaceWord | None:
    """`line`'s race word in `standings`; None when there is none to show."""
    return word_for(line, standings) if standings is not None else None


@register.simple_tag
def race_words() -> dict[str, RaceWord]:
    """The named words, for a legend: ``{% race_words as words %}{{ words.clinched.text }}``."""
    return {
        "clinched": CLINCHED,
        "eliminated": ELIMINATED,
        "no_game_yet": NO_GAME_YET,
        "season_forfeited": SEASON_FORFEITED,
        "not_eligible": NOT_ELIGIBLE,
    }
