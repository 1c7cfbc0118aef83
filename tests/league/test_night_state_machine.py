"""A league night played step by step through the services, with every surface read after
each step: they all show the fold's numbers (issue 33 §2, "one truth on every screen").

Words:
- *step*: one call of a real service of `flipwell.league.services`, with arguments drawn
  from the night as it stands: a sheet entered, confirmed, corrected (the group's consent,
  R3-c), a forfeit, players absent for the rest of the match or a whole group absent
  (R2.4-a), a late arrival (R2.3-a), a malfunction and its compensatory game (R7.3-k..o), a
  game-ending event (R7.3-h, R7.3-i), a violation (§8), the next machine chosen (§5), the
  meet closed and the next one started. A step the service refuses (ValidationError or
  PermissionDenied: the league being told no) writes nothing and is not a failure.
- *surface*: what a reader sees of a confirmed game: the meet board, the phone score sheet,
  the API's game and board reads, a player's history (his page and the API's) and the
  standings. `night_surfaces` reads each one way; the season fold is the truth.
- *check*: one invariant, run after every accepted step; each test below runs the same night
  with some of them (`Night.CHECKS`), so that one failing invariant does not hide another.

Each Hypothesis example runs inside a savepoint that its teardown rolls back. Short form (in
`make test`): a seeded, derandomized run of a few examples. `make chaos` (FLIPWELL_CHAOS=long)
runs many more, longer nights. Knobs: FLIPWELL_NIGHT_EXAMPLES, FLIPWELL_NIGHT_STEPS,
FLIPWELL_NIGHT_SHRINK=1 (shrink a failing night in the short form too: minutes).
"""

from __future__ import annotations

import datetime
import os
from collections import Counter
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any, ClassVar, TypeVar

import pytest
from django.db import transaction
from django.test import Client
from hypothesis import HealthCheck, Phase, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from flipwell.league import models as m
from flipwell.league import services as s
from flipwell.league.adapters.keys import player_key
from flipwell.league.derived.results import compute_fold, season_fold
from flipwell.league.selectors.meet_board.board import meet_board
from flipwell.league.selectors.standings import standings
from flipwell.rules import RuleError
from flipwell.rules.malfunctions import GAME_ENDING_REASONS
from flipwell.rules.playoffs import playoff_qualifier_count
from flipwell.rules.race import max_meet_points
from tests import night_steps as steps
from tests.league import night_surfaces as surfaces
from tests.night_steps import REFUSED, ServiceMachine

pytestmark = pytest.mark.django_db

T = TypeVar("T")

LONG = os.environ.get("FLIPWELL_CHAOS", "").strip().lower() == "long"
EXAMPLES = int(os.environ.get("FLIPWELL_NIGHT_EXAMPLES", "50" if LONG else "8"))
STEPS = int(os.environ.get("FLIPWELL_NIGHT_STEPS", "60" if LONG else "30"))
SHRINK = os.environ.get("FLIPWELL_NIGHT_SHRINK", "") == "1"
MEETS = 3
"""A short season: the race has meets left, and a night may close and the next one start."""
DATE = datetime.date(2026, 1, 6)

machine_scores = st.integers(0, 8).map(lambda x: x * 10_000)
"""Few values, so that ties (R3.2-i) are common."""

REQUESTS = ("with the report", "right after", "no")
"""When the player asks for a compensatory game (R7.3-k, RA-b)."""

ACCEPTED: Counter[str] = Counter()
"""Each step kind's accepted calls in this process (the coverage test reads it)."""
REFUSALS: Counter[str] = Counter()
"""Each step kind's refused calls in this process (printed by the coverage test)."""


class Night(ServiceMachine):
    """One league night (and maybe the next) driven only through the services."""

    CHECKS: ClassVar[frozenset[str]] = frozenset()
    MEETS = MEETS
    MACHINES = 8
    SHEET_SCORES = machine_scores
    MEMBER_ORDER = "position"
    SORTED_TIES = True

    def __init__(self) -> None:
        super().__init__()
        self.client = Client()
        self.absent: dict[int, dict[int, int]] = {}
        """Group id -> player id -> the first game number his recorded absence covers."""

    # --- helpers ------------------------------------------------------------------------------

    def _do(self, kind: str, service: Callable[..., T], /, **kwargs: Any) -> T | None:
        """Call a service; a refusal is the league being told no (nothing written)."""
        try:
            result = service(**kwargs)
        except REFUSED:
            event(f"refused: {kind}")
            REFUSALS[kind] += 1
            return None
        event(f"accepted: {kind}")
        ACCEPTED[kind] += 1
        self.written = True
        return result

    def _groups(self) -> list[m.Group]:
        meet = self._open_meet()
        return [] if meet is None else list(meet.groups.order_by("number"))

    def _submit(self, data: st.DataObject, game: m.Game, kind: str) -> m.ScoreSubmission | None:
        sheet = self._sheet(data, game)
        entered = self._do(
            kind,
            s.submit_scores,
            game=game,
            scores=sheet,
            tie_order=self._tie_orders(data, sheet),
            entered_by=data.draw(st.sampled_from(self._members(game.group)), label="entered_by"),
            idempotency_key=f"night-{next(self.keys)}",
        )
        return None if entered is None else entered.submission

    # --- scores -------------------------------------------------------------------------------

    @precondition(lambda self: self._has_games_in_play())
    @rule(data=st.data())
    def enter_scores(self, data: st.DataObject) -> None:
        """A player enters the sheet of a game in play (R3-a)."""
        game = data.draw(st.sampled_from(self._games(confirmed=False)), label="game")
        self._submit(data, game, "enter scores")

    @precondition(lambda self: self._has_games_in_play())
    @rule(data=st.data())
    def confirm_scores(self, data: st.DataObject) -> None:
        """Another player of the group confirms a pending sheet (R3-a)."""
        drawn = self._draw_confirmation(data)
        if drawn is None:
            return
        submission, confirmer = drawn
        self._do("confirm scores", s.confirm_scores, submission=submission, confirmed_by=confirmer)

    @precondition(lambda self: self._has_open_meet())
    @rule(data=st.data(), moves=st.integers(1, 8))
    def play_on(self, data: st.DataObject, moves: int) -> None:
        """The night goes on, `moves` times: a game in play is entered and confirmed, or a
        group's next machine is chosen; with nothing left to play, the meet closes and the
        next one starts."""
        for _ in range(moves):
            if not self._has_open_meet():
                return
            in_play = self._games(confirmed=False)
            if in_play and data.draw(st.integers(0, 3), label="play a game") > 0:
                self._play(data, data.draw(st.sampled_from(in_play), label="game"))
            elif not self._choose(data) and not in_play:
                self._next_meet(override=False)
                return

    def _play(self, data: st.DataObject, game: m.Game) -> None:
        submitted = self._submit(data, game, "enter scores")
        if submitted is not None:
            members = [p for p in self._members(game.group) if p.pk != submitted.entered_by_id]
            self._do(
                "confirm scores",
                s.confirm_scores,
                submission=submitted,
                confirmed_by=data.draw(st.sampled_from(members), label="confirmer"),
            )

    def _choose(self, data: st.DataObject) -> bool:
        """The picker of a group ready for its next game chooses a machine (§5), or the LO
        when nobody played the last game (A66); False when no group is ready."""
        meet = self._open_meet()
        assert meet is not None
        board = meet_board(meet)
        ready = steps.ready_groups(board, official_picks=True)
        if not ready:
            return False
        number = data.draw(st.sampled_from([g.number for g in ready]), label="group number")
        group = next(g for g in ready if g.number == number)
        machine = steps.draw_machine(data, board, group)
        row = m.Group.objects.get(pk=group.id)
        if group.next_picker is None:
            self._do(
                "choose the next machine",
                s.official_chooses_next_machine,
                group=row,
                machine=machine,
                actor=self.user,
            )
        else:
            self._do(
                "choose the next machine",
                s.choose_next_machine,
                group=row,
                machine=machine,
                chosen_by=m.Player.objects.get(pk=group.next_picker),
            )
        return True

    @precondition(lambda self: self._has_open_meet())
    @rule(data=st.data())
    def choose_next_machine(self, data: st.DataObject) -> None:
        self._choose(data)

    @precondition(lambda self: self._has_open_meet())
    @rule(override=st.booleans(), now=st.integers(0, 3))
    def close_meet_and_start_the_next(self, override: bool, now: int) -> None:
        """Now and then (`now` 0) the meet closes, unfinished only with an LO's override
        (A52), and the next one starts."""
        if now == 0:
            self._next_meet(override=override)

    @precondition(lambda self: not self._has_open_meet())
    @rule()
    def wait(self) -> None:
        """Nothing happens (after the season's last meet, nothing can)."""

    def _next_meet(self, *, override: bool) -> None:
        meet = self._open_meet()
        assert meet is not None
        closed = self._do(
            "close the meet",
            s.close_meet,
            meet=meet,
            actor=self.user,
            override_reason="The venue closed early." if override else None,
        )
        if closed is not None and meet.number < MEETS:
            self._do(
                "start a meet",
                s.start_meet,
                season=self.season,
                number=meet.number + 1,
                date=DATE + datetime.timedelta(weeks=meet.number),
                seed=meet.number,
                actor=self.user,
            )

    # --- corrections (R3-b..e) ----------------------------------------------------------------

    @precondition(lambda self: self._has_open_meet())
    @rule(data=st.data())
    def request_correction(self, data: st.DataObject) -> None:
        """A player of a confirmed game claims some of its scores are wrong (R3-b)."""
        claim = self._draw_scored(data, self._games(confirmed=True), "wrong scores")
        if claim is None:
            return
        changes = {p.pk: data.draw(machine_scores, label=f"{p}'s") for p in claim.chosen}
        self._do(
            "request a correction",
            s.request_correction,
            game=claim.game,
            scores=changes,
            requested_by=data.draw(st.sampled_from(claim.played), label="requested_by"),
            reason="Wrong digits on the sheet.",
            tie_order=self._tie_orders(data, {**claim.sheet, **changes}, among=set(changes)),
        )

    @precondition(lambda self: self._pending_corrections().exists())
    @rule(data=st.data(), agrees=st.sampled_from([True, True, True, False]))
    def answer_correction(self, data: st.DataObject, agrees: bool) -> None:
        """A player asked answers a correction; all agreeing applies it (R3-c, R3-d)."""
        requests = self._pending_corrections()
        request = data.draw(st.sampled_from(list(requests)), label="request")
        asked = steps.asked_to_answer(request)
        if not asked:
            return
        player = data.draw(st.sampled_from(asked), label="player")
        self._do(
            "answer a correction",
            s.respond_to_correction,
            request=request,
            player=player,
            agrees=agrees,
        )

    # --- forfeits, absences, late arrivals (§2.3, §2.4) ---------------------------------------

    @precondition(lambda self: self._has_games_in_play())
    @rule(data=st.data(), countable=st.booleans())
    def record_forfeit(self, data: st.DataObject, countable: bool) -> None:
        game = data.draw(st.sampled_from(self._games(confirmed=False)), label="game")
        self._do(
            "record a forfeit",
            s.record_forfeit,
            game=game,
            player=data.draw(st.sampled_from(self._members(game.group)), label="player"),
            countable=countable,
            note="" if countable else "His car broke down.",
            actor=self.user,
        )

    @precondition(lambda self: bool(self._groups()))
    @rule(data=st.data(), whole_group=st.sampled_from([False, False, False, True]))
    def record_match_absence(self, data: st.DataObject, whole_group: bool) -> None:
        """Players leave for the rest of the match, or a whole group is absent (R2.4-a)."""
        group = data.draw(st.sampled_from(self._groups()), label="group")
        members = self._members(group)
        chosen = (
            members
            if whole_group
            else data.draw(
                st.lists(st.sampled_from(members), min_size=1, max_size=len(members) - 1),
                label="absent",
            )
        )
        confirmed = {g.pk for g in self._games(confirmed=True)}
        start = 1 + sum(1 for g in group.games.all() if g.pk in confirmed)
        done = self._do(
            "record an absence for the rest of the match",
            s.record_match_absence,
            group=group,
            players=chosen,
            actor=self.user,
            seed=7,
        )
        if done is not None:
            covered = self.absent.setdefault(group.pk, {})
            for player in chosen:
                covered.setdefault(player.pk, start)

    @precondition(lambda self: self._has_games_in_play())
    @rule(data=st.data(), machine_allows=st.booleans(), not_past_ball_1=st.booleans())
    def record_late_arrival(
        self, data: st.DataObject, machine_allows: bool, not_past_ball_1: bool
    ) -> None:
        """A late player arrives during a game: he joins it or forfeits it (R2.3-a, A60)."""
        game = data.draw(st.sampled_from(self._games(confirmed=False)), label="game")
        self._do(
            "record a late arrival",
            s.record_late_join,
            game=game,
            player=data.draw(st.sampled_from(self._members(game.group)), label="player"),
            machine_allows_joining=machine_allows,
            last_player_not_past_ball_1=not_past_ball_1,
            actor=self.user,
        )

    # --- malfunctions (§7.3) and violations (§8) ----------------------------------------------

    @precondition(lambda self: self._has_games_in_play())
    @rule(
        data=st.data(),
        ball=st.integers(1, 3),
        kind=st.sampled_from(["major", "catastrophic"]),
        request=st.sampled_from(REQUESTS),
    )
    def report_malfunction(self, data: st.DataObject, ball: int, kind: str, request: str) -> None:
        """A major or catastrophic malfunction on a player's ball, as the LO rules it."""
        self._report(
            data,
            "report a malfunction",
            request,
            ball=ball,
            reason_code="other",
            kind=kind,
            note="The LO looked at it.",
        )

    @precondition(lambda self: self._has_games_in_play())
    @rule(
        data=st.data(),
        ball=st.integers(1, 3),
        reason=st.sampled_from(sorted(GAME_ENDING_REASONS - {"slam_tilt"})),
        request=st.sampled_from(REQUESTS),
    )
    def report_game_ending_event(
        self, data: st.DataObject, ball: int, reason: str, request: str
    ) -> None:
        """The machine fails, loses power or burns on a player's ball: the game ends for
        everyone, balls never launched are catastrophic (R7.3-h, R7.3-i, A32)."""
        self._report(data, "report a game-ending event", request, ball=ball, reason_code=reason)

    def _report(self, data: st.DataObject, step: str, request: str, **malfunction: Any) -> None:
        """Report a malfunction on a game in play; the player asks for his compensatory game
        with the report, right after it (R7.3-k, RA-b), or not."""
        game = data.draw(st.sampled_from(self._games(confirmed=False)), label="game")
        player = data.draw(st.sampled_from(self._members(game.group)), label="player")
        reported = self._do(
            step,
            s.report_malfunction,
            game=game,
            player=player,
            request_compensatory=request == "with the report",
            actor=self.user,
            **malfunction,
        )
        if reported is not None and request == "right after":
            self._do(
                "grant a compensatory game",
                s.request_compensatory_game,
                game=game,
                player=player,
                actor=self.user,
            )

    @precondition(lambda self: self._has_open_meet())
    @rule(data=st.data())
    def grant_compensatory_game(self, data: st.DataObject) -> None:
        malfunctions = self._malfunctions_to_compensate()
        if not malfunctions:
            return
        malfunction = data.draw(st.sampled_from(malfunctions), label="malfunction")
        self._do(
            "grant a compensatory game",
            s.request_compensatory_game,
            game=malfunction.game,
            player=malfunction.player,
            actor=self.user,
        )

    @precondition(lambda self: self._has_open_meet())
    @rule(data=st.data(), new_score=machine_scores, subtracted=st.sampled_from([0, 0, 5_000]))
    def record_compensatory_game(
        self, data: st.DataObject, new_score: int, subtracted: int
    ) -> None:
        """The compensatory game's displayed score, maybe less the leading points (R7.3-m,
        R7.3-n)."""
        granted = self._compensatory_requests_to_record()
        if not granted:
            return
        request = data.draw(st.sampled_from(granted), label="compensatory request")
        self._do(
            "record a compensatory game",
            s.record_compensatory_game,
            game=request.game,
            player=request.player,
            new_score=new_score,
            leading_subtracted=subtracted,
            reason="He was leading when it failed." if subtracted else "",
            actor=self.user,
        )

    @precondition(lambda self: bool(self._groups()))
    @rule(
        data=st.data(),
        kind=st.sampled_from(m.Violation.Kind.values),
        during_a_game=st.booleans(),
        serious=st.sampled_from([None, None, True, False]),
    )
    def record_violation(
        self, data: st.DataObject, kind: str, during_a_game: bool, serious: bool | None
    ) -> None:
        """A violation during a confirmed game or between games (§8, A27)."""
        meet = self._open_meet()
        assert meet is not None
        group = data.draw(st.sampled_from(self._groups()), label="group")
        player = data.draw(st.sampled_from(self._members(group)), label="violator")
        timing = self._violation_timing(data, group.pk, during_a_game)
        self._do(
            "record a violation",
            s.record_violation,
            meet=meet,
            player=player,
            kind=kind,
            reason="Seen by the LO.",
            serious=serious,
            actor=self.user,
            **timing,
        )

    # --- the start ----------------------------------------------------------------------------

    @initialize(count=st.integers(7, 10), seed=st.integers(0, 100))
    def start_the_night(self, count: int, seed: int) -> None:
        """The roster (ladder by IFPA rank, R3.1-b) and meet 1 started (§4)."""
        for rank in range(1, count + 1):
            s.register_player(
                season=self.season,
                first_name="Player",
                last_name=f"N{rank}",
                ifpa_rank=rank,
                actor=self.user,
            )
        s.start_meet(season=self.season, number=1, date=DATE, seed=seed, actor=self.user)

    # --- the checks ---------------------------------------------------------------------------

    @invariant()
    def every_surface_shows_the_fold(self) -> None:
        """After each accepted step, each check of `CHECKS` (see the tests)."""
        if not self.written:
            return
        self.written = False
        truth = surfaces.fold_lines(self.season)
        found: list[str] = []
        for check in sorted(self.CHECKS):
            found += CHECKERS[check](self, truth)
        assert not found, "\n".join(found)

    def check_stored_fold(self, truth: surfaces.Truth) -> list[str]:
        """The fold the last write stored (on the prefix of the closed meets, or whole) is
        the season's facts folded whole now (R3-e)."""
        stored = season_fold(self.season)
        whole = compute_fold(self.season)
        if (stored.facts, stored.result) == (whole.facts, whole.result):
            return []
        return ["the stored fold is not the season's facts folded whole"]

    def _played_meets(self) -> list[m.Meet]:
        return list(self.season.meets.exclude(status=m.Meet.Status.PLANNED).order_by("number"))

    def check_board_and_sheet(self, truth: surfaces.Truth) -> list[str]:
        """The meet board and every group's phone sheet show the fold's lines."""
        found: list[str] = []
        for meet in self._played_meets():
            games = _of_meet(truth.lines, meet)
            found += surfaces.differences(
                games, surfaces.board_lines(meet), surface=f"board of meet {meet.number}"
            )
            for group in meet.groups.order_by("number"):
                found += surfaces.differences(
                    _of_group(truth.lines, group),
                    surfaces.sheet_lines(group),
                    surface=f"sheet of group {group.number}, meet {meet.number}",
                )
        return found

    def check_api_reads(self, truth: surfaces.Truth) -> list[str]:
        """GET /api/v1/meets/{id} and GET /api/v1/games/{id} carry the fold's lines, and the
        game read its compensatory games (issue 33 contract). The newest meet only: a step
        changes no other (a closed meet's scores change only by an LO's late correction)."""
        meets = self._played_meets()
        if not meets:
            return []
        meet = meets[-1]
        games = _of_meet(truth.lines, meet)
        found = surfaces.differences(
            games,
            surfaces.api_board_lines(self.client, meet),
            surface=f"GET /api/v1/meets/{meet.pk}",
        )
        for game in m.Game.objects.filter(group__meet=meet).order_by("pk"):
            shown = surfaces.api_game_lines(self.client, game.pk)
            found += surfaces.differences(
                {game.pk: games[game.pk]} if game.pk in games else {},
                {} if shown is None else {game.pk: shown},
                surface=f"GET /api/v1/games/{game.pk}",
            )
            found += _compensatory_differences(self.client, game)
        return found

    def check_histories_and_standings(self, truth: surfaces.Truth) -> list[str]:
        """Every player's history (selector and API) shows his lines of the fold, and the
        standings his history's points."""
        found: list[str] = []
        table = {line.player.id: line for line in standings(self.season).lines}
        entered = self.season.entries.order_by("player_id").values_list("player_id", flat=True)
        for player_id in entered:
            history = surfaces.history_of(self.season, player_id)
            own = surfaces.own_truth(truth, player_id)
            found += surfaces.differences(
                own,
                surfaces.history_lines(history, truth),
                surface=f"history of player {player_id}",
            )
            found += surfaces.differences(
                own,
                surfaces.api_history_lines(self.client, self.season, player_id, truth),
                surface=f"API history of player {player_id}",
            )
            if player_id in table:  # a suspended player leaves the standings (A36)
                found += _history_adds_up(history, table[player_id])
        found += self._board_nights_in_standings(table)
        return found

    def _board_nights_in_standings(self, table: dict[int, Any]) -> list[str]:
        """The open meet's night totals on the board are the standings' provisional points."""
        meet = self._open_meet()
        if meet is None:
            return []
        found = []
        for group in meet_board(meet).groups:
            totals = {night.player: night.night_total for night in group.nights}
            for player in (p for p in group.players if p in table):
                provisional = table[player].provisional_points
                if Fraction(totals.get(player, 0)) != provisional:
                    found.append(
                        f"standings: player {player} has {provisional} provisional points, "
                        f"the board's night says {totals.get(player, 0)}"
                    )
        return found

    def check_confirmer_table(self, truth: surfaces.Truth) -> list[str]:
        """A pending sheet's check table shows the points the fold gives once it is
        confirmed (the confirmation is made in a savepoint, read, and rolled back)."""
        found = []
        for group in self._groups():
            table = surfaces.check_table(group)
            if table is None or not table.confirmers:
                continue
            after = self._points_if_confirmed(table)
            if after is not None and after != table.points:
                found.append(
                    f"check table of group {group.number}, game {table.game_id}: shows points "
                    f"{table.points}, confirming gives {after}"
                )
        return found

    def _points_if_confirmed(self, table: surfaces.CheckTable) -> dict[int, int] | None:
        """The fold's points of the table's game were it confirmed now; None if refused."""
        points: dict[int, int] | None = None
        try:
            with transaction.atomic():
                s.confirm_scores(
                    submission=m.ScoreSubmission.objects.get(pk=table.submission_id),
                    confirmed_by=m.Player.objects.get(pk=table.confirmers[0]),
                )
                lines = surfaces.fold_lines(self.season).lines.get(table.game_id, {})
                points = {p: line.points or 0 for p, line in lines.items()}
                raise _WhatIfError
        except _WhatIfError:
            return points
        except REFUSED:
            return None

    def check_absences(self, truth: surfaces.Truth) -> list[str]:
        """A player recorded absent for the rest of the match forfeits every later game of
        it (R2.4-a): the sheet marks it, the fold has his countable forfeit and no score."""
        found = []
        for group_id, covered in self.absent.items():
            group = m.Group.objects.get(pk=group_id)
            marked = surfaces.sheet_forfeits(group)
            for game in group.games.order_by("number"):
                for player, start in covered.items():
                    if game.number < start:
                        continue
                    where = f"group {group.number}, game {game.number}, player {player}"
                    if player not in marked.get(game.pk, frozenset()):
                        found.append(f"absent for the rest of the match: {where}: no forfeit")
                    line = truth.lines.get(game.pk, {}).get(player)
                    if line is not None and (line.score is not None or line.points):
                        found.append(f"absent for the rest of the match: {where}: {line}")
                    if line is not None and not truth.forfeited[game.pk].get(player):
                        found.append(f"absent for the rest of the match: {where}: not countable")
        return found

    def check_race(self, truth: surfaces.Truth) -> list[str]:
        """While a meet is open, a player whose group still plays is never ineligible or
        eliminated for it, and clinched is certain (rules/race.py's words): see
        `_race_problems`."""
        meet = self._open_meet()
        if meet is None:
            return []
        return _race_problems(self.season, meet, self.absent)


CHECKERS: dict[str, Callable[[Night, surfaces.Truth], list[str]]] = {
    "board and sheet": Night.check_board_and_sheet,
    "API reads": Night.check_api_reads,
    "histories and standings": Night.check_histories_and_standings,
    "confirmer's table": Night.check_confirmer_table,
    "absence for the rest of the match": Night.check_absences,
    "race": Night.check_race,
    "stored fold": Night.check_stored_fold,
}


class _WhatIfError(Exception):
    """Rolls back a confirmation made only to read what it would give."""


def _of_meet(lines: surfaces.GameLines, meet: m.Meet) -> surfaces.GameLines:
    ids = set(m.Game.objects.filter(group__meet=meet).values_list("pk", flat=True))
    return {g: x for g, x in lines.items() if g in ids}


def _of_group(lines: surfaces.GameLines, group: m.Group) -> surfaces.GameLines:
    ids = set(group.games.values_list("pk", flat=True))
    return {g: x for g, x in lines.items() if g in ids}


def _compensatory_differences(client: Client, game: m.Game) -> list[str]:
    recorded = {
        (row.player_id, row.new_score, row.leading_subtracted + row.state_subtracted)
        for row in m.CompensatoryGame.objects.filter(game=game)
    }
    shown = surfaces.api_compensatory_games(client, game.pk)
    if shown == recorded:
        return []
    return [f"GET /api/v1/games/{game.pk}: compensatory games {shown}, recorded {recorded}"]


def _history_adds_up(history: Any, line: Any) -> list[str]:
    """A history's meets add up to his standings line (R3.3-a, A19)."""
    found = []
    for meet in history.meets:
        earned = sum(g.points for g in meet.games) + meet.match_bonus + meet.credit
        if earned != meet.league_points:
            found.append(f"history of {history.player.name}, meet {meet.meet}: {meet}")
    totals = tuple(meet.total_after for meet in history.meets)
    if (history.league_points, totals, history.provisional_points) != (
        line.league_points,
        line.points_after_meet,
        line.provisional_points,
    ):
        found.append(f"standings of {history.player.name}: {line}, history {history}")
    return found


def _race_problems(season: m.Season, meet: m.Meet, absent: dict[int, dict[int, int]]) -> list[str]:
    """The provisional race (§6.1, A05) at an open meet, against rules/race.py's own words.

    A player *still plays tonight*: active, in a group whose match is unfinished, not
    recorded absent for the rest of it. A *rival who may still count*: another active player
    who is eligible, still plays tonight, or has meets not started to play. Each player's
    *sure reach*: his points plus the meet maximum at every meet not started, a lower bound
    of his best possible total; so a race finer than rules/race.py's never trips this:
    - a player who still plays tonight is eligible or may still become so (no game yet, one
      to play), never barred for it; and is eliminated only with at
      least q rivals who may still count strictly above his sure reach;
    - a clinched player has fewer than q rivals who may still count whose sure reach gets to
      his points (a tie is never enough to clinch, R6.1-e)."""
    folded = season_fold(season)
    table = standings(season)
    lines = {line.player.id: line for line in table.lines}
    most = max_meet_points(ruleset=folded.ruleset)
    not_started = season.number_of_meets - meet.number
    playing = _still_playing(meet, absent)
    active = {p for p in lines if folded.result.players[player_key(p)].active}
    counting = {p for p in active if lines[p].eligible or p in playing or not_started > 0}
    reach = {p: line.league_points + most * not_started for p, line in lines.items()}
    q = table.playoff_qualifiers
    found = []
    for player, line in lines.items():
        # No game yet but one tonight may make him eligible (§6.1): never barred for it.
        barred = not line.eligible and not line.may_become_eligible
        if player in playing and player in active and barred:
            found.append(f"race: player {player} still plays tonight but is not eligible")
        rivals = counting - {player}
        above = sum(1 for p in rivals if lines[p].league_points > reach[player])
        if player in playing and line.race_status == "eliminated" and q and above < q:
            found.append(f"race: player {player} still plays tonight but is eliminated")
        catching = {p for p in rivals if reach[p] >= line.league_points}
        q_then = _line_with(catching, lines, counting, player, folded.ruleset)
        if line.race_status == "clinched" and q_then and len(catching) >= q_then:
            found.append(
                f"race: player {player} is clinched with {line.league_points} points, "
                f"but {len(catching)} rivals may still reach it (q = {q_then} then)"
            )
    return found


def _line_with(
    catching: set[int], lines: dict[int, Any], counting: set[int], player: int, ruleset: Any
) -> int | None:
    """q in the ending where every rival who may reach `player` plays and no other pending
    player does (§6.1, §6.2: q follows the field); None: that field has no playoff line."""
    field = {p for p in counting if lines[p].eligible} | catching | {player}
    size = len(field) if ruleset.playoff_league_size == "eligible_players" else len(lines)
    try:
        return min(playoff_qualifier_count(size, ruleset=ruleset), len(field))
    except RuleError:
        return None


def _still_playing(meet: m.Meet, absent: dict[int, dict[int, int]]) -> set[int]:
    """The players of `meet`'s groups whose match is unfinished, less those recorded absent
    for the rest of it."""
    confirmed = set(
        m.ScoreSubmission.objects.filter(
            game__group__meet=meet, confirmed_by__isnull=False
        ).values_list("game_id", flat=True)
    )
    playing: set[int] = set()
    for group in meet.groups.all():
        if sum(1 for g in group.games.all() if g.pk in confirmed) < steps.GAMES_PER_MATCH:
            gone = set(absent.get(group.pk, {}))
            playing |= set(group.members.values_list("player_id", flat=True)) - gone
    return playing


def _run(checks: Sequence[str], *, examples: int = EXAMPLES, steps: int = STEPS) -> None:
    unknown = set(checks) - set(CHECKERS)
    assert not unknown, unknown
    machine = type("NightChecking", (Night,), {"CHECKS": frozenset(checks)})
    run_state_machine_as_test(
        machine,
        settings=settings(
            max_examples=examples,
            stateful_step_count=steps,
            deadline=None,
            derandomize=not LONG,
            database=None,
            # A night replays its services at every shrink step: minutes for one failure.
            # The short form reports the failing night as found; the long form shrinks it.
            phases=list(Phase) if LONG or SHRINK else [Phase.explicit, Phase.generate],
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
        ),
    )


STEP_KINDS = (
    "enter scores",
    "confirm scores",
    "choose the next machine",
    "close the meet",
    "start a meet",
    "request a correction",
    "answer a correction",
    "record a forfeit",
    "record an absence for the rest of the match",
    "record a late arrival",
    "report a malfunction",
    "report a game-ending event",
    "grant a compensatory game",
    "record a compensatory game",
    "record a violation",
)
"""Every kind of step the night takes (`Night._do`'s first argument)."""
COVERING_EXAMPLES = 8
"""The short form's nights: enough that each kind of step is accepted at least once."""


def test_night_board_sheet_history_and_standings_show_the_fold() -> None:
    """The meet board, every phone sheet, every player's history (page and API) and the
    standings show the fold's score, place and points of every counted game (R3.2, §7.3,
    §8), after any step of a night; the fold each write stored is the whole season's fold;
    and every kind of step was accepted by its service at least once (a precondition or an
    argument always refused would show here)."""
    ACCEPTED.clear()
    REFUSALS.clear()
    _run(["board and sheet", "histories and standings", "stored fold"])
    print("accepted:", dict(ACCEPTED), "refused:", dict(REFUSALS))  # with pytest -s
    if EXAMPLES >= COVERING_EXAMPLES:  # a run shortened by hand need not take every kind
        assert {kind for kind in STEP_KINDS if ACCEPTED[kind] == 0} == set(), dict(ACCEPTED)


def test_night_api_game_and_board_reads_show_the_fold() -> None:
    """GET /api/v1/meets/{id} and /api/v1/games/{id} carry the fold's lines (R7.3-m)."""
    _run(["API reads"])


def test_night_confirmer_sees_the_points_confirming_gives() -> None:
    """The check table of a pending sheet shows the points the fold gives once confirmed."""
    _run(["confirmer's table"])


def test_night_absence_for_the_rest_of_the_match_forfeits_every_later_game() -> None:
    """A recorded absence makes every later game of the match his forfeit (R2.4-a)."""
    _run(["absence for the rest of the match"])


def test_night_race_never_bars_a_player_whose_group_still_plays() -> None:
    """The provisional race keeps everyone who still plays tonight in it (§6.1, A05)."""
    _run(["race"])
