"""Score entry at a league night: a player enters a game's sheet, another confirms it (§3).

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
from typing import TYPE_CHECKING, NoReturn

from django.db import IntegrityError
from django.utils import timezone

from flipwell.league import models as m
from flipwell.league.adapters.game_facts import (
    absent_at,
    match_absences,
    sheet_facts,
    tie_order_facts,
)
from flipwell.league.adapters.keys import player_key
from flipwell.league.adapters.rulesets import season_ruleset
from flipwell.league.derived.results import season_fold
from flipwell.league.refusals import ConflictError, Refusal
from flipwell.league.selectors.scoresheet import lines_once_confirmed
from flipwell.league.services._edge import (
    MeetHold,
    PlayerRef,
    group_player_ids,
    hold_meet,
    open_meet,
    ref_id,
    require_member,
    rules_edge,
)
from flipwell.league.services._protocol import Actor, Write, league_write, savepoint
from flipwell.league.services._season_forfeit import (
    refuse_if_season_forfeited,
)
from flipwell.rules import (
    score_game,
    who_may_confirm,
)

if TYPE_CHECKING:
    from django.contrib.auth.models import User

__all__ = ["ConflictError", "SubmittedScores", "confirm_scores", "submit_scores"]


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
    an audit event ``scores.submitted``. ValidationError (nothing written) when the meet is
    not open, `entered_by` is not in the group, the sheet is not valid, or it scores a player
    who forfeited the season before this game (R2.5-b, A65); ConflictError when the game is
    confirmed (``game_already_confirmed``: only a correction changes it) or the entry is
    stale (``stale_version``).
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
        game = _game_held_for_scores(game.pk)
        write.league = game.group.meet.season.league
        scope = f"{game.group.meet.season.league_id}:{submitter}"
        entry = _Entry(key, scope, game, sheet, ties, entered_by)
        replay = _replay(entry)
        if replay is not None:
            return replay
        latest = _check_entry(entry, seen_version)
        _points(game, sheet, ties)  # the sheet must score (R3.2-i)
        version = (latest.version if latest is not None else 0) + 1
        submission = m.ScoreSubmission(
            game=game, version=version, entered_by=entered_by, recorded_by=actor,
            idempotency_key=key, idempotency_scope=scope, note=note,
        )  # fmt: skip
        replay = _saved_or_replay(submission, entry)
        if replay is not None:
            return replay
        _store_entry(write, submission, entry, replaces=latest)
        _season_changed(write, game, sheet)
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


def _game_held_for_scores(game_id: int) -> m.Game:
    """The game locked for a score sheet's write, its meet held shared (`MeetHold.SCORES`),
    with its group, meet, season and league."""
    hold_meet(MeetHold.SCORES, game=game_id)
    return (
        m.Game.objects.select_for_update(of=("self",))
        .select_related("group__meet__season__league")
        .get(pk=game_id)
    )


def _check_entry(entry: _Entry, seen_version: int | None) -> m.ScoreSubmission | None:
    """Refuse an entry while the meet is not open, by a player outside the group, for a game
    already confirmed, made on a stale page or with a sheet that is not valid; the game's
    latest version (None: the first entry)."""
    game, group = entry.game, entry.game.group
    open_meet(group.meet, doing="enter scores")
    members = group_player_ids(group)
    require_member(entry.entered_by, members, field="entered_by", group=group)
    _check_enterer_here(game, entry.entered_by)
    versions = _versions(game)
    _check_not_confirmed(game, versions, refused="your entry was not saved")
    latest = versions[-1] if versions else None
    _check_seen_version(game, latest, seen_version)
    _check_sheet(game, entry.sheet, members)
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


def _season_changed(write: Write, game: m.Game, sheet: Mapping[int, int | None]) -> None:
    """Fold the season with the game's new sheet (`Write.refold`); a sheet scoring a player
    who forfeited the season before this game is refused, rolling the write back (A65)."""
    write.season = game.group.meet.season
    folded = write.refold()
    refuse_if_season_forfeited(
        game=game, players=_scored(sheet), field="scores", refused="their score", result=folded
    )


def confirm_scores(
    *, submission: m.ScoreSubmission, confirmed_by: m.Player, actor: User | None = None
) -> m.ScoreSubmission:
    """Another player of the group confirms a game's entered sheet (R3-a): it now counts.

    The game row is locked (select_for_update) and the database allows one confirmed entry per
    game, so of two confirmations racing exactly one wins; the other gets a ConflictError
    naming who confirmed. Only the latest version can be confirmed; a correction's sheet is
    applied by agreement, not by confirmation (R3-d).

    Side effects: sets confirmed_by and confirmed_at, audit event ``scores.confirmed``. Raises
    ConflictError when the game is already confirmed; ValidationError when the meet is not
    open, the sheet was replaced by a later version, `confirmed_by` entered it himself or
    is not in the group, or it scores a player who forfeited the season meanwhile (A65).
    """
    with league_write(league=None, actor=Actor.player(actor), action="confirm scores") as write:
        game = _game_held_for_scores(submission.game_id)
        write.league = game.group.meet.season.league
        versions = _versions(game)
        submission = _version(versions, submission.pk)
        open_meet(game.group.meet, doing="confirm scores")
        _check_confirmable(game, versions, submission)
        sheet = _check_confirmer(game, submission, confirmed_by)
        _check_forfeits(game, sheet)
        submission.confirmed_by = confirmed_by
        submission.confirmed_at = timezone.now()
        try:
            with savepoint():
                submission.save(update_fields=["confirmed_by", "confirmed_at"])
        except IntegrityError:
            _check_not_confirmed(game, _versions(game))  # names the winner
            raise
        write.event(
            "scores.confirmed",
            submission,
            {"game": game.pk, "version": submission.version, "confirmed_by": confirmed_by.pk},
        )
        _season_changed(write, game, sheet)  # the sheet must score with the rest
    return submission


def _check_confirmable(
    game: m.Game, versions: Sequence[m.ScoreSubmission], submission: m.ScoreSubmission
) -> None:
    """Refuse to confirm a correction's sheet (applied by agreement, R3-d), a game already
    confirmed, or a version replaced by a later one."""
    if submission.is_correction:
        raise Refusal(
            "This sheet is a correction: it is applied when every player asked agrees "
            "(R3-d), not by confirmation.",
            code="sheet_is_correction",
        )
    _check_not_confirmed(game, versions)
    latest = versions[-1].version
    if submission.version != latest:
        raise ConflictError(
            f"Version {submission.version} of game {game.number}'s sheet was replaced by "
            f"version {latest}: confirm version {latest}.",
            code="stale_version",
        )


def _check_confirmer(
    game: m.Game, submission: m.ScoreSubmission, confirmed_by: m.Player
) -> dict[int, int | None]:
    """Refuse a confirmer the rules do not allow (`who_may_confirm`, R3-a): a player outside
    the group, the enterer, or one who did not play the game while another who played it may
    confirm. The sheet's scores by player id."""
    members = group_player_ids(game.group)
    require_member(confirmed_by, members, field="confirmed_by", group=game.group)
    if confirmed_by.pk == submission.entered_by_id:
        raise Refusal(
            {
                "confirmed_by": f"{confirmed_by} entered this sheet: another player of the "
                "group must confirm it (R3-a)."
            },
            code="own_entry",
        )
    sheet = dict(submission.lines.values_list("player_id", "machine_score"))
    absent = match_absences([game.group_id]).get(game.group_id, {})
    allowed = who_may_confirm(
        group=[player_key(p) for p in members],
        entered_by=player_key(submission.entered_by_id),
        sheet=sheet_facts(sheet),
        absent=[player_key(p) for p in absent_at(absent, game.number)],
    )
    if confirmed_by.pk in absent_at(absent, game.number):
        raise Refusal(
            {
                "confirmed_by": f"{confirmed_by} is absent for the rest of the match: another "
                "player of the group confirms the sheet (R3-a, R2.4-a)."
            },
            code="absent_for_the_match",
        )
    if player_key(confirmed_by.pk) not in allowed:
        raise Refusal(
            {
                "confirmed_by": f"{confirmed_by} did not play game {game.number} (no score on "
                "the sheet): a player who played it confirms it (R3-a)."
            },
            code="not_played",
        )
    return sheet


# --- shared with corrections -----------------------------------------------------------------


def store_sheet(
    submission: m.ScoreSubmission,
    sheet: Mapping[int, int | None],
    ties: Sequence[Sequence[int]],
    *,
    actor: User | None,
) -> None:
    """Insert a submission's score lines and tie orders."""
    m.ScoreLine.objects.bulk_create(
        m.ScoreLine(submission=submission, player_id=p, machine_score=s) for p, s in sheet.items()
    )
    for order in ties:
        tie = m.TieOrder.objects.create(
            game_id=submission.game_id, submission=submission, recorded_by=actor
        )
        m.TieOrderPlace.objects.bulk_create(
            m.TieOrderPlace(tie_order=tie, player_id=p, position=i)
            for i, p in enumerate(order, start=1)
        )


def points_once_confirmed(
    game: m.Game, sheet: Mapping[int, int | None], ties: Sequence[Sequence[int]]
) -> dict[int, int]:
    """The game points `sheet` will give once confirmed (R3-a): the fold's, with a
    compensatory game, a zero score or a penalty already recorded counted (R7.3-m, §8), so
    the reply to the sheet's sender and the confirmer's table say what will be stored."""
    lines = lines_once_confirmed(
        game_id=game.pk,
        machine=game.machine.title,
        players=group_player_ids(game.group),
        sheet=sheet,
        ties=ties,
        folded=season_fold(game.group.meet.season),
        meet=game.group.meet.number,
    )
    return {p: line.points for p, line in lines.items()} or _points(game, sheet, ties)


def game_points_of(
    game: m.Game, sheet: Mapping[int, int | None], ties: Sequence[Sequence[int]]
) -> dict[int, int]:
    """The game points a sheet gives (R3.2), via `score_game`; a RuleError is refused."""
    return _points(game, sheet, ties)


def _points(
    game: m.Game, sheet: Mapping[int, int | None], ties: Sequence[Sequence[int]]
) -> dict[int, int]:
    field = "tie_order" if ties else "scores"
    with rules_edge(field, code="scores_refused"):
        result = score_game(
            sheet_facts(sheet),
            tie_order=tie_order_facts(ties),
            ruleset=season_ruleset(game.group.meet.season),
        )
    return {int(p): points for p, points in result.points.items()}


def _scored(sheet: Mapping[int, int | None]) -> list[int]:
    """The players the sheet gives a machine score (not a forfeit)."""
    return [p for p, score in sheet.items() if score is not None]


def _versions(game: m.Game) -> list[m.ScoreSubmission]:
    """Every version of the game's sheet, oldest first, with who entered and who confirmed
    each (one query: a game has a few)."""
    return list(
        m.ScoreSubmission.objects.filter(game=game)
        .select_related("entered_by", "confirmed_by")
        .order_by("version")  # the model's ordering by game would join its group and meet
    )


def _version(versions: Sequence[m.ScoreSubmission], pk: int) -> m.ScoreSubmission:
    """The version with id `pk` among a game's `versions`, read again under the game's lock."""
    found = next((v for v in versions if v.pk == pk), None)
    if found is None:
        raise m.ScoreSubmission.DoesNotExist(f"score submission {pk} is not a sheet of its game")
    return found


def _check_not_confirmed(
    game: m.Game, versions: Sequence[m.ScoreSubmission], *, refused: str = ""
) -> None:
    """ConflictError naming who confirmed `game` (whose sheets are `versions`, oldest first),
    if anyone did; `refused` says what was not done."""
    winner = next(
        (v for v in versions if v.confirmed_by_id is not None and not v.is_correction), None
    )
    if winner is not None:
        then = f"; {refused}: " if refused else "; "
        raise ConflictError(
            f"Game {game.number} of group {game.group.number} was already confirmed by "
            f"{winner.confirmed_by} (version {winner.version}){then}a change now needs a "
            "correction (R3-b).",
            code="game_already_confirmed",
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


def _check_sheet(game: m.Game, sheet: Mapping[int, int | None], members: Sequence[int]) -> None:
    strangers = [p for p in sheet if p not in members]
    missing = [p for p in members if p not in sheet]
    wrong = [
        (player, score)
        for player, score in sheet.items()
        if score is not None
        and (isinstance(score, bool) or not isinstance(score, int) or score < 0)
    ]
    if strangers or missing or wrong:
        _refuse_sheet(game, strangers, missing, wrong)
    _check_forfeits(game, sheet)


def _refuse_sheet(
    game: m.Game,
    strangers: Sequence[int],
    missing: Sequence[int],
    wrong: Sequence[tuple[int, object]],
) -> NoReturn:
    """ValidationError naming the first thing wrong with a sheet: players not in the group,
    members left out, or a score that is not a whole number of 0 or more. The players' names
    are read only here: a good sheet needs none."""
    asked = [*strangers, *missing, *(p for p, _ in wrong)]
    names = {p.pk: str(p) for p in m.Player.objects.filter(pk__in=asked)}
    if strangers:
        who = ", ".join(names.get(p, f"player #{p}") for p in strangers)
        raise Refusal(
            {"scores": f"{who} is not in group {game.group.number}."},
            code="not_in_group",
            players=strangers,
        )
    if missing:
        raise Refusal(
            {
                "scores": f"Every player of the group needs a score, or none if they did not "
                f"play (a forfeit): missing {', '.join(names[p] for p in missing)}."
            },
            code="scores_missing",
        )
    player, score = wrong[0]
    raise Refusal(
        {"scores": f"{names[player]}'s score must be a whole number of 0 or more, got {score!r}."},
        code="invalid_score",
        players=[player],
        part="machine_score",
    )


def _check_forfeits(game: m.Game, sheet: Mapping[int, int | None]) -> None:
    """Refuse a score for a player absent for the rest of the match (from this game or an
    earlier one) or with a recorded forfeit of this game (R2.4-a)."""
    absent = absent_at(match_absences([game.group_id]).get(game.group_id, {}), game.number)
    gone = [p for p in absent if sheet.get(p) is not None]
    if gone:
        names = m.Player.objects.in_bulk(gone)
        rows = m.MatchAbsence.objects.filter(group_id=game.group_id, player_id__in=gone)
        since = dict(rows.values_list("player_id", "from_game"))
        first = sorted(gone, key=lambda p: str(names[p]))[0]
        raise Refusal(
            {
                "scores": f"{names[first]} is absent for the rest of the match (recorded from "
                f"game {since[first]}): game {game.number} is their forfeit, so their score "
                "stays empty (R2.4-a)."
            },
            code="absent_for_the_match",
            players=[first],
            part="machine_score",
        )
    forfeited = m.Forfeit.objects.filter(game=game).select_related("player")
    scored = [f.player for f in forfeited if sheet.get(f.player_id) is not None]
    if scored:
        who = ", ".join(str(p) for p in scored)
        raise Refusal(
            {"scores": f"{who} forfeited this game (recorded): leave the score empty (R2.4-a)."},
            code="forfeited_player",
            players=[p.pk for p in scored],
            part="machine_score",
        )


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
