"""A group's next game on the meet board: the machines' states, who arrived late, open
compensatory games, who picks the next machine and the play order (§5, §5.2, R7.3-p, R2.4-a).

Words:
- *machine state*: a machine as the rules see it at a meet (`flipwell.rules.MachineState`).
- *in use*: a machine with a game of the open meet whose scores are not confirmed yet (flipwell
  does not track the ball being played, so such a machine is never "on its final ball", R5-d).
- *late player*: a player who arrived after their group began play (§2.3): they joined a game
  in progress (a `LateJoin`) or forfeited one as late.
- *open compensatory game*: one the LO granted whose scores are not recorded yet (R7.3-p).
- *absent at the next game*: a player the LO recorded as gone for the rest of the match at the
  game in play or the next one (R2.4-a).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence

from flipwell.league import models as m
from flipwell.league.adapters.keys import machine_key, player_key
from flipwell.league.derived.compiled import Rows, rows_together
from flipwell.league.selectors.meet_board.queries import (
    COMPENSATORY_QUERIES,
    LATE_QUERIES,
    MACHINE_QUERIES,
)
from flipwell.league.selectors.meet_board.values import GAMES_PER_MATCH, BoardGame
from flipwell.rules import (
    THE_LO,
    MachineState,
    PlayedGame,
    RuleError,
    Ruleset,
    machine_picker,
    play_order,
)


def machine_states(meet: m.Meet) -> list[tuple[MachineState, str]]:
    """Every machine of the league as the rules see it at `meet` (R5-d, R7.3-q, R7.3-r), with
    its title. Machines are named by `machine_key`; a machine is unplayable when its standing
    status says so or its latest declaration at this meet does (until marked repaired); in use
    while a game of the open meet on it has no confirmed scores (3 queries, run together)."""
    rows = rows_together(MACHINE_QUERIES, meet.pk)
    return machine_states_from(rows, open_meet=meet.status == m.Meet.Status.OPEN)


def machine_states_from(rows: Rows, *, open_meet: bool) -> list[tuple[MachineState, str]]:
    latest: dict[int, str] = {}
    for machine_id, kind in rows["declarations"]:  # oldest first: the last one counts
        latest[machine_id] = kind
    in_use: dict[int, int] = {}
    if open_meet:
        for machine_id, group_number in rows["in_use"]:
            in_use.setdefault(machine_id, group_number)
    states = []
    for machine_id, title, balls, status in rows["machines"]:
        unplayable = (
            status == m.Machine.Status.UNPLAYABLE
            or latest.get(machine_id) == m.MachineDeclaration.Kind.UNPLAYABLE
        )
        group = None if unplayable else in_use.get(machine_id)
        states.append(
            (
                MachineState(
                    machine=machine_key(machine_id, title),
                    balls_per_game=balls,
                    in_use_by=group,
                    current_ball=None if group is None else 1,
                    unplayable=unplayable,
                ),
                title,
            )
        )
    return states


def late_players_from(rows: Rows) -> dict[int, frozenset[int]]:
    found: dict[int, set[int]] = defaultdict(set)
    for group_id, player_id in [*rows["late_joins"], *rows["late_forfeits"]]:
        found[group_id].add(player_id)
    return {g: frozenset(p) for g, p in found.items()}


def open_compensatory(meet: m.Meet) -> dict[int, list[int]]:
    """Group id -> players with a granted compensatory game not yet recorded (R7.3-p; 2
    queries, run together)."""
    return open_compensatory_from(rows_together(COMPENSATORY_QUERIES, meet.pk))


def late_players_and_open_compensatory(
    meet: m.Meet,
) -> tuple[dict[int, frozenset[int]], dict[int, list[int]]]:
    """Group id -> players who arrived after the group began (joined late or forfeited late),
    and `open_compensatory` of `meet`: what a machine choice needs (4 queries, run
    together)."""
    rows = rows_together({**LATE_QUERIES, **COMPENSATORY_QUERIES}, meet.pk)
    return late_players_from(rows), open_compensatory_from(rows)


def open_compensatory_from(rows: Rows) -> dict[int, list[int]]:
    done = {(game_id, player_id) for game_id, player_id, *_ in rows["compensatory"]}
    found: dict[int, list[int]] = defaultdict(list)
    for group_id, game_id, player_id in rows["requested"]:
        if (game_id, player_id) not in done:
            found[group_id].append(player_id)
    return found


def played_games(games: Sequence[BoardGame]) -> list[PlayedGame]:
    """The group's confirmed games as the rules' `PlayedGame`s (keys are player keys)."""
    return [
        PlayedGame(
            machine=machine_key(g.machine_id, g.machine),
            order=tuple(player_key(p) for p in g.finishing_order),
            selector=None if g.chosen_by is None else player_key(g.chosen_by),
        )
        for g in games
        if g.confirmed
    ]


def official_picks(
    games: Sequence[BoardGame], played: Sequence[PlayedGame], ruleset: Ruleset
) -> bool:
    """Nobody played the last game and the match goes on: the LO picks (R5-c, A66)."""
    if not games or not games[-1].confirmed or len(games) >= GAMES_PER_MATCH:
        return False
    return bool(played) and machine_picker(played, ruleset=ruleset) is THE_LO


def next_picker(
    games: Sequence[BoardGame],
    played: Sequence[PlayedGame],
    late: frozenset[int],
    ruleset: Ruleset,
    absent: frozenset[int] = frozenset(),
) -> int | None:
    if not games or not games[-1].confirmed or len(games) >= GAMES_PER_MATCH:
        return None
    try:
        picker = machine_picker(
            played,
            late=[player_key(p) for p in late],
            absent=[player_key(p) for p in sorted(absent)],
            ruleset=ruleset,
        )
    except RuleError:  # pragma: no cover - the board's games are valid
        return None
    if picker is THE_LO:
        return None  # nobody played the last game: the LO chooses or draws (A66)
    return int(picker)


def next_play_order(
    players: Sequence[int],
    games: Sequence[BoardGame],
    played: Sequence[PlayedGame],
    late: frozenset[int],
    ruleset: Ruleset,
    absent: frozenset[int] = frozenset(),
) -> tuple[int, ...]:
    """The order of the game in play or the next one (R5.2); the players absent for the rest
    of the match at that game have no turn (R2.4-a)."""
    before = played if not games or games[-1].confirmed else played[: len(games) - 1]
    order = play_order(
        [player_key(p) for p in players],
        games=before,
        present=[player_key(p) for p in players if p not in absent],
        late=[player_key(p) for p in late],
        ruleset=ruleset,
    )
    return tuple(int(p) for p in order)


def absent_from(rows: Rows) -> dict[int, dict[int, int]]:
    """Group id -> players absent for the rest of the match -> the first game (R2.4-a)."""
    found: dict[int, dict[int, int]] = defaultdict(dict)
    for group_id, player_id, from_game in rows["match_absences"]:
        found[group_id][player_id] = from_game
    return found


def absent_at_next(absent: Mapping[int, int], games: Sequence[BoardGame]) -> frozenset[int]:
    """The players absent at the game in play, or at the next game once the last is
    confirmed (the game a picker and a play order are for)."""
    if not absent:
        return frozenset()
    number = len(games) + 1 if not games or games[-1].confirmed else len(games)
    return frozenset(p for p, first in absent.items() if first <= number)
