"""A stateful property test over a season's services: whatever the league does, every page
answers 200 (issue 8, the general guard against fault 1's family).

Words: a *step* is one call of a real service from `flipwell.league.services` (register a
player, start or close a meet, enter or confirm a sheet, a correction and its answers, a
forfeit, a late arrival, a malfunction and its compensatory game, a violation, an absence or
lateness notice, a machine declared unplayable or replaced, discarded scores and their
replay, the playoff qualification, ...). A step the service *refuses* (ValidationError or
PermissionDenied) is the league being told no: nothing was written, so nothing is checked; any
other exception from a service fails the test (it would be a 500).

After every step a service *accepted*, the league home (the season's standings) and the newest
meet's board must answer 200: between them they read every fact of the season. At the end of
each example every page must answer 200: the public pages (league home, season, every meet's
board, the first and every late player's page, playoffs, machines, maintenance), the TV, the
print pages (score sheets, standings, maintenance), the open meet's score sheets, the
console's league, meets, roster and meet pages, the CSV exports (standings.csv, scores.csv,
ifpa.csv), the season file, the calendar and the API's season, standings, ladder, playoffs,
players, player histories, meets and meet boards. A service must never commit facts that the
season fold, or a page, cannot read (R2.3-a, A14.5: a player registered after meets were
played joins at the next unplayed meet).

Each Hypothesis example runs inside a savepoint that its teardown rolls back, so examples do
not see each other's rows (on PostgreSQL the id sequences are restarted too, so every example
replays with the same ids). The default run takes about a minute on SQLite. Knobs:

    FLIPWELL_STATEFUL_EXAMPLES  examples (default 10)
    FLIPWELL_STATEFUL_STEPS     steps per example (default 40)
    FLIPWELL_STATEFUL_EVERY_PAGE=1  read every page after every accepted step, not only at
                                the end (slower; pinpoints the step that broke a page)

A longer hunt:

    FLIPWELL_STATEFUL_EXAMPLES=300 FLIPWELL_STATEFUL_STEPS=60 \
        PYTHONPATH=$PWD/src .venv/bin/pytest tests/web/test_season_state_machine.py
"""

from __future__ import annotations

import datetime
import itertools
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import pytest
from django.test import Client
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    Bundle,
    initialize,
    invariant,
    multiple,
    precondition,
    rule,
    run_state_machine_as_test,
)

from flipwell.league import models as m
from flipwell.league import services as s
from flipwell.league.adapters.season_facts import counted_tie_orders
from flipwell.league.derived import results
from flipwell.league.selectors.meet_board.board import meet_board
from flipwell.league.selectors.meet_times import scheduled_start
from flipwell.web.scoresheet_tokens import scoresheet_path
from tests import night_steps as steps
from tests.night_steps import REFUSED, ServiceMachine

pytestmark = pytest.mark.django_db

T = TypeVar("T")

EXAMPLES = int(os.environ.get("FLIPWELL_STATEFUL_EXAMPLES", "10"))
STEPS = int(os.environ.get("FLIPWELL_STATEFUL_STEPS", "40"))
EVERY_PAGE = os.environ.get("FLIPWELL_STATEFUL_EVERY_PAGE", "") == "1"
MEETS = 4
"""A short season, so a run reaches its end (and the playoffs page its final standings)."""
FIRST_DATE = datetime.date(2026, 1, 6)

machine_scores = st.integers(0, 10).map(lambda x: x * 10_000)
"""Few values, so ties (R3.2-i) are common."""
scores = st.integers(0, 11).map(lambda x: None if x == 11 else x * 10_000)
"""A sheet's score: a machine score or, now and then, none (he did not play it)."""


class SeasonMachine(ServiceMachine):
    """One league's season driven only through its services; pages read after each write."""

    MEETS = MEETS
    MACHINES = 6
    SHEET_SCORES = scores
    MEMBER_ORDER = "pk"
    SORTED_TIES = False
    pages_read = 0
    """How many pages every machine of a run read (each answered 200, or the run failed)."""

    late_players = Bundle("late_players")
    """Players registered after the season opened."""

    def __init__(self) -> None:
        super().__init__()
        self.names = itertools.count(1)
        self.late: list[int] = []
        """Players registered after the season opened (each gets his page read)."""
        self.visitor = Client()
        self.console = Client()
        self.console.force_login(self.user)

    def teardown(self) -> None:
        """Read every page once more (unless a step already failed), then roll back."""
        try:
            if sys.exc_info()[1] is None:
                self._check(self._pages())
        finally:
            super().teardown()

    # --- helpers ------------------------------------------------------------------------------

    def _do(self, service: Callable[..., T], /, **kwargs: Any) -> T | None:
        """Call a service; a refusal is the league being told no (nothing written)."""
        try:
            result = service(**kwargs)
        except REFUSED:
            return None
        self.written = True
        return result

    def _next_number(self) -> int:
        played = self.season.meets.exclude(status=m.Meet.Status.PLANNED).count()
        return played + 1

    def _planned_meet(self) -> m.Meet | None:
        return self.season.meets.filter(
            status=m.Meet.Status.PLANNED, number=self._next_number()
        ).first()

    def _has_confirmed_games(self) -> bool:
        return bool(self._games(confirmed=True))

    # --- the roster ---------------------------------------------------------------------------

    @initialize(count=st.integers(6, 10), start=st.booleans())
    def open_the_season(self, count: int, start: bool) -> None:
        """The roster at the start (ladder by IFPA rank, R3.1-b); maybe meet 1 under way."""
        for rank in range(1, count + 1):
            s.register_player(
                season=self.season,
                first_name="Player",
                last_name=f"N{next(self.names)}",
                ifpa_rank=rank,
                actor=self.user,
            )
        if start:
            s.start_meet(season=self.season, number=1, date=FIRST_DATE, seed=0, actor=self.user)

    @rule(
        target=late_players,
        joined_at=st.one_of(st.none(), st.just("next"), st.integers(1, MEETS)),
        ifpa_rank=st.one_of(st.none(), st.integers(1, 5000)),
        with_ifpa_number=st.booleans(),
    )
    def register_player(
        self, joined_at: int | str | None, ifpa_rank: int | None, with_ifpa_number: bool
    ) -> Any:
        """A player registers at any point: with the service's default joining meet (None),
        the next meet not started ("next"), or any meet of the season."""
        n = next(self.names)
        kwargs: dict[str, Any] = {
            "season": self.season,
            "first_name": "Late",
            "last_name": f"N{n}",
            "ifpa_rank": ifpa_rank,
            "ifpa_number": 90_000 + n if with_ifpa_number else None,
            "actor": self.user,
        }
        if joined_at == "next":
            kwargs["joined_at_meet"] = self._next_number()
        elif joined_at is not None:
            kwargs["joined_at_meet"] = joined_at
        entry = self._do(s.register_player, **kwargs)
        if entry is None:
            return multiple()
        self.late.append(entry.player_id)
        return entry.player

    @rule(player=late_players, countable=st.booleans())
    def designate_late_join_forfeits(self, player: m.Player, countable: bool) -> None:
        """Whether a late entrant's forfeits before he joined count (R2.4-g, A46)."""
        self._do(
            s.designate_late_join_forfeits,
            season=self.season,
            player=player,
            countable=countable,
            reason="He told us in advance.",
            actor=self.user,
        )

    # --- before a meet ------------------------------------------------------------------------

    @precondition(lambda self: self._next_number() <= MEETS and self._planned_meet() is None)
    @rule()
    def schedule_meet(self) -> None:
        number = self._next_number()
        self._do(
            s.schedule_meet,
            season=self.season,
            number=number,
            date=FIRST_DATE + datetime.timedelta(weeks=number - 1),
            actor=self.user,
        )

    def _may_give_notice(
        self, notice: type[m.AnnouncedAbsence | m.LatenessNotice]
    ) -> list[m.Player]:
        """Players entered for the planned meet without that notice yet."""
        meet = self._planned_meet()
        if meet is None:
            return []
        entered = self.season.entries.filter(joined_at_meet__lte=meet.number)
        noticed = notice.objects.filter(meet=meet).values("player_id")
        return list(
            m.Player.objects.filter(pk__in=entered.values("player_id"))
            .exclude(pk__in=noticed)
            .order_by("pk")
        )

    @precondition(lambda self: bool(self._may_give_notice(m.AnnouncedAbsence)))
    @rule(data=st.data())
    def announce_absence(self, data: st.DataObject) -> None:
        self._do(
            s.announce_absence,
            meet=self._planned_meet(),
            player=data.draw(st.sampled_from(self._may_give_notice(m.AnnouncedAbsence))),
            actor=self.user,
        )

    @precondition(lambda self: bool(self._may_give_notice(m.LatenessNotice)))
    @rule(data=st.data(), minutes_before=st.integers(1, 300))
    def announce_lateness(self, data: st.DataObject, minutes_before: int) -> None:
        meet = self._planned_meet()
        assert meet is not None
        self._do(
            s.announce_lateness,
            meet=meet,
            player=data.draw(st.sampled_from(self._may_give_notice(m.LatenessNotice))),
            at=scheduled_start(meet) - datetime.timedelta(minutes=minutes_before),
            actor=self.user,
        )

    @precondition(lambda self: not self._has_open_meet() and self._next_number() <= MEETS)
    @rule(seed=st.integers(0, 2**32))
    def start_meet(self, seed: int) -> None:
        number = self._next_number()
        self._do(
            s.start_meet,
            season=self.season,
            number=number,
            date=FIRST_DATE + datetime.timedelta(weeks=number - 1),
            seed=seed,
            actor=self.user,
        )

    # --- scores -------------------------------------------------------------------------------

    @precondition(lambda self: self._has_games_in_play())
    @rule(data=st.data())
    def submit_scores(self, data: st.DataObject) -> None:
        game = data.draw(st.sampled_from(self._games(confirmed=False)), label="game")
        sheet = self._sheet(data, game)
        self._do(
            s.submit_scores,
            game=game,
            scores=sheet,
            tie_order=self._tie_orders(data, sheet),
            entered_by=data.draw(st.sampled_from(self._members(game.group)), label="entered_by"),
            idempotency_key=f"sm-{next(self.keys)}",
        )

    @precondition(lambda self: self._has_games_in_play())
    @rule(data=st.data())
    def confirm_scores(self, data: st.DataObject) -> None:
        drawn = self._draw_confirmation(data)
        if drawn is None:
            return
        submission, confirmer = drawn
        self._do(s.confirm_scores, submission=submission, confirmed_by=confirmer)

    @precondition(lambda self: self._has_games_in_play())
    @rule(data=st.data())
    def play_a_game(self, data: st.DataObject) -> None:
        self._play(data, data.draw(st.sampled_from(self._games(confirmed=False)), label="game"))

    @precondition(lambda self: self._has_open_meet())
    @rule(data=st.data())
    def choose_next_machine(self, data: st.DataObject) -> None:
        self._choose(data)

    @rule(data=st.data())
    def advance(self, data: st.DataObject) -> None:
        """The night goes on: start the next meet, play a game, choose the next machine or
        close the finished meet, whichever comes next."""
        meet = self._open_meet()
        if meet is None:
            if self._next_number() <= MEETS:
                self.start_meet(seed=data.draw(st.integers(0, 2**32), label="seed"))
            return
        in_play = self._games(confirmed=False)
        if in_play:
            self._play(data, in_play[0])
        elif not self._choose(data):
            self._do(s.close_meet, meet=meet, actor=self.user)

    def _play(self, data: st.DataObject, game: m.Game) -> None:
        """A whole game's sheet entered by one player and confirmed by another (R3-a)."""
        sheet = self._sheet(data, game)
        members = self._members(game.group)
        entered = self._do(
            s.submit_scores,
            game=game,
            scores=sheet,
            tie_order=self._tie_orders(data, sheet),
            entered_by=members[0],
            idempotency_key=f"sm-{next(self.keys)}",
        )
        if entered is not None:
            self._do(s.confirm_scores, submission=entered.submission, confirmed_by=members[1])

    def _choose(self, data: st.DataObject) -> bool:
        """The picker of a group ready for its next game chooses a machine (§5); False when
        no group is ready."""
        meet = self._open_meet()
        assert meet is not None
        board = meet_board(meet)
        ready = steps.ready_groups(board, official_picks=False)
        if not ready:
            return False
        group = data.draw(st.sampled_from(ready), label="group")
        machine = steps.draw_machine(data, board, group)
        self._do(
            s.choose_next_machine,
            group=m.Group.objects.get(pk=group.id),
            machine=machine,
            chosen_by=m.Player.objects.get(pk=group.next_picker),
        )
        return True

    # --- corrections --------------------------------------------------------------------------

    @precondition(
        lambda self: m.ScoreSubmission.objects.filter(
            game__group__meet__season=self.season, confirmed_by__isnull=False
        ).exists()
    )
    @rule(data=st.data(), closed=st.booleans())
    def request_correction(self, data: st.DataObject, closed: bool) -> None:
        """A player claims a confirmed score is wrong (R3-b); after the close, an LO's
        override (A45.2)."""
        status = m.Meet.Status.CLOSED if closed else m.Meet.Status.OPEN
        games = list(
            m.Game.objects.filter(
                group__meet__season=self.season,
                group__meet__status=status,
                submissions__confirmed_by__isnull=False,
            )
            .distinct()
            .select_related("group")
            .order_by("pk")
        )
        claim = self._draw_scored(data, games, "wrong scores")
        if claim is None:
            return
        changes = {
            p.pk: data.draw(st.integers(0, 9), label=f"{p}'s") * 10_000 for p in claim.chosen
        }
        proposed = {**claim.sheet, **changes}
        extra: dict[str, Any] = (
            {"actor": self.user, "override_reason": "The sheet was misread."} if closed else {}
        )
        self._do(
            s.request_correction,
            game=claim.game,
            scores=changes,
            requested_by=data.draw(st.sampled_from(claim.played), label="requested_by"),
            reason="Wrong digits on the sheet.",
            tie_order=self._tie_orders(data, proposed, among=set(changes)),
            **extra,
        )

    @precondition(lambda self: self._pending_corrections().exists())
    @rule(data=st.data(), agrees=st.sampled_from([True, True, True, False]))
    def respond_to_correction(self, data: st.DataObject, agrees: bool) -> None:
        requests = list(self._pending_corrections())
        request = data.draw(st.sampled_from(requests), label="request")
        asked = steps.asked_to_answer(request)
        if not asked:
            return
        player = data.draw(st.sampled_from(asked), label="player")
        self._do(s.respond_to_correction, request=request, player=player, agrees=agrees)

    # --- incidents ----------------------------------------------------------------------------

    @precondition(lambda self: self._has_games_in_play())
    @rule(data=st.data(), countable=st.booleans())
    def record_forfeit(self, data: st.DataObject, countable: bool) -> None:
        game = data.draw(st.sampled_from(self._games(confirmed=False)), label="game")
        self._do(
            s.record_forfeit,
            game=game,
            player=data.draw(st.sampled_from(self._members(game.group)), label="player"),
            countable=countable,
            note="" if countable else "His car broke down.",
            actor=self.user,
        )

    @precondition(lambda self: self._has_games_in_play())
    @rule(data=st.data(), machine_allows=st.booleans(), not_past_ball_1=st.booleans())
    def record_late_join(
        self, data: st.DataObject, machine_allows: bool, not_past_ball_1: bool
    ) -> None:
        """A late player arrives during a game: he joins it or forfeits it (R2.3-a, A60)."""
        game = data.draw(st.sampled_from(self._games(confirmed=False)), label="game")
        self._do(
            s.record_late_join,
            game=game,
            player=data.draw(st.sampled_from(self._members(game.group)), label="player"),
            machine_allows_joining=machine_allows,
            last_player_not_past_ball_1=not_past_ball_1,
            actor=self.user,
        )

    @precondition(lambda self: self._has_open_meet() and bool(self._games()))
    @rule(
        data=st.data(),
        ball=st.integers(1, 3),
        reason_code=st.sampled_from(m.Malfunction.ReasonCode.values),
        kind=st.sampled_from(m.Malfunction.Kind.values),
        request_compensatory=st.booleans(),
    )
    def report_malfunction(
        self,
        data: st.DataObject,
        ball: int,
        reason_code: str,
        kind: str,
        request_compensatory: bool,
    ) -> None:
        game = data.draw(st.sampled_from(self._games()), label="game")
        other = reason_code == m.Malfunction.ReasonCode.OTHER
        self._do(
            s.report_malfunction,
            game=game,
            player=data.draw(st.sampled_from(self._members(game.group)), label="player"),
            ball=ball,
            reason_code=reason_code,
            kind=kind if other else None,
            note="The LO looked at it." if other else "",
            request_compensatory=request_compensatory,
            actor=self.user,
        )

    @precondition(lambda self: self._has_open_meet() and bool(self._games()))
    @rule(data=st.data())
    def request_compensatory_game(self, data: st.DataObject) -> None:
        malfunctions = self._malfunctions_to_compensate()
        if not malfunctions:
            return
        malfunction = data.draw(st.sampled_from(malfunctions), label="malfunction")
        self._do(
            s.request_compensatory_game,
            game=malfunction.game,
            player=malfunction.player,
            actor=self.user,
        )

    @precondition(lambda self: self._has_open_meet() and bool(self._games()))
    @rule(data=st.data(), new_score=machine_scores)
    def record_compensatory_game(self, data: st.DataObject, new_score: int) -> None:
        granted = self._compensatory_requests_to_record()
        if not granted:
            return
        request = data.draw(st.sampled_from(granted), label="compensatory request")
        self._do(
            s.record_compensatory_game,
            game=request.game,
            player=request.player,
            new_score=new_score,
            actor=self.user,
        )

    @precondition(lambda self: self._has_open_meet())
    @rule(
        data=st.data(),
        kind=st.sampled_from(m.Violation.Kind.values),
        during_a_game=st.booleans(),
        serious=st.sampled_from([None, None, True, False]),
    )
    def record_violation(
        self, data: st.DataObject, kind: str, during_a_game: bool, serious: bool | None
    ) -> None:
        meet = self._open_meet()
        assert meet is not None
        members = list(
            m.GroupMember.objects.filter(group__meet=meet).select_related("player", "group")
        )
        if not members:
            return  # every player announced an absence: the meet has no group
        member = data.draw(st.sampled_from(members), label="violator")
        timing = self._violation_timing(data, member.group_id, during_a_game)
        self._do(
            s.record_violation,
            meet=meet,
            player=member.player,
            kind=kind,
            reason="Seen by the LO.",
            serious=serious,
            actor=self.user,
            **timing,
        )

    @precondition(lambda self: self._has_open_meet())
    @rule(data=st.data(), repaired=st.booleans())
    def declare_machine(self, data: st.DataObject, repaired: bool) -> None:
        service = s.declare_machine_repaired if repaired else s.declare_machine_unplayable
        self._do(
            service,
            meet=self._open_meet(),
            machine=data.draw(st.sampled_from(self.machines), label="machine"),
            reason="Left flipper dead.",
            actor=self.user,
        )

    @precondition(lambda self: self._has_games_in_play())
    @rule(data=st.data(), designate=st.booleans(), seed=st.integers(0, 2**32))
    def replace_machine(self, data: st.DataObject, designate: bool, seed: int) -> None:
        """The game's machine died: replaced by the rules' choice or the LO's (R5.1-a, R7.3-s);
        a drawn machine is drawn again from `seed`."""
        game = data.draw(st.sampled_from(self._games(confirmed=False)), label="game")
        choice: dict[str, Any] = {"seed": seed}
        if designate:
            choice["machine"] = data.draw(st.sampled_from(self.machines), label="machine")
        elif game.chosen_by is not None:
            choice["chosen_by"] = game.chosen_by
            choice["machine"] = data.draw(st.sampled_from(self.machines), label="machine")
        self._do(
            s.replace_machine, game=game, reason="It reset mid-game.", actor=self.user, **choice
        )

    @precondition(lambda self: self._has_confirmed_games())
    @rule(data=st.data())
    def discard_scores_after_a_positive_malfunction(self, data: st.DataObject) -> None:
        discarded = self._draw_scored(data, self._games(confirmed=True), "discarded")
        if discarded is None:
            return
        self._do(
            s.record_positive_malfunction_replay,
            game=discarded.game,
            discard_scores_of=sorted(discarded.chosen, key=lambda p: p.pk),
            reason="A ball save that never ended.",
            actor=self.user,
        )

    @precondition(lambda self: self._has_confirmed_games())
    @rule(data=st.data())
    def record_replay_scores(self, data: st.DataObject) -> None:
        games = [g for g in self._games(confirmed=True) if m.DiscardedScore.objects.filter(game=g)]
        if not games:
            return
        game = data.draw(st.sampled_from(games), label="game")
        sheet = self._counted_sheet(game)
        counted = max(
            m.ScoreSubmission.objects.filter(game=game, confirmed_by__isnull=False).values_list(
                "version", flat=True
            )
        )
        waiting = sorted(
            m.DiscardedScore.objects.filter(game=game, version=counted).values_list(
                "player_id", flat=True
            )
        )
        if not waiting:
            return
        replay = {p: data.draw(machine_scores, label="replay") for p in waiting}
        proposed = {**sheet, **replay}
        stored = {frozenset(o) for o in counted_tie_orders([game.pk]).get(game.pk, ())}
        ties = [
            order
            for order in self._tie_orders(data, proposed, among=set(waiting))
            if frozenset(order) not in stored
        ]
        members = self._members(game.group)
        self._do(
            s.record_replay_scores,
            game=game,
            scores=replay,
            entered_by=members[0],
            confirmed_by=members[1],
            tie_order=ties,
            actor=self.user,
        )

    # --- the close ----------------------------------------------------------------------------

    @precondition(lambda self: self._has_open_meet())
    @rule(override=st.booleans())
    def close_meet(self, override: bool) -> None:
        """Close the meet; unfinished, only with an LO's override (A52)."""
        self._do(
            s.close_meet,
            meet=self._open_meet(),
            actor=self.user,
            override_reason="The venue closed early." if override else None,
        )

    # --- after the season -----------------------------------------------------------------

    @precondition(
        lambda self: (
            self.season.meets.filter(status=m.Meet.Status.CLOSED).count() == MEETS
            and not m.PlayoffNight.objects.filter(season=self.season).exists()
        )
    )
    @rule()
    def qualify_for_playoffs(self) -> None:
        """The final standings draw the playoff bracket (§6.1, §6.2)."""
        self._do(
            s.qualify_for_playoffs,
            season=self.season,
            date=FIRST_DATE + datetime.timedelta(weeks=MEETS),
            actor=self.user,
        )

    # --- the invariant ------------------------------------------------------------------------

    @invariant()
    def pages_answer_200(self) -> None:
        """After each accepted write: the pages every reader looks at (all of them with
        FLIPWELL_STATEFUL_EVERY_PAGE=1; the teardown reads all of them anyway)."""
        if not self.written:
            return
        self.written = False
        self._check(self._pages() if EVERY_PAGE else self._core_pages())
        self._check_stored_fold()

    def _check_stored_fold(self) -> None:
        """The fold every reader is served (stored or remembered for the season's revision)
        is the fold of the facts as they are: every accepted write gave a new revision."""
        season = m.Season.objects.get(pk=self.season.pk)
        served = results.season_fold(season).result
        assert served == results.compute_fold(season).result, "a write kept an old revision"

    def _check(self, pages: Iterable[tuple[Client, str]]) -> None:
        for client, url in pages:
            with _request_context(url):
                response = client.get(url)
            assert response.status_code == 200, f"GET {url} answered {response.status_code}"
            SeasonMachine.pages_read += 1

    def _core_pages(self) -> Iterator[tuple[Client, str]]:
        """The season's standings (league home) and the newest meet's board: between them
        they read every fact of the season."""
        yield self.visitor, f"/leagues/{self.league.slug}/"
        newest = self.season.meets.exclude(status=m.Meet.Status.PLANNED).order_by("number").last()
        if newest is not None:
            yield self.visitor, f"/leagues/{self.league.slug}/meets/{newest.pk}/"

    def _pages(self) -> Iterator[tuple[Client, str]]:
        slug, sid = self.league.slug, self.season.pk
        public = [
            "/",
            f"/leagues/{slug}/",
            f"/leagues/{slug}/seasons/{sid}/",
            f"/leagues/{slug}/playoffs/",
            f"/leagues/{slug}/machines/",
            f"/leagues/{slug}/maintenance/",
            f"/tv/{slug}/",
            f"/print/{slug}/standings/",
            f"/print/{slug}/maintenance/",
            f"/api/v1/seasons/{sid}",
            f"/api/v1/seasons/{sid}/standings",
            f"/api/v1/seasons/{sid}/ladder",
            f"/api/v1/seasons/{sid}/playoffs",
            f"/api/v1/seasons/{sid}/players",
            f"/api/v1/seasons/{sid}/meets",
            f"/api/v1/seasons/{sid}/standings.csv",
            f"/api/v1/seasons/{sid}/scores.csv",
            f"/api/v1/seasons/{sid}/ifpa.csv",
            f"/api/v1/seasons/{sid}/export.json",
            f"/api/v1/seasons/{sid}/meets.ics",
        ]
        for url in public:
            yield self.visitor, url
        first = self.season.entries.order_by("pk").values_list("player_id", flat=True)[:1]
        for player_id in [*first, *self.late]:
            yield self.visitor, f"/leagues/{slug}/players/{player_id}/"
            yield self.visitor, f"/api/v1/seasons/{sid}/players/{player_id}/history"
        yield self.console, f"/manage/{slug}/"
        yield self.console, f"/manage/{slug}/seasons/{sid}/meets/"
        yield self.console, f"/manage/{slug}/seasons/{sid}/roster/"
        for meet in self.season.meets.order_by("number"):
            yield self.visitor, f"/leagues/{slug}/meets/{meet.pk}/"
            yield self.visitor, f"/api/v1/meets/{meet.pk}"
            yield self.console, f"/manage/{slug}/meets/{meet.pk}/"
            if meet.status != m.Meet.Status.PLANNED:
                yield self.console, f"/print/{slug}/meets/{meet.pk}/sheets/"
            if meet.status == m.Meet.Status.OPEN:
                for group in meet.groups.order_by("number"):
                    yield self.visitor, scoresheet_path(group)


@contextmanager
def _request_context(url: str) -> Iterator[None]:
    """Name the page in the error a view raises (the test client re-raises it)."""
    try:
        yield
    except Exception as error:
        error.add_note(f"while GET {url}")
        raise


def test_season_services_never_break_a_page() -> None:
    """Any sequence of accepted services leaves every page answering 200 (issue 8; R2.3-a,
    A14.5: a player registered late joins at the next unplayed meet)."""
    SeasonMachine.pages_read = 0

    run_state_machine_as_test(
        SeasonMachine,
        settings=settings(
            max_examples=EXAMPLES,
            stateful_step_count=STEPS,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
        ),
    )

    assert SeasonMachine.pages_read > 0  # each step's pages, then every page, answered 200
