"""A player enters a game's score sheet at a league night: a new unconfirmed version (R3-a).

Words:
- *score sheet*: every group member's machine score for one game, None for a player who did
  not play it (a forfeit, §2.4), and the order a one-ball playoff gave tied players (R3.2-i).
- *version*: each entry of a game's sheet is a new `ScoreSubmission`; an unconfirmed one may
  be replaced by a later one; once one is confirmed by another player of the group (R3-a) the
  sheet changes only through a correction (`flipwell.league.services.corrections`).
- *idempotency key*: chosen by the client for one entry; a retried request with the same key
  and the same sheet returns the stored entry and writes nothing. Keys are scoped by league and
  *submitter* (who sends them: ``token:<id>`` for an API token, ``sheet:<group id>`` for a
  group's sheet link, empty for the league's own tools): nobody else's key is ever seen.
- *seen version*: the latest version of the game's sheet the client saw when it made the
  entry (0: none yet). An entry made on a stale page (another player entered or confirmed the
  game meanwhile) is refused rather than stored over a sheet its sender never saw.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.db import IntegrityError

from flipwell.league import models as m
from flipwell.league.adapters.game_facts import absent_at, match_absences
from flipwell.league.refusals import ConflictError, Refusal
from flipwell.league.services._edge import (
    PlayerRef,
    group_player_ids,
    open_meet,
    ref_id,
    require_member,
)
from flipwell.league.services._protocol import Actor, Write, league_write, savepoint
from flipwell.league.services.scores.sheet_checks import (
    check_not_confirmed,
    check_sheet,
    entered_sheet_shown,
    game_held_for_scores,
    versions_of,
)
from flipwell.league.services.scores.sheet_points import (
    game_points_of,
    points_once_confirmed,
    store_sheet,
)

if TYPE_CHECKING:
    from django.contrib.auth.models import User


@dataclass(frozen=True)
class SubmittedScores:
    """A stored score sheet and the game points it will give once confirmed (player id ->
    points, R3.2, `points_once_confirmed`).

    replayed: the request repeated an earlier one (same idempotency key): nothing was written.
    """

    submission: m.ScoreSubmission
    points: Mapping[int, int]
    replayed: bool = False


def submit_scores(
    *,
    game: m.Game,
    scores: Mapping[PlayerRef, int | None],
    tie_order: Sequence[Sequence[PlayerRef]] = (),
    entered_by: m.Player,
    idempotency_key: str,
    submitter: str = "",
    seen_version: int | None = None,
    actor: User | None = None,
    note: str = "",
) -> SubmittedScores:
    """Enter a game's score sheet as a new unconfirmed version (R3-a) and return its points.

    Every group member is listed, with a machine score (a whole number, 0 or more) or None
    (did not play it: a recorded forfeit has None); tied scores need `tie_order`, the one-ball
    playoff's order, winner first (R3.2-i, A15); `score_game` checks the sheet. A same-key
    retry by the same `submitter` in the league returns the stored entry (`replayed`), the
    same key with another sheet is a ConflictError; the game row is locked first, so of
    concurrent retries all but the first are replays. `seen_version`: the latest version the
    sender saw (0: none; None: not checked).

    Side effects: a ScoreSubmission (the game's next version), its ScoreLines and tie orders,
    an audit event ``scores.submitted``, the league's new revision (no fold: the sheet is no
    fact until confirmed, `entered_sheet_shown`). ValidationError (nothing written) when the
    meet is not open, `entered_by` is not in the group, the sheet is not valid, or it scores
    a player who forfeited the season before this game (R2.5-b, A65); ConflictError when the
    game is confirmed (``game_already_confirmed``: only a correction changes it) or the
    entry is stale (``stale_version``).
    """
    key = idempotency_key.strip()
    if not key:
        raise Refusal(
            {"idempotency_key": "Give the request an idempotency key."},
            code="idempotency_key_required",
        )
    sheet = {ref_id(p): s for p, s in scores.items()}
    ties = [[ref_id(p) for p in order] for order in tie_order]
    with league_write(league=None, actor=Actor.player(actor), action="enter scores") as write:
        game = game_held_for_scores(game.pk)
        write.league = game.group.meet.season.league
        scope = f"{game.group.meet.season.league_id}:{submitter}"
        entry = _Entry(key, scope, game, sheet, ties, entered_by)
        replay = _replay(entry)
        if replay is not None:
            return replay
        latest = _check_entry(entry, seen_version)
        game_points_of(game, sheet, ties)  # the sheet must score (R3.2-i)
        version = (latest.version if latest is not None else 0) + 1
        submission = m.ScoreSubmission(
            game=game, version=version, entered_by=entered_by, recorded_by=actor,
            idempotency_key=key, idempotency_scope=scope, note=note,
        )  # fmt: skip
        replay = _saved_or_replay(submission, entry)
        if replay is not None:
            return replay
        _store_entry(write, submission, entry, replaces=latest)
        entered_sheet_shown(game, sheet)
        points = points_once_confirmed(game, sheet, ties)
    return SubmittedScores(submission=submission, points=points)


@dataclass(frozen=True)
class _Entry:
    """A score sheet as sent: its idempotency key and the key's scope, the game, the scores
    and tie orders by player id, and who entered it."""

    key: str
    scope: str
    game: m.Game
    sheet: dict[int, int | None]
    ties: list[list[int]]
    entered_by: m.Player


def _check_entry(entry: _Entry, seen_version: int | None) -> m.ScoreSubmission | None:
    """Refuse an entry while the meet is not open, by a player outside the group, for a game
    already confirmed, made on a stale page or with a sheet that is not valid; the game's
    latest version (None: the first entry)."""
    game, group = entry.game, entry.game.group
    open_meet(group.meet, doing="enter scores")
    members = group_player_ids(group)
    require_member(entry.entered_by, members, field="entered_by", group=group)
    _check_enterer_here(game, entry.entered_by)
    versions = versions_of(game)
    check_not_confirmed(game, versions, refused="your entry was not saved")
    latest = versions[-1] if versions else None
    _check_seen_version(game, latest, seen_version)
    check_sheet(game, entry.sheet, members)
    return latest


def _check_enterer_here(game: m.Game, entered_by: m.Player) -> None:
    """Refuse an entry by a player absent for the rest of the match: he is not at the machine
    (R3-a, R2.4-a, `who_may_enter`)."""
    absent = match_absences([game.group_id]).get(game.group_id, {})
    if entered_by.pk in absent_at(absent, game.number):
        raise Refusal(
            {
                "entered_by": f"{entered_by} is absent for the rest of the match: a player of "
                f"the group who plays game {game.number} enters its sheet (R3-a, R2.4-a)."
            },
            code="absent_for_the_match",
        )


def _saved_or_replay(submission: m.ScoreSubmission, entry: _Entry) -> SubmittedScores | None:
    """Save the new version; None, or the stored entry when a concurrent request stored the
    same key meanwhile (for another game: then it is refused as reused)."""
    try:
        with savepoint():
            submission.save()
    except IntegrityError:
        replay = _replay(entry)
        if replay is not None:
            return replay
        raise
    return None


def _store_entry(
    write: Write,
    submission: m.ScoreSubmission,
    entry: _Entry,
    *,
    replaces: m.ScoreSubmission | None,
) -> None:
    """The saved version's lines and tie orders, and its audit event ``scores.submitted``."""
    if replaces is not None:
        # The replaced versions were never confirmed, so their tie orders were never facts;
        # the standings read every tie order of a game, so only the new sheet's may remain.
        m.TieOrder.objects.filter(game=entry.game, submission__isnull=False).exclude(
            submission=submission
        ).delete()
    store_sheet(submission, entry.sheet, entry.ties, actor=write.user)
    write.event(
        "scores.submitted",
        submission,
        {
            "game": entry.game.pk,
            "version": submission.version,
            "entered_by": entry.entered_by.pk,
            "scores": {str(p): s for p, s in entry.sheet.items()},
            "tie_order": entry.ties,
        },
    )


def _check_seen_version(
    game: m.Game, latest: m.ScoreSubmission | None, seen_version: int | None
) -> None:
    """ConflictError when the sender saw another version than the latest one stored."""
    stored = latest.version if latest is not None else 0
    if seen_version is None or seen_version == stored:
        return
    if latest is None or seen_version > stored:
        message = (
            f"Game {game.number}'s sheet has no version {seen_version}; your entry was not "
            "saved: reload the sheet and enter the scores again."
        )
    else:
        message = (
            f"{latest.entered_by} entered game {game.number}'s scores meanwhile (version "
            f"{stored}); your entry was not saved: check them, then confirm or fix them."
        )
    raise ConflictError(message, code="stale_version")


def _replay(entry: _Entry) -> SubmittedScores | None:
    """The stored entry of a retried request, or None when the key is new."""
    stored = (  # one row (a unique key): ordering by the game would join three tables
        m.ScoreSubmission.objects.filter(idempotency_scope=entry.scope, idempotency_key=entry.key)
        .order_by("pk")
        .first()
    )
    if stored is None:
        return None
    stored_sheet = dict(stored.lines.values_list("player_id", "machine_score"))
    places = m.TieOrderPlace.objects.filter(tie_order__submission=stored).order_by(
        "tie_order_id", "position"
    )
    stored_ties: dict[int, list[int]] = {}
    for order_id, player_id in places.values_list("tie_order_id", "player_id"):
        stored_ties.setdefault(order_id, []).append(player_id)
    same = (
        stored.game_id == entry.game.pk
        and stored.entered_by_id == entry.entered_by.pk
        and stored_sheet == entry.sheet
        and list(stored_ties.values()) == entry.ties
    )
    if not same:
        raise ConflictError(
            {
                "idempotency_key": f"This key was already used for another score sheet "
                f"({stored.game}, version {stored.version}); send a new key for a new sheet."
            },
            code="idempotency_key_reused",
        )
    points = points_once_confirmed(stored.game, stored_sheet, entry.ties)
    return SubmittedScores(submission=stored, points=points, replayed=True)
