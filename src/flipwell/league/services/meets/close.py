"""Closing a meet (§3.3, §2.4, §2.5, §8.5) and reading its results from the season's fold.

Words:
- *unfinished business*: what keeps a meet from closing: a game without confirmed scores, a
  match short of four games, an open compensatory game (R7.3-p), a replay of discarded scores
  (R7.4-c) or a correction waiting for answers (R3-c).
- *override*: an official closes it anyway, saying why (A52: a short match's bonus counts the
  games completed); recorded as a Ruling ``meet_closed_unfinished``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from flipwell.league import models as m
from flipwell.league.notices import queue_meet_closed
from flipwell.league.refusals import ConflictError
from flipwell.league.selectors.meet_board.next_games import open_compensatory
from flipwell.league.selectors.meet_board.values import GAMES_PER_MATCH
from flipwell.league.services._protocol import official_write
from flipwell.rules import MeetResult, Night, SeasonResult

if TYPE_CHECKING:
    from django.contrib.auth.models import User


@dataclass(frozen=True)
class ClosedMeet:
    """A closed meet's results, from the season fold.

    result: the meet folded (ladder, groups, each match's points, penalties; no explanation).
    nights: player id -> his night (game points, match bonus, §2.4 credit, league points).
    season_forfeits: players whose season ended at this meet (12 countable forfeits, R2.5-a,
    or a third offense, R8.5-e).
    """

    meet: m.Meet
    result: MeetResult
    nights: Mapping[int, Night]
    season_forfeits: tuple[int, ...]


def close_meet(*, meet: m.Meet, actor: User, override_reason: str | None = None) -> ClosedMeet:
    """Close an open meet and return its results (§3.3, §2.4, §2.5, §8.5).

    Refused while a game has no confirmed scores, a group has played fewer than four games,
    a compensatory game is open (R7.3-p) or a correction waits for answers (R3-c), unless a
    league official closes it anyway with `override_reason` (A52: a short match's bonus counts
    the games completed); the override is a Ruling.

    Side effects: the Meet's status becomes closed, a Ruling for an override, an audit event
    ``meet.closed``, and each player who chose it gets their night's notice queued. Raises
    PermissionDenied unless `actor` is a league official; ValidationError (nothing written)
    for a meet that is not open or unfinished business without an override.
    """
    with official_write(league=meet.season.league, actor=actor, action="close a meet") as write:
        meet = write.open_meet(meet, doing="close it")
        write.season = meet.season
        write.only_meets(meet)
        problems = _unfinished(meet)
        reason = _close_override(meet, problems, override_reason)
        if reason:
            subject = f"{meet.season}, meet {meet.number}"[:200]
            write.ruling(kind="meet_closed_unfinished", subject=subject, reason=reason, meet=meet)
        meet.status = m.Meet.Status.CLOSED
        meet.save(update_fields=["status"])
        result = write.refold()
        write.event(
            "meet.closed",
            meet,
            {"number": meet.number, "override_reason": reason, "unfinished": problems},
        )
        queue_meet_closed(meet, result)
    return _closed(meet, result)


def _close_override(meet: m.Meet, problems: Sequence[str], override_reason: str | None) -> str:
    """The official's reason to close `meet` with `problems` left ("" when none is left);
    refused without one (A52)."""
    if not problems:
        return ""
    if not (override_reason or "").strip():
        raise ConflictError(
            f"Meet {meet.number} cannot close yet: {'; '.join(problems)}. A league "
            "official may close it anyway with an override reason (A52: the match "
            "bonus then counts the games completed).",
            code="meet_unfinished",
        )
    return override_reason.strip() if override_reason else ""


def _closed(meet: m.Meet, result: SeasonResult) -> ClosedMeet:
    """The closed meet's results from the season's new fold."""
    folded = result.meets[meet.number - 1]
    nights = {
        int(p): night
        for p, standing in result.players.items()
        for night in standing.nights
        if night.meet == meet.number
    }
    ended = tuple(
        sorted(
            int(p)
            for p, s in result.players.items()
            if meet.number in (s.season_forfeited_at, s.suspended_at)
        )
    )
    return ClosedMeet(meet=meet, result=folded, nights=nights, season_forfeits=ended)


def _unfinished(meet: m.Meet) -> list[str]:
    """What keeps the meet from closing: unconfirmed games, short matches, open business."""
    return [*_unplayed(meet), *_open_business(meet)]


def _unplayed(meet: m.Meet) -> list[str]:
    """Each group's games without confirmed scores, and its match short of four games."""
    problems = []
    confirmed = set(
        m.ScoreSubmission.objects.filter(
            game__group__meet=meet, confirmed_by__isnull=False
        ).values_list("game_id", flat=True)
    )
    games: dict[int, list[tuple[int, int]]] = {}
    for group_number, game_id, number in m.Game.objects.filter(group__meet=meet).values_list(
        "group__number", "id", "number"
    ):
        games.setdefault(group_number, []).append((game_id, number))
    for group_number in meet.groups.order_by("number").values_list("number", flat=True):
        mine = sorted(games.get(group_number, []), key=lambda g: g[1])
        unconfirmed = [n for game_id, n in mine if game_id not in confirmed]
        if unconfirmed:
            listed = ", ".join(str(n) for n in unconfirmed)
            problems.append(f"group {group_number} game {listed} has no confirmed scores")
        if len(mine) < GAMES_PER_MATCH:
            problems.append(
                f"group {group_number} has played {len(mine)} of {GAMES_PER_MATCH} games"
            )
    return problems


def _open_business(meet: m.Meet) -> list[str]:
    """The meet's open compensatory games (R7.3-p), replays of discarded scores (R7.4-c) and
    corrections waiting for answers (R3-c)."""
    problems = []
    waiting = sum(len(players) for players in open_compensatory(meet).values())
    if waiting:
        problems.append(
            f"{waiting} compensatory game{'' if waiting == 1 else 's'} not recorded (R7.3-p)"
        )
    discarded = (
        m.DiscardedScore.objects.filter(game__group__meet=meet)
        .values_list("game_id", "version")
        .distinct()
    )
    counted = dict(
        m.ScoreSubmission.objects.filter(game__group__meet=meet, confirmed_by__isnull=False)
        .order_by("game_id", "version")
        .values_list("game_id", "version")
    )
    replays = sum(1 for game_id, version in discarded if counted.get(game_id) == version)
    if replays:
        problems.append(
            f"{replays} game{'' if replays == 1 else 's'} waiting for a replay of discarded "
            "scores (R7.4-c)"
        )
    pending = m.CorrectionRequest.objects.filter(
        game__group__meet=meet, status=m.CorrectionRequest.Status.PENDING
    ).count()
    if pending:
        problems.append(
            f"{pending} correction{'' if pending == 1 else 's'} waiting for the players' "
            "answers (R3-c)"
        )
    return problems
