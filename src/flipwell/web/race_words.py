"""The words for a player's place in the playoff race: one source for every screen (the
standings, the player page, the TV, the printed standings), so that they never differ.

Words (`flipwell.rules.race` and `flipwell.league.selectors.standings` define the states):
- *clinched* / *eliminated*: certain whatever happens, the meet being played included.
- *playoff line after meet N*: no line yet (fewer than six players have played a game); it is
  drawn after meet N at the earliest. Said to every player still in the race, instead of a
  word that reads as barred.
- *no game yet*: not eligible yet (no game played) but a game still to play: not barred.
- *season forfeited*: out of the race after his countable forfeits (R2.5-a).
- *not eligible*: out of the race with no game left to play (A05).
- an alive eligible player gets no word, except where a place changes (`place_word`: *still
  in the race*, or *eligible, no playoff line yet*).
"""

from __future__ import annotations

from dataclasses import dataclass

from flipwell.league.selectors.standings import StandingLine, Standings
from flipwell.rules import RacePlace


@dataclass(frozen=True)
class RaceWord:
    """A race state as read: its words and its badge's style (`clinched`, `eliminated`,
    `muted-badge`)."""

    text: str
    style: str


CLINCHED = RaceWord("clinched", "clinched")
ELIMINATED = RaceWord("eliminated", "eliminated")
NO_GAME_YET = RaceWord("no game yet", "muted-badge")
SEASON_FORFEITED = RaceWord("season forfeited", "muted-badge")
NOT_ELIGIBLE = RaceWord("not eligible", "muted-badge")


def race_word(line: StandingLine | None, standings: Standings) -> RaceWord | None:
    """The word for `line`'s place in the race of `standings`; None for an alive eligible
    player (and for no line)."""
    if line is None:
        return None
    if line.race_status == "clinched":
        return CLINCHED
    if line.race_status == "eliminated":
        return ELIMINATED
    if line.season_forfeited_at is not None:
        return SEASON_FORFEITED
    if not line.eligible and not line.may_become_eligible:
        return NOT_ELIGIBLE
    if standings.playoff_line_after_meet is not None:
        return RaceWord(
            f"playoff line after meet {standings.playoff_line_after_meet}", "muted-badge"
        )
    if not line.eligible:
        return NO_GAME_YET
    return None


ALIVE = RaceWord("still in the race", "muted-badge")
NO_LINE = RaceWord("eligible, no playoff line yet", "muted-badge")


def place_word(place: RacePlace) -> RaceWord:
    """The word for a player's place in the race as a season cut short changes it (A68):
    every place has one, an alive eligible player's included, so a change reads both ways."""
    if place.eligibility == "not_eligible":
        return NOT_ELIGIBLE
    if place.eligibility == "may_become_eligible":
        return NO_GAME_YET
    if place.status == "clinched":
        return CLINCHED
    if place.status == "eliminated":
        return ELIMINATED
    return ALIVE if place.status == "alive" else NO_LINE
