"""A player of a playoff match starts its next game from the match's sheet (§6.4).

Words (see `flipwell.league.models.playoffs.PlayoffSheet` and `flipwell.rules.playoff_sheet`):
game 1's machine is drawn at random (R6.4-b); the *picker* of games 2 and 3 is the loser of
the previous game (R6.4-c). The sheet's signed link is the key: no actor.
"""

from __future__ import annotations

from flipwell.league import models as m
from flipwell.league.adapters.keys import player_key
from flipwell.league.services._edge import league_changed, rules_edge
from flipwell.league.services.playoff_matches.games import start_game
from flipwell.league.services.playoff_matches.match_facts import match_facts
from flipwell.league.services.playoff_sheets.match_sheet import require_present, sheet_write
from flipwell.rules import check_machine_picker


def start_playoff_game_on_sheet(
    *,
    season: m.Season,
    division: str,
    match: str,
    started_by: m.Player,
    machine: m.Machine | None = None,
) -> m.PlayoffGame:
    """A player of the match starts its next game from the sheet (§6.4).

    Game 1's machine is drawn at random (R6.4-b): any present player starts it, `machine`
    None. Games 2 and 3: only the loser of the previous game picks (R6.4-c), among the
    machines the §5 constraints allow (R6.4-a, A44); anyone else is refused
    (``not_the_picker``). Side effects as `start_playoff_game` (no actor: the sheet's link).
    """
    with sheet_write(season.league, None, action="start a playoff game"):
        league_changed(season.league_id)
        _, facts, _, state = match_facts(season, division, match)
        require_present(state, facts, started_by, field="chosen_by")
        with rules_edge("chosen_by", code="not_the_picker"):
            check_machine_picker(state, player_key(started_by.pk))
        return start_game(season, division, match, machine=machine, actor=None)
