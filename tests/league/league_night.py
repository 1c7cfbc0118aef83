"""Builders shared by the league-night service tests: a league, a season, a started meet and
helpers that play games through the services (no shortcuts around them)."""

from __future__ import annotations

import datetime
import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from flipwell.league import models as m
from flipwell.league.selectors.meet_board.board import meet_board
from flipwell.league.services.meet_machines.next_machine import choose_next_machine
from flipwell.league.services.meets.start import start_meet
from flipwell.league.services.scores.confirmation import confirm_scores
from flipwell.league.services.scores.entry import submit_scores
from tests import factories as f

DATE = datetime.date(2026, 1, 6)
_keys = itertools.count(1)


@dataclass
class Night:
    """A league, its official, a season, its players (ladder order) and machines."""

    official: m.LeagueOfficial
    season: m.Season
    players: list[m.Player]
    machines: list[m.Machine]

    @property
    def user(self):  # type: ignore[no-untyped-def]
        return self.official.user

    @property
    def league(self) -> m.League:
        return self.official.league


def build_night(players: int = 8, machines: int = 8) -> Night:
    """`players` entrants ranked IFPA 1..n (ladder order), `machines` playable machines."""
    official = f.LeagueOfficialFactory(role=m.LeagueOfficial.Role.LEAGUE_OFFICIAL)
    season = f.SeasonFactory(league=official.league, number_of_meets=10, created_at=f.SET_UP_2026)
    entrants = [
        f.SeasonEntryFactory(season=season, ifpa_rank_at_start=rank).player
        for rank in range(1, players + 1)
    ]
    pool = [f.MachineFactory(league=official.league) for _ in range(machines)]
    return Night(official=official, season=season, players=entrants, machines=pool)


def start(night: Night, *, number: int = 1, seed: int = 7, **kwargs: object) -> m.Meet:
    started = start_meet(
        season=night.season, number=number, date=DATE, actor=night.user, seed=seed, **kwargs
    )
    return started.meet


def group(meet: m.Meet, number: int) -> m.Group:
    return meet.groups.get(number=number)


def game(meet: m.Meet, group_number: int, number: int) -> m.Game:
    return m.Game.objects.get(group__meet=meet, group__number=group_number, number=number)


def play(
    game_: m.Game,
    scores: dict[m.Player, int | None],
    *,
    tie_order: Sequence[Sequence[m.Player]] = (),
) -> m.ScoreSubmission:
    """Enter a sheet (first listed player) and confirm it (second listed player)."""
    entered, confirmer = list(scores)[:2]
    submitted = submit_scores(
        game=game_,
        scores=scores,
        tie_order=tie_order,
        entered_by=entered,
        idempotency_key=f"test-{next(_keys)}",
    )
    return confirm_scores(submission=submitted.submission, confirmed_by=confirmer)


def free_machine(meet: m.Meet, group_number: int) -> m.Machine:
    """A machine the group has not played and no other group is using."""
    board = meet_board(meet)
    mine = next(g for g in board.groups if g.number == group_number)
    played = {g.machine_id for g in mine.games}
    for machine_id in sorted(board.machines):
        busy = machine_id in board.in_use or machine_id in board.unplayable
        if machine_id not in played and not busy:
            return m.Machine.objects.get(pk=machine_id)
    raise AssertionError("no free machine")


def next_game(meet: m.Meet, group_number: int, picker: m.Player) -> m.Game:
    return choose_next_machine(
        group=group(meet, group_number),
        machine=free_machine(meet, group_number),
        chosen_by=picker,
    ).game


def all_late_for_game(game_: m.Game, players: Sequence[m.Player]) -> None:
    """The group's sheet of `game_` with every score empty (all four late, R2.3), entered by
    the first player and confirmed by the second."""
    submitted = submit_scores(
        game=game_, scores=dict.fromkeys(players), entered_by=players[0],
        idempotency_key="sheet-1",
    )  # fmt: skip
    confirm_scores(submission=submitted.submission, confirmed_by=players[1])
