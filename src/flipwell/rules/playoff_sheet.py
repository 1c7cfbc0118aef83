"""A playoff match's score sheet at the machine (§6.3-§6.5, §3): who may do what, and the
points as they accrue.

Words:
- *sheet*: a playoff match's page for its players: the games so far, the game in play, its
  machine scores as entered, confirmed by another player of the match (R3-a as on a league
  night), and what comes next.
- *present players*: the match's players who are not no-shows (R6.6-c); only they enter,
  confirm, pick and agree to corrections.
- *running total*: a present player's PAPA points after each game of the match (R6.3-a,
  R6.3-c); earlier rounds never count (R6.3-f).
- *picker*: the player who picks the next game's machine: the loser (last place) of the
  previous game (R6.4-c). Game 1 and tiebreakers are drawn at random (R6.4-b, R6.5-b).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from flipwell.rules.checks import check_unique
from flipwell.rules.errors import RuleError, about_player
from flipwell.rules.playoff_matches import ADVANCING, PlayoffMatchState
from flipwell.rules.playoffs import papa_points
from flipwell.rules.sheet_roles import who_may_confirm
from flipwell.rules.values import PlayerId

ORDINALS = ("1st", "2nd", "3rd", "4th")


@dataclass(frozen=True)
class PlayoffGameLine:
    """One game of a match on its sheet: finishing order, each player's PAPA points in it, and
    each player's running total after it (R6.3-a, R6.3-c)."""

    number: int
    order: tuple[PlayerId, ...]
    points: Mapping[PlayerId, int]
    totals: Mapping[PlayerId, int]


def running_totals(
    players: Sequence[PlayerId], orders: Sequence[Sequence[PlayerId]]
) -> tuple[PlayoffGameLine, ...]:
    """Each game's PAPA points (4-2-1-0, no bonus) and every player's running total after it.

    §6.3: R6.3-a (4-2-1-0), R6.3-b (no bonus), R6.3-c (3 games, the total places), R6.6-d
    (a 3-player round is 4-2-1). `players` are the match's present players; every game's
    finishing order holds exactly them.
    """
    present = check_unique(players, what="the match's players")
    totals = dict.fromkeys(present, 0)
    lines = []
    for number, order in enumerate(orders, start=1):
        if sorted(order) != sorted(present):
            raise RuleError(f"game {number}'s finishing order is not the match's players")
        points = papa_points(order)
        for player, value in points.items():
            totals[player] += value
        lines.append(
            PlayoffGameLine(
                number,
                tuple(order),
                MappingProxyType(dict(points)),
                MappingProxyType(dict(totals)),
            )
        )
    return tuple(lines)


def check_sheet_confirmer(
    *, players: Sequence[PlayerId], entered_by: PlayerId, confirmed_by: PlayerId
) -> PlayerId:
    """Refuse a confirmation of a playoff game's scores by anyone but another present player of
    the match (R3-a, as on a league night: `who_may_confirm` with the match's present players
    as the group; R6.6-c: a no-show is not in the match).

    Every present player is at the machine for each game of the match, its tiebreaker game
    too (the players not in the tie watch it), so each one counts as having played it: any of
    them but the enterer confirms.
    """
    if confirmed_by not in players:
        raise about_player("{player} does not play in this match", confirmed_by)
    at_the_machine = dict.fromkeys(players, 0)
    if confirmed_by not in who_may_confirm(
        group=players, entered_by=entered_by, sheet=at_the_machine
    ):
        raise about_player(
            "{player} entered these scores: another player of the match confirms them (R3-a)",
            confirmed_by,
        )
    return confirmed_by


def check_machine_picker(state: PlayoffMatchState, picker: PlayerId | None) -> PlayerId | None:
    """Who may start the match's next game, and how its machine is found (§6.4).

    Game 1's machine is drawn at random (R6.4-b): any present player may start it, and no
    machine is picked (returns None). For games 2 and 3 the loser (last place) of the previous
    game picks (R6.4-c): only `state.machine_chooser` may; anyone else is refused.
    """
    if state.next_game is None:
        raise RuleError(f"{state.match} has no game to start: {state.needed or 'it is complete'}")
    present = [p for p in state.players if p not in state.absent]
    if picker is not None and picker not in present:
        raise about_player("{player} does not play in this match", picker)
    chooser = state.machine_chooser
    if chooser is None:
        return None
    if picker != chooser:
        raise RuleError.about(
            "{chooser} finished last in game {previous}, so {chooser} picks the machine for "
            "game {game} (R6.4-c)",
            players={"chooser": chooser},
            values={"previous": str(state.next_game - 1), "game": str(state.next_game)},
        )
    return chooser


def tiebreaker_explanation(state: PlayoffMatchState, names: Mapping[PlayerId, str]) -> str:
    """Why a match needs a tiebreaker game, in plain words (R6.5-a, R6.5-b, A40).

    "Ann and Ben both have 6 points, and only one of them goes on to the final. They play
    one more game, just the two of them, on a machine drawn at random: its winner goes on."
    Empty when the match needs no tiebreaker.
    """
    if not state.tied:
        return ""
    tie = state.tied[0]
    who = _names([names.get(p, p) for p in tie])
    points = state.totals[tie[0]]
    above = sum(1 for p, total in state.totals.items() if total > points)
    both = "both" if len(tie) == 2 else "all"
    each = "just the two of them" if len(tie) == 2 else f"just the {len(tie)} of them"
    start = f"{who} {both} have {points} point{'s' if points != 1 else ''}"
    if state.round == "final":
        places = [ORDINALS[above + i] for i in range(len(tie))]
        decides = f"its order decides {_names(places)} place"
    else:
        going = ADVANCING - above
        start += (
            f", and only {_count(going)} of them go{'es' if going == 1 else ''} on to the "
            f"next round"
        )
        decides = "its winner goes on" if going == 1 else f"its top {going} go on"
    return f"{start}. They play one more game, {each}, on a machine drawn at random: {decides}."


def _count(n: int) -> str:
    return {1: "one", 2: "two", 3: "three"}.get(n, str(n))


def _names(items: Sequence[str]) -> str:
    return ", ".join(items[:-1]) + " and " + items[-1] if len(items) > 1 else items[0]
