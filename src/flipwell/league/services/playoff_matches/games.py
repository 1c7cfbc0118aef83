"""Use cases of a playoff match's games (§6.4, R6.3): start its next game, record a game's
result.

Words: see `flipwell.league.services.playoff_matches.match_facts`. A game's *machine* is drawn
at random for game 1 (R6.4-b; the night's recorded random seed, `_playoff_night`, so a draw
can be repeated) and chosen by the previous game's loser for games 2 and 3 (R6.4-c, the
*chooser*), as §5 allows it: not played in this match, not busy in another, playable.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from flipwell.league import models as m
from flipwell.league.adapters.game_facts import playoff_game
from flipwell.league.adapters.rulesets import season_ruleset
from flipwell.league.audit import record_event
from flipwell.league.refusals import ConflictError, Refusal
from flipwell.league.selectors.playoffs.facts import DivisionFacts, GameInProgress, PlayoffFacts
from flipwell.league.services._edge import league_changed, rules_edge
from flipwell.league.services._playoff_night import (
    begin_night,
    busy_machines,
    draw_seed,
    unplayable_machines,
)
from flipwell.league.services._protocol import official_write
from flipwell.league.services.playoff_matches.match_facts import (
    check_record,
    match_facts,
    match_row,
)
from flipwell.rules.playoff_machines import check_playoff_machine, draw_playoff_machine
from flipwell.rules.playoff_matches import PlayoffGame, PlayoffMatchRecord, PlayoffMatchState

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def start_playoff_game(
    *,
    season: m.Season,
    division: str,
    match: str,
    actor: User,
    machine: m.Machine | None = None,
) -> m.PlayoffGame:
    """Start a match's next game on its machine (§6.4, R6.4-a..c, A44).

    Game 1's machine is drawn at random (R6.4-b): leave `machine` None. For games 2 and 3 the
    loser of the previous game chooses (R6.4-c): `machine` is his pick, checked against the
    §5 constraints (not played in this match, not busy with another match, playable).
    Side effects: creates the PlayoffMatch on its first game, inserts the PlayoffGame (its
    chooser recorded), opens the night, and an audit event ``playoffs.game_started``.
    Raises PermissionDenied unless `actor` is a league official, and ValidationError
    (nothing written) when the match cannot start a game (waiting, game in progress,
    tiebreaker needed, complete) or for a machine the rules refuse.
    """
    with official_write(league=season.league, actor=actor, action="run the playoffs") as write:
        league_changed(season.league_id)
        game, data = _begin_game(season, division, match, machine=machine)
        write.event("playoffs.game_started", game, data)
    return game


def start_game(
    season: m.Season, division: str, match: str, *, machine: m.Machine | None, actor: User | None
) -> m.PlayoffGame:
    """`start_playoff_game` inside its transaction for the match's players on its sheet
    (`playoff_sheets`, no actor), once they were checked: the game and its audit event
    ``playoffs.game_started``."""
    game, data = _begin_game(season, division, match, machine=machine)
    record_event(
        action="playoffs.game_started", obj=game, league=season.league, actor=actor, data=data
    )
    return game


def _begin_game(
    season: m.Season, division: str, match: str, *, machine: m.Machine | None
) -> tuple[m.PlayoffGame, dict[str, Any]]:
    """Start the match's next game (`start_playoff_game`): the PlayoffGame, and the data of
    its audit event."""
    night, facts, div, state = match_facts(season, division, match)
    number = _next_game(match, div, state)
    key = _game_machine(season, night, facts, (division, match), number, state, machine)
    chooser = state.machine_chooser
    game = m.PlayoffGame.objects.create(
        match=match_row(night, division, match),
        number=number,
        machine_id=int(key),
        chosen_by_id=int(chooser) if chooser else None,
    )
    begin_night(night)
    data = {
        "division": division,
        "match": match,
        "number": game.number,
        "machine": int(key),
        "chosen_by": int(chooser) if chooser else None,
    }
    return game, data


def _next_game(match: str, div: DivisionFacts, state: PlayoffMatchState) -> int:
    """The number of the match's next game; refused while one is being played, or when the
    match waits for its players, needs a tiebreaker or is complete."""
    if match in div.in_progress:
        busy_game = div.in_progress[match]
        raise ConflictError(
            {
                "match": f"{match}: game {busy_game.number} is being played on "
                f"{busy_game.machine}; record its result first."
            },
            code="game_in_progress",
        )
    if state.status != "ready" or state.next_game is None:
        raise ConflictError(
            {"match": f"{match} cannot start a game: {state.needed or 'it is complete'}."},
            code="match_not_ready",
        )
    return state.next_game


def _game_machine(
    season: m.Season,
    night: m.PlayoffNight,
    facts: PlayoffFacts,
    where: tuple[str, str],
    number: int,
    state: PlayoffMatchState,
    machine: m.Machine | None,
) -> str:
    """The machine key of game `number` of the match `where` (division, match): drawn at
    random for game 1 (R6.4-b), else `machine`, the loser's pick (R6.4-c), as §5 allows it
    (not played in this match, not busy in another, playable)."""
    division, match = where
    record = facts.divisions[division].records.get(match, PlayoffMatchRecord())
    played = [g.machine for g in record.games]
    busy = busy_machines(facts, exclude=where)
    unplayable = unplayable_machines(season)
    keys = list(facts.machines)
    chooser = state.machine_chooser
    with rules_edge(
        "machine", code="machine_not_allowed", message=lambda text: _titled(text, facts)
    ):
        if chooser is None:
            if machine is not None:
                raise Refusal(
                    {
                        "machine": f"Game 1 of {match} is played on a machine drawn at random "
                        "(R6.4-b); do not choose one."
                    },
                    code="machine_drawn",
                )
            seed = draw_seed(night, f"{division}:{match}:{number}")
            ruleset = season_ruleset(season)
            return draw_playoff_machine(
                keys, seed=seed, played=played, busy=busy, unplayable=unplayable, ruleset=ruleset
            )
        if machine is None:
            raise Refusal(
                {
                    "machine": f"{facts.names[chooser].name} chooses the machine for game "
                    f"{number} of {match} (R6.4-c)."
                },
                code="machine_required",
            )
        return _checked_pick(str(machine.pk), keys, played, busy, unplayable)


def record_playoff_game(
    *,
    season: m.Season,
    division: str,
    match: str,
    actor: User,
    order: Sequence[m.Player] | None = None,
    scores: Mapping[m.Player, int] | None = None,
    tie_orders: Sequence[Sequence[m.Player]] = (),
) -> m.PlayoffGame:
    """Record the result of a match's game in progress (R6.3-a..c, A54, R3.2-i).

    Either `order` (the finishing order, winner first) or `scores` (every present player's
    machine score) with `tie_orders` (for equal scores, the one-ball playoff's order).
    Side effects: inserts a PlayoffResult per player and an audit event
    ``playoffs.game_recorded``. Raises PermissionDenied unless `actor` is a league official,
    and ValidationError (nothing written) when no game is in progress or when the rules
    refuse the result (missing or extra players, an unordered tie, a no-show listed).
    """
    with official_write(league=season.league, actor=actor, action="run the playoffs") as write:
        league_changed(season.league_id)
        _, _, div, state = match_facts(season, division, match)
        in_progress = _game_in_progress(match, div, state)
        game = _rules_game(in_progress, order, scores, tie_orders)
        check_record(season, div, match, lambda r: replace(r, games=(*r.games, game)))
        results = _results(in_progress.game_id, actor, order, scores, tie_orders)
        m.PlayoffResult.objects.bulk_create(results)
        row = m.PlayoffGame.objects.get(pk=in_progress.game_id)
        write.event(
            "playoffs.game_recorded",
            row,
            {
                "division": division,
                "match": match,
                "number": row.number,
                "order": [p.pk for p in order] if order is not None else None,
                "scores": {str(p.pk): s for p, s in scores.items()} if scores else None,
                "tie_orders": [[p.pk for p in o] for o in tie_orders],
            },
        )
    return row


def _rules_game(
    in_progress: GameInProgress,
    order: Sequence[m.Player] | None,
    scores: Mapping[m.Player, int] | None,
    tie_orders: Sequence[Sequence[m.Player]],
) -> PlayoffGame:
    """The game in progress with its result, as the rules read it: refused unless given
    either the finishing order or the machine scores."""
    if (order is None) == (scores is None):
        raise Refusal(
            {"order": "Give the finishing order or the machine scores, not both or neither."},
            code="order_or_scores",
        )
    return playoff_game(
        in_progress.machine_id,
        order=[p.pk for p in order] if order is not None else None,
        scores={p.pk: s for p, s in scores.items()} if scores is not None else None,
        tie_orders=[[p.pk for p in o] for o in tie_orders],
    )


def _game_in_progress(match: str, div: DivisionFacts, state: PlayoffMatchState) -> GameInProgress:
    """The match's game being played; refused when none is."""
    in_progress = div.in_progress.get(match)
    if in_progress is None:
        raise ConflictError(
            {
                "match": f"{match} has no game in progress: start game "
                f"{state.next_game or '?'} first ({state.needed or 'complete'})."
            },
            code="no_game_in_progress",
        )
    return in_progress


def _results(
    game_id: int,
    actor: User,
    order: Sequence[m.Player] | None,
    scores: Mapping[m.Player, int] | None,
    tie_orders: Sequence[Sequence[m.Player]],
) -> list[m.PlayoffResult]:
    """A game's PlayoffResult rows: each player's place in `order`, or else each player's
    machine score and, on equal scores, place in the one-ball playoff."""
    if order is not None:
        return [
            m.PlayoffResult(game_id=game_id, player=p, place=i, recorded_by=actor)
            for i, p in enumerate(order, 1)
        ]
    tie_place = {p.pk: i for o in tie_orders for i, p in enumerate(o, 1)}
    return [
        m.PlayoffResult(
            game_id=game_id,
            player=p,
            machine_score=s,
            tie_place=tie_place.get(p.pk),
            recorded_by=actor,
        )
        for p, s in (scores or {}).items()
    ]


def _checked_pick(
    key: str, keys: list[str], played: list[str], busy: list[str], unplayable: list[str]
) -> str:
    return check_playoff_machine(
        key, machines=keys, played=played, busy=busy, unplayable=unplayable
    )


def _titled(message: str, facts: PlayoffFacts) -> str:
    """A rules message naming machine keys, with the machines' titles instead."""
    for key, title in sorted(facts.machines.items(), key=lambda kv: -len(kv[0])):
        message = message.replace(f"machine {key} ", f"machine {title} ")
    return message
