"""The score sheet at the machine: one group's match as its players see it on a phone.

Words (see `flipwell.league.selectors.meet_board` for board, picker, play order):
- *current game*: the group's latest game; *pending sheet* its entered, not yet confirmed
  score sheet (the latest version), waiting for another player's confirmation (R3-a).
- *points*: the game points of the season fold (R3.2, so forfeits, compensatory games and
  penalties count); for the pending sheet, those the fold will give once it is confirmed
  (`flipwell.rules.pending_game_lines`): what the confirmer checks is what will be stored.
- *selectable machines*: the machines the picker may choose for the next game (§5, from
  `flipwell.league.selectors.allowed_machines`, which also says why each other one is not).
- *open correction*: a correction request of one of the group's games waiting for the
  players' answers (R3-c), with who is asked (the quorum, A45.1) and who has answered.

`scoresheet` runs a fixed number of queries whatever the group's history.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from flipwell.league import models as m
from flipwell.league.adapters.game_facts import absent_at, match_absences, pending_game_facts
from flipwell.league.adapters.keys import player_key
from flipwell.league.derived.results import SeasonFold
from flipwell.league.selectors.allowed_machines import AllowedMachines, meet_allowed_machines
from flipwell.league.selectors.meet_board.board import board_fold, meet_board
from flipwell.league.selectors.meet_board.values import (
    GAMES_PER_MATCH,
    Adjustment,
    BoardGroup,
    CompensatoryParts,
    NightLine,
    RankingLine,
)
from flipwell.league.selectors.photos import PhotoRef, game_photos
from flipwell.rules import (
    GameLine,
    RuleError,
    Ruleset,
    pending_game_lines,
    who_may_confirm,
    who_may_enter,
)
from flipwell.rules.corrections import correction_quorum
from flipwell.rules.season_prefix import SeasonPrefix


@dataclass(frozen=True)
class SheetLine:
    """One player's line on a game's sheet: machine score (None: no score) and points.

    For a confirmed game the machine score is the ranking score (see
    `flipwell.league.selectors.meet_board`): `entered` is the score typed on the sheet and
    `compensatory`/`adjustments` its parts when they differ (R7.3-m).
    """

    player_id: int
    name: str
    machine_score: int | None
    points: int | None
    forfeited: bool
    entered: int | None = None
    absent: bool = False
    """He is recorded absent for the rest of the match (R2.4-a): this game is his forfeit."""
    compensatory: CompensatoryParts | None = None
    adjustments: tuple[str, ...] = ()
    changes: tuple[Adjustment, ...] = ()
    """Each adjustment from the entered score to the one that counts (the game line's)."""

    @property
    def adjusted(self) -> bool:
        """The ranking score is not the score entered."""
        return self.machine_score != self.entered or bool(self.adjustments)


@dataclass(frozen=True)
class SheetGame:
    """A game of the group: machine, chooser, and its counted or pending sheet."""

    id: int
    number: int
    machine: str
    chosen_by: str
    confirmed: bool
    lines: tuple[SheetLine, ...]
    photos: tuple[PhotoRef, ...] = ()
    """The photos of the machine's display kept for this game, oldest first."""


@dataclass(frozen=True)
class PendingSheet:
    """The current game's entered sheet, waiting for another player's confirmation."""

    submission_id: int
    version: int
    entered_by_id: int
    entered_by: str
    lines: tuple[SheetLine, ...]
    tie_order: tuple[tuple[str, ...], ...]
    confirmers: tuple[tuple[int, str], ...] = ()
    """Who may confirm it (`flipwell.rules.who_may_confirm`, R3-a), group order."""


@dataclass(frozen=True)
class OpenCorrection:
    """A correction request waiting for the players' answers (R3-c)."""

    id: int
    game_number: int
    requested_by: str
    reason: str
    changes: tuple[tuple[str, int | None, int | None], ...]
    """(player, recorded score, claimed score) for each changed line."""
    waiting_for: tuple[tuple[int, str], ...]
    answered: tuple[tuple[str, bool], ...]


@dataclass(frozen=True)
class ScoreSheet:
    """Everything one group's score sheet page shows."""

    league: str
    season: str
    meet_number: int
    group_number: int
    players: tuple[tuple[int, str], ...]
    """Ladder order (position 1 first)."""
    play_order: tuple[tuple[int, str], ...]
    games: tuple[SheetGame, ...]
    current: SheetGame | None
    """The game being played (no confirmed sheet yet), if any."""
    forfeits: frozenset[int]
    """Players with a recorded forfeit of the current game, or absent for the rest of the
    match from it or an earlier game (R2.4-a): their score stays empty."""
    pending: PendingSheet | None
    next_picker: tuple[int, str] | None
    selectable: tuple[tuple[int, str], ...]
    waiting_for: tuple[str, ...]
    corrections: tuple[OpenCorrection, ...]
    match_over: bool
    correctable: tuple[SheetGame, ...]
    """Confirmed games with no open correction: a correction may be requested on them."""
    nights: tuple[NightLine, ...] = ()
    """Each player's points of the night so far; the match bonus once finished (R3.3-a)."""
    enterers: tuple[tuple[int, str], ...] = ()
    """Who may enter the current game's sheet: the players without a recorded forfeit of
    it (`flipwell.rules.who_may_enter`, R3-a), group order; empty when nobody plays it."""
    absent_games: tuple[int, ...] = ()
    """Numbers of the games every player of the group forfeits (a whole group recorded
    absent, R2.4-a): nobody played them."""
    gone: tuple[tuple[int, str, int], ...] = ()
    """The players recorded absent for the rest of the match (R2.4-a): id, name and the first
    game they are absent for, group order. Every game from it on is their forfeit."""
    choices: AllowedMachines | None = None
    """The next machine: who may pick it now, the machines allowed (`selectable`, by title)
    and why each other one is not (`allowed_machines`, as the API and the console show it)."""

    @property
    def absent(self) -> bool:
        """The whole group is recorded absent for the whole match: nobody played a game."""
        return len(self.absent_games) >= GAMES_PER_MATCH


def scoresheet(group: m.Group) -> ScoreSheet:
    """The score sheet of `group` at its meet (a fixed number of queries; no writes)."""
    meet = group.meet
    season = meet.season
    league = season.league
    board = meet_board(meet)
    found = next(g for g in board.groups if g.id == group.pk)
    names = dict(found.names)
    folded = board_fold(meet)  # the same fold as its board's
    ruleset = folded.ruleset
    game_ids = [g.id for g in found.games]
    absent = match_absences([group.pk]).get(group.pk, {})
    forfeits = _forfeits(found, absent)
    games = _sheet_games(found, names, forfeits, absent)
    current = games[-1] if games and not games[-1].confirmed else None
    pending = (
        _pending(current, found, folded, meet.number, absent_at(absent, current.number))
        if current is not None
        else None
    )
    corrections = _open_corrections(game_ids, found, names, ruleset)
    corrected = {c.game_number for c in corrections}
    nobody = {g.number for g in games if all(line.forfeited for line in g.lines)}
    enterers = (
        who_may_enter(
            group=[player_key(p) for p in found.players],
            forfeited={player_key(p) for p in forfeits[current.id]},
        )
        if current is not None
        else ()
    )
    picker = found.next_picker
    choices = meet_allowed_machines(meet, board)[group.pk]
    return ScoreSheet(
        league=league.name,
        season=season.name,
        meet_number=meet.number,
        group_number=found.number,
        players=tuple((p, names[p]) for p in found.players),
        play_order=tuple((p, names[p]) for p in found.play_order),
        games=tuple(games),
        current=current,
        forfeits=frozenset(forfeits[current.id]) if current is not None else frozenset(),
        pending=pending,
        next_picker=(picker, names[picker]) if picker is not None else None,
        selectable=tuple((o.id, o.title) for o in choices.allowed) if picker is not None else (),
        choices=choices,
        waiting_for=tuple(names[p] for p in found.waiting_for),
        corrections=corrections,
        match_over=len(games) >= GAMES_PER_MATCH and current is None,
        # A game nobody played has no score to correct.
        correctable=tuple(g for g in games if g.confirmed and g.number not in corrected | nobody),
        nights=found.nights,
        enterers=tuple((int(p), names[int(p)]) for p in enterers),
        absent_games=tuple(sorted(nobody)),
        gone=tuple((p, names[p], absent[p]) for p in found.players if p in absent),
    )


def _forfeits(found: BoardGroup, absent: Mapping[int, int]) -> dict[int, set[int]]:
    """Game id -> the players who forfeit it: its recorded forfeits, and every game from the
    first a player is absent for the rest of the match (R2.4-a)."""
    forfeits: dict[int, set[int]] = defaultdict(set)
    for game_id, player_id in m.Forfeit.objects.filter(
        game_id__in=[g.id for g in found.games]
    ).values_list("game_id", "player_id"):
        forfeits[game_id].add(player_id)
    for game in found.games:
        forfeits[game.id] |= absent_at(absent, game.number)
    return forfeits


def _sheet_games(
    found: BoardGroup,
    names: Mapping[int, str],
    forfeits: Mapping[int, set[int]],
    absent: Mapping[int, int],
) -> list[SheetGame]:
    """The group's games as its sheet shows them: each player's line, and the photos."""
    photos = game_photos([g.id for g in found.games])
    games = []
    for game in found.games:
        cells = {cell.player: cell for cell in game.cells}
        gone = absent_at(absent, game.number)
        lines = tuple(
            _line(p, names[p], cells.get(p), p in forfeits[game.id], p in gone)
            for p in found.players
        )
        games.append(
            SheetGame(
                id=game.id,
                number=game.number,
                machine=game.machine,
                chosen_by=names.get(game.chosen_by, "") if game.chosen_by else "drawn",
                confirmed=game.confirmed,
                lines=lines,
                photos=photos.get(game.id, ()),
            )
        )
    return games


def _line(
    player: int, name: str, cell: RankingLine | None, forfeited: bool, absent: bool = False
) -> SheetLine:
    """A player's line of a game: his game line once the fold has it (the score that counts,
    its parts, the points); empty before. `absent`: he is absent for the rest of the match."""
    return SheetLine(
        player_id=player,
        name=name,
        machine_score=None if cell is None else cell.score,
        points=None if cell is None else cell.points,
        forfeited=forfeited,
        entered=None if cell is None else cell.entered,
        absent=absent,
        compensatory=None if cell is None else cell.compensatory,
        adjustments=() if cell is None else cell.adjustments,
        changes=() if cell is None else cell.changes,
    )


def _pending(
    current: SheetGame, group: BoardGroup, folded: SeasonFold, meet: int, absent: set[int]
) -> PendingSheet | None:
    """The current game's sheet waiting for confirmation, each line as the fold will have it
    once confirmed (`pending_game_lines`): the score that will count, its parts, the points;
    who may confirm it leaves out the players absent for the rest of the match (`absent`)."""
    submission = (
        m.ScoreSubmission.objects.filter(game_id=current.id, is_correction=False)
        .order_by("-version")
        .first()
    )
    if submission is None or submission.confirmed_by_id is not None:
        return None
    sheet = dict(submission.lines.values_list("player_id", "machine_score"))
    orders: dict[int, list[int]] = defaultdict(list)
    for order_id, player_id in (
        m.TieOrderPlace.objects.filter(tie_order__submission=submission)
        .order_by("tie_order_id", "position")
        .values_list("tie_order_id", "player_id")
    ):
        orders[order_id].append(player_id)
    lines = lines_once_confirmed(
        game_id=current.id,
        machine=current.machine,
        players=group.players,
        sheet=sheet,
        ties=list(orders.values()),
        folded=folded,
        meet=meet,
    )
    compensatory = _compensatory_parts(lines)
    names = group.names
    confirmers = who_may_confirm(
        group=[player_key(p) for p in group.players],
        entered_by=player_key(submission.entered_by_id),
        sheet={player_key(p): s for p, s in sheet.items()},
        absent=[player_key(p) for p in sorted(absent)],
    )
    return PendingSheet(
        submission_id=submission.pk,
        version=submission.version,
        entered_by_id=submission.entered_by_id,
        entered_by=names.get(submission.entered_by_id, ""),
        lines=tuple(
            _pending_line(p, names[p], lines.get(p), sheet.get(p), compensatory.get(p))
            for p in group.players
        ),
        tie_order=tuple(tuple(names[p] for p in order) for order in orders.values()),
        confirmers=tuple((int(p), names[int(p)]) for p in confirmers),
    )


def _pending_line(
    player: int,
    name: str,
    line: GameLine | None,
    entered: int | None,
    compensatory: CompensatoryParts | None,
) -> SheetLine:
    """A player's line of a sheet waiting for confirmation, as the fold will have it once
    confirmed (`line`; None: no line yet, the score as entered)."""
    found = line.adjustments if line is not None else ()
    adjustments = [a for a in found if a.kind != "forfeited"]
    return SheetLine(
        player_id=player,
        name=name,
        machine_score=line.score if line is not None else entered,
        points=line.points if line is not None else None,
        forfeited=False,
        entered=entered,
        compensatory=compensatory,
        adjustments=tuple(f"{a.render(name)} ({a.rule})" for a in adjustments),
        changes=tuple(Adjustment(a.kind, a.amount, a.render(name), a.rule) for a in adjustments),
    )


def lines_once_confirmed(
    *,
    game_id: int,
    machine: str,
    players: Sequence[int],
    sheet: Mapping[int, int | None],
    ties: Sequence[Sequence[int]],
    folded: SeasonFold,
    meet: int,
    prefix: SeasonPrefix | None = None,
) -> dict[int, GameLine]:
    """Player id -> his line of game `game_id` (on `machine`, played by `players` in ladder
    order at meet number `meet`) once `sheet` is confirmed (R3-a): the season `folded` with it
    as a fact (`pending_game_lines`), so a compensatory game, a zero score or a penalty
    recorded before confirmation counts; empty for a sheet the rules refuse. `prefix`: the
    season's stored prefix at `folded`'s revision, to fold tonight's meet on (None: whole)."""
    try:
        facts = pending_game_facts(game_id, machine, sheet, ties)
        found = pending_game_lines(
            folded.facts,
            meet=meet,
            players=[player_key(p) for p in players],
            game=facts,
            ruleset=folded.ruleset,
            prefix=prefix,
        )
    except RuleError:
        return {}
    return {int(line.player): line for line in found}


def _compensatory_parts(lines: Mapping[int, GameLine]) -> dict[int, CompensatoryParts]:
    """Player id -> his compensatory game's parts, from his line's adjustments (R7.3-m..o)."""
    found = {}
    for p, line in lines.items():
        new = sum(a.amount or 0 for a in line.adjustments if a.kind == "compensatory")
        taken = -sum(a.amount or 0 for a in line.adjustments if a.kind == "subtracted")
        if any(a.kind == "compensatory" for a in line.adjustments):
            found[p] = CompensatoryParts(new_score=new, subtracted=taken)
    return found


def _open_corrections(
    game_ids: list[int], group: BoardGroup, names: Mapping[int, str], ruleset: Ruleset
) -> tuple[OpenCorrection, ...]:
    requests = list(
        m.CorrectionRequest.objects.filter(
            game_id__in=game_ids, status=m.CorrectionRequest.Status.PENDING
        )
        .select_related("game")
        .order_by("game__number")
    )
    if not requests:
        return ()
    submissions = [r.base_id for r in requests] + [r.proposed_id for r in requests]
    sheets: dict[int, dict[int, int | None]] = defaultdict(dict)
    for submission_id, player_id, score in m.ScoreLine.objects.filter(
        submission_id__in=submissions
    ).values_list("submission_id", "player_id", "machine_score"):
        sheets[submission_id][player_id] = score
    answers: dict[int, dict[int, bool]] = defaultdict(dict)
    for request_id, player_id, agrees in m.CorrectionResponse.objects.filter(
        request__in=requests
    ).values_list("request_id", "player_id", "agrees"):
        answers[request_id][player_id] = agrees
    found = []
    for request in requests:
        base = sheets[request.base_id]
        proposed = sheets[request.proposed_id]
        try:
            quorum = correction_quorum(
                group=[player_key(p) for p in group.players],
                played=[player_key(p) for p in group.players if base.get(p) is not None],
                ruleset=ruleset,
            )
        except RuleError:
            quorum = ()
        given = answers[request.pk]
        found.append(
            OpenCorrection(
                id=request.pk,
                game_number=request.game.number,
                requested_by=names.get(request.requested_by_id, ""),
                reason=request.reason,
                changes=tuple(
                    (names[p], base.get(p), proposed.get(p))
                    for p in group.players
                    if base.get(p) != proposed.get(p)
                ),
                waiting_for=tuple((int(k), names[int(k)]) for k in quorum if int(k) not in given),
                answered=tuple((names[p], agrees) for p, agrees in given.items()),
            )
        )
    return tuple(found)


def latest_version(game: m.Game) -> int:
    """The highest version of the game's score sheets (it has at least one)."""
    # No ordering: a submission's own orders by its game's, which joins up to the league.
    return max(game.submissions.order_by().values_list("version", flat=True))
