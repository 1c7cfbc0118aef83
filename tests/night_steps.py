"""What the two stateful tests over the league's services share: the league each example
starts from and the reads and draws their steps make (tests/league/test_night_state_machine.py,
a night step by step; tests/web/test_season_state_machine.py, a season's pages). Shared test
fixtures live once: both tests import this module, never each other.

Words:
- *step machine*: `ServiceMachine`, a RuleBasedStateMachine with no rules of its own. Each
  example starts inside a savepoint that its teardown rolls back, with an LO, a season of
  `MEETS` meets and `MACHINES` machines. A subclass sets the class attributes where the two
  tests differ, so each test draws what it drew before.
- *refused*: a service raised ValidationError or PermissionDenied (`REFUSED`): the league was
  told no, nothing was written.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from typing import Any, ClassVar, NamedTuple

from django.apps import apps
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.management.color import no_style
from django.db import connection, transaction
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine

from flipwell.league import models as m
from flipwell.league.selectors.meet_board.values import BoardGroup, MeetBoard
from tests import factories as f

REFUSED = (ValidationError, PermissionDenied)
GAMES_PER_MATCH = 4


class Chosen(NamedTuple):
    """Players chosen among those with a score on a confirmed game's counted sheet."""

    game: m.Game
    sheet: dict[int, int | None]
    """The counted sheet: player id -> machine score (None: no score)."""
    played: list[m.Player]
    """The players with a score, in id order."""
    chosen: set[m.Player]
    """Some of them, at least one."""


class ServiceMachine(RuleBasedStateMachine):
    """A league driven only through its services (the rules are the subclass's)."""

    MEETS: ClassVar[int]
    """The season's meets."""
    MACHINES: ClassVar[int]
    """The league's machines."""
    SHEET_SCORES: ClassVar[st.SearchStrategy[int | None]]
    """A score a player types on a sheet (`_sheet`)."""
    MEMBER_ORDER: ClassVar[str]
    """The field a group's members are listed by (`_members`): "position" or "pk"."""
    SORTED_TIES: ClassVar[bool]
    """Whether a tie order is drawn from the tied players sorted by id (`_tie_orders`), or
    in the order the sheet lists them. The season test keeps the order and the members by pk
    it had before this module, so that it draws the same examples as it always did."""

    def __init__(self) -> None:
        super().__init__()
        self._savepoint = transaction.atomic()
        self._savepoint.__enter__()
        restart_sequences()
        self.official = f.LeagueOfficialFactory(
            user__username="lo", league__name="Tuesday", league__slug="tuesday"
        )
        self.user = self.official.user
        self.league = self.official.league
        self.season = f.SeasonFactory(
            league=self.league, name="Spring", number_of_meets=self.MEETS, created_at=f.SET_UP_2026
        )
        self.machines = [
            f.MachineFactory(league=self.league, title=f"Machine {i}")
            for i in range(1, self.MACHINES + 1)
        ]
        self.keys = itertools.count(1)
        self.written = True
        """An accepted step wrote since the invariant last looked."""

    def teardown(self) -> None:
        """Roll the example's rows back."""
        transaction.set_rollback(True)
        self._savepoint.__exit__(None, None, None)

    # --- the night as it stands -------------------------------------------------------------

    def _open_meet(self) -> m.Meet | None:
        return self.season.meets.filter(status=m.Meet.Status.OPEN).first()

    def _has_open_meet(self) -> bool:
        return self._open_meet() is not None

    def _games(self, *, confirmed: bool | None = None) -> list[m.Game]:
        """Games of the open meet; only those with (or without) a confirmed sheet if asked."""
        games = m.Game.objects.filter(group__meet__season=self.season, group__meet__status="open")
        scored = m.ScoreSubmission.objects.filter(confirmed_by__isnull=False).values("game_id")
        if confirmed is True:
            games = games.filter(pk__in=scored)
        elif confirmed is False:
            games = games.exclude(pk__in=scored)
        return list(games.select_related("group").order_by("pk"))

    def _has_games_in_play(self) -> bool:
        return bool(self._games(confirmed=False))

    def _members(self, group: m.Group) -> list[m.Player]:
        order = self.MEMBER_ORDER
        return [gm.player for gm in group.members.select_related("player").order_by(order)]

    def _pending_sheets(self) -> list[m.ScoreSubmission]:
        """Sheets entered for games in play and not confirmed yet (corrections aside)."""
        return list(
            m.ScoreSubmission.objects.filter(
                game__in=self._games(confirmed=False), is_correction=False
            ).order_by("pk")
        )

    def _pending_corrections(self) -> Any:
        """The season's correction requests still waiting for answers, oldest first."""
        return m.CorrectionRequest.objects.filter(
            game__group__meet__season=self.season, status="pending"
        ).order_by("pk")

    def _malfunctions_to_compensate(self) -> list[m.Malfunction]:
        """Major and catastrophic malfunctions of the open meet (a compensatory game may be
        asked for them, R7.3-k)."""
        return list(
            m.Malfunction.objects.filter(
                game__in=self._games(), kind__in=("major", "catastrophic")
            ).order_by("pk")
        )

    def _compensatory_requests_to_record(self) -> list[m.CompensatoryRequest]:
        """Compensatory games granted at the open meet whose score is not recorded yet."""
        recorded = set(
            m.CompensatoryGame.objects.filter(game__in=self._games()).values_list(
                "game_id", "player_id"
            )
        )
        return [
            r
            for r in m.CompensatoryRequest.objects.filter(game__in=self._games()).order_by("pk")
            if (r.game_id, r.player_id) not in recorded
        ]

    @staticmethod
    def _counted_sheet(game: m.Game) -> dict[int, int | None]:
        counted = (
            m.ScoreSubmission.objects.filter(game=game, confirmed_by__isnull=False)
            .order_by("-version")
            .first()
        )
        assert counted is not None
        return dict(counted.lines.values_list("player_id", "machine_score"))

    # --- draws --------------------------------------------------------------------------------

    def _draw_confirmation(self, data: st.DataObject) -> tuple[m.ScoreSubmission, m.Player] | None:
        """A pending sheet and a player of its group to confirm it (R3-a); None when no sheet
        waits."""
        pending = self._pending_sheets()
        if not pending:
            return None
        submission = data.draw(st.sampled_from(pending), label="submission")
        confirmer = data.draw(
            st.sampled_from(self._members(submission.game.group)), label="confirmer"
        )
        return submission, confirmer

    def _draw_scored(self, data: st.DataObject, games: list[m.Game], label: str) -> Chosen | None:
        """One of `games` (confirmed) and some of the players with a score on its counted
        sheet (whose scores are claimed wrong, or discarded); None when there is no game or
        nobody has a score."""
        if not games:
            return None
        game = data.draw(st.sampled_from(games), label="game")
        sheet = self._counted_sheet(game)
        played = scored(sheet)
        if not played:
            return None
        chosen = data.draw(st.sets(st.sampled_from(played), min_size=1), label=label)
        return Chosen(game, sheet, played, chosen)

    def _tie_orders(
        self, data: st.DataObject, sheet: dict[int, int | None], among: set[int] | None = None
    ) -> list[list[int]]:
        """A one-ball playoff order (R3.2-i) for each set of players tied on `sheet`."""
        by_score: dict[int, list[int]] = {}
        for player, score in sheet.items():
            if score is not None:
                by_score.setdefault(score, []).append(player)
        return [
            data.draw(
                st.permutations(sorted(tied) if self.SORTED_TIES else tied), label="tie order"
            )
            for tied in by_score.values()
            if len(tied) > 1 and (among is None or among & set(tied))
        ]

    def _sheet(self, data: st.DataObject, game: m.Game) -> dict[int, int | None]:
        """A sheet as a player types it: a score of `SHEET_SCORES` for each member, none for a
        recorded forfeit; a player recorded absent for the rest of the match is given one (the
        box is there on today's sheet)."""
        forfeited = set(m.Forfeit.objects.filter(game=game).values_list("player_id", flat=True))
        return {
            p.pk: None if p.pk in forfeited else data.draw(self.SHEET_SCORES, label=f"score of {p}")
            for p in self._members(game.group)
        }

    def _violation_timing(
        self, data: st.DataObject, group_id: int, during_a_game: bool
    ) -> dict[str, Any]:
        """When a violation of a player of the group happened (§8, A27): during one of its
        confirmed games, or after some of them."""
        confirmed = [g for g in self._games(confirmed=True) if g.group_id == group_id]
        if during_a_game and confirmed:
            return {"game": data.draw(st.sampled_from(confirmed), label="during game")}
        return {
            "games_completed": data.draw(st.integers(0, len(confirmed)), label="games_completed")
        }


def ready_groups(board: MeetBoard, *, official_picks: bool) -> list[BoardGroup]:
    """The board's groups ready for their next game's machine: every game so far confirmed,
    games of the match left and a picker (§5); with `official_picks`, also those whose
    machine the LO chooses because nobody played the last game (A66)."""
    return [
        g
        for g in board.groups
        if (g.next_picker is not None or (official_picks and g.official_picks))
        and len(g.games) < GAMES_PER_MATCH
        and all(game.confirmed for game in g.games)
    ]


def draw_machine(data: st.DataObject, board: MeetBoard, group: BoardGroup) -> m.Machine:
    """The machine chosen for the group's next game: one it has not played, not in use and
    playable; any of the meet's when none is left (the service then says no)."""
    played = {game.machine_id for game in group.games}
    free = [
        pk
        for pk in sorted(board.machines)
        if pk not in played and pk not in board.in_use and pk not in board.unplayable
    ]
    pk = data.draw(st.sampled_from(free or sorted(board.machines)), label="machine")
    return m.Machine.objects.get(pk=pk)


def players(ids: Iterable[int]) -> list[m.Player]:
    """The players with these ids, in id order (a draw then shows their names)."""
    return list(m.Player.objects.filter(pk__in=list(ids)).order_by("pk"))


def scored(sheet: dict[int, int | None]) -> list[m.Player]:
    """The players with a score on `sheet`, in id order."""
    return players(p for p, score in sheet.items() if score is not None)


def asked_to_answer(request: m.CorrectionRequest) -> list[m.Player]:
    """The players a correction asks (those with a score on the sheet it corrects) who have
    not answered it yet (R3-c), in id order."""
    base = dict(request.base.lines.values_list("player_id", "machine_score"))
    answered = set(request.responses.values_list("player_id", flat=True))
    return players(p for p, score in base.items() if score is not None and p not in answered)


def restart_sequences() -> None:
    """On PostgreSQL, restart the id sequences after the rows left (a rollback does not
    rewind them), so every example gets the same ids: players' keys order ties in the rules,
    and Hypothesis needs each example to replay the same way. SQLite rewinds them itself."""
    if connection.vendor != "postgresql":
        return
    statements = connection.ops.sequence_reset_sql(no_style(), apps.get_models())
    with connection.cursor() as cursor:
        for statement in statements:
            cursor.execute(statement)
