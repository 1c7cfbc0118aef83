"""Malfunctions (§7.3, §7.4): the report and the rules' ruling on it, compensatory games, and
positive malfunctions' discarded scores and their replay.

Words (see `flipwell.league.models.incidents`): a *report* is what the LO is told about a
malfunction; the rules classify it (`rule_malfunction`); every malfunction adds a line to the
machine's *maintenance sheet* (R7.3-u).
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from flipwell.league import models as m
from flipwell.league.adapters import counted_tie_orders, player_key, ruleset_for
from flipwell.league.audit import record_event
from flipwell.league.enums import (
    MALFUNCTION_KINDS,
    MALFUNCTION_REASONS,
    SERIOUS_MALFUNCTION_KINDS,
    MalfunctionKindValue,
    MalfunctionReasonValue,
    one_of,
)
from flipwell.league.notices import queue_ruling
from flipwell.league.selectors.meet_board import game_play_order, machine_key
from flipwell.league.services._edge import (
    PlayerRef,
    game_subject,
    group_player_ids,
    locked_game,
    open_meet,
    record_ruling,
    ref_id,
    require_member,
    require_official,
    require_reason,
    require_scorekeeping,
    rules_edge,
    season_changed,
)
from flipwell.league.services.corrections import carried_tie_orders
from flipwell.league.services.meet_machines import declare_machine_state
from flipwell.league.services.scores import (
    SubmittedScores,
    game_points_of,
    latest_version,
    store_sheet,
)
from flipwell.rules.malfunctions import (
    AnnouncedProblem,
    Malfunction,
    MalfunctionReport,
    MalfunctionRuling,
    automatically_unplayable,
    catastrophic_event,
    compensatory_balls,
    compensatory_entitled,
    ends_the_game,
    last_ball,
    next_turns,
    rule_malfunction,
)
from flipwell.rules.malfunctions import request_compensatory_game as grant_compensatory_game

if TYPE_CHECKING:
    from django.contrib.auth.models import User


REFUSED_SERIOUS = ("R7.1-d", "R7.3-g")
"""Rules under which a malfunction the reason code makes serious is refused as one."""


# --- Malfunctions and compensatory games (§7.3) ----------------------------------------------


@dataclass(frozen=True)
class Owed:
    """What a game-ending event gives one player of the game (R7.3-h, R7.3-i, A32).

    next_ball: the ball he was on (the current player) or would have played next. majors,
    catastrophic: the balls recorded as each kind. balls: the balls of the compensatory game
    he is owed (R7.3-l); 0 when he is owed none (R7.3-k).
    """

    player_id: int
    name: str
    next_ball: int
    majors: tuple[int, ...]
    catastrophic: tuple[int, ...]
    balls: int
    extra_balls: int = 0
    """Extra balls they had collected in the game (the allowable ones are owed, R7.3-l)."""
    slammer: bool = False
    """They slam tilted the machine on purpose: owed nothing (R8.4-a, A32)."""

    @property
    def words(self) -> str:
        """What he is owed in plain words: "major on ball 2, catastrophic on ball 3 → a
        compensatory game of 2 balls"."""
        if self.slammer:
            return (
                "nothing: they slam tilted the machine on purpose, which is interference: no "
                "compensatory game, and the penalty of a serious violation instead"
            )
        parts = [
            f"{kind} on {_balls_words(balls)}"
            for kind, balls in (("major", self.majors), ("catastrophic", self.catastrophic))
            if balls
        ]
        if not parts:
            return "nothing: every ball of theirs was played"
        owed = (
            f"a compensatory game of {'1 ball' if self.balls == 1 else f'{self.balls} balls'}"
            if self.balls
            else "no compensatory game (it needs 2 majors or 1 catastrophic)"
        )
        return f"{', '.join(parts)} → {owed}"


def _balls_words(balls: Sequence[int]) -> str:
    """ "ball 2", "balls 2 and 3", "balls 1, 2 and 3"."""
    if len(balls) == 1:
        return f"ball {balls[0]}"
    return f"balls {', '.join(map(str, balls[:-1]))} and {balls[-1]}"


def _balls_of(owed: Owed) -> list[tuple[int, str]]:
    """His malfunctions as (ball, kind), ball order."""
    return sorted(
        [(b, "major") for b in owed.majors] + [(b, "catastrophic") for b in owed.catastrophic]
    )


def _owed_words(ending: GameEnding) -> str:
    return "; ".join(f"{o.name}: {o.words}" for o in ending.owed)


@dataclass(frozen=True)
class GameEnding:
    """The malfunctions a game-ending event gives every player of the game, before or after
    they are recorded (`preview_game_ending`, `report_malfunction`)."""

    game_id: int
    balls_per_game: int
    owed: tuple[Owed, ...]
    """Every player who plays the game, in its play order."""


@dataclass(frozen=True)
class ReportedMalfunction:
    """A recorded malfunction, the rules' ruling on it, and what follows.

    entitled: the player may now have a compensatory game (R7.3-k). compensatory: the request
    recorded with it (RA-b), if asked. machine_unplayable: the machine became automatically
    unplayable for the rest of the meet (R7.3-r). ending: for a reason that ends the game
    (`GAME_ENDING_REASONS`), what every player of the game is owed; `malfunction` is then the
    reporting player's row for `ball`, and `rows` every row recorded.
    """

    malfunction: m.Malfunction
    ruling: MalfunctionRuling
    entitled: bool
    compensatory: m.CompensatoryRequest | None
    machine_unplayable: bool
    ending: GameEnding | None = None
    rows: tuple[m.Malfunction, ...] = ()


@dataclass(frozen=True)
class EndingReport:
    """What the official says of a game-ending event beyond its ball (R7.3-l, R8.4-a):
    each other player's next ball when the play order does not give it, the extra balls each
    player had collected in the game, and who slam tilted the machine on purpose."""

    next_balls: Mapping[int, int] | Mapping[m.Player, int] | None = None
    extra_balls: Mapping[int, int] | Mapping[m.Player, int] | None = None
    slammer: m.Player | None = None


def preview_game_ending(
    *,
    game: m.Game,
    player: m.Player,
    ball: int,
    ball_in_play: bool = True,
    next_balls: Mapping[int, int] | Mapping[m.Player, int] | None = None,
    extra_balls: Mapping[int, int] | Mapping[m.Player, int] | None = None,
    slammer: m.Player | None = None,
) -> GameEnding:
    """What a game-ending event (total failure or reset, power loss, fire, slam tilt) on
    `player`'s `ball` of `game` gives every player of the game, as `report_malfunction` would
    record it (R7.3-h, R7.3-i, R7.3-l, R8.4-a, R8.4-c, A32). Writes nothing.

    Each player's next ball follows from the game's play order (`next_turns`): players before
    `player` are on `ball` + 1, he and those after him on `ball`; `next_balls` overrides it per
    player (e.g. after extra balls). `extra_balls`: the extra balls each player had collected
    in the game; the allowable ones are balls owed (R7.3-l), and `ball` may be one of them.
    `slammer`: the player who slam tilted the machine on purpose is owed nothing (R8.4-a,
    A32). Players who forfeited the game play no ball. Raises ValidationError for a player
    outside the group or a ball the rules refuse.
    """
    members = group_player_ids(game.group)
    require_member(player, members, field="player", group=game.group)
    told = EndingReport(next_balls=next_balls, extra_balls=extra_balls, slammer=slammer)
    return _game_ending(game, player, ball, ball_in_play, told)


def _game_ending(
    game: m.Game, player: m.Player, ball: int, ball_in_play: bool, told: EndingReport
) -> GameEnding:
    forfeited = set(m.Forfeit.objects.filter(game=game).values_list("player_id", flat=True))
    if player.pk in forfeited:
        raise ValidationError(
            {"player": f"{player} forfeited this game: no ball of it is theirs to play."}
        )
    if told.slammer is not None:
        require_member(
            told.slammer, group_player_ids(game.group), field="slammer", group=game.group
        )
    order = [p for p in game_play_order(game) if p not in forfeited]
    given = _players_of(told.next_balls, order, field="next_balls")
    extra = _players_of(told.extra_balls, order, field="extra_balls")
    balls_per_game = game.machine.balls_per_game
    collected = {player_key(p): n for p, n in extra.items()}
    with rules_edge("extra_balls"):
        last = last_ball(balls_per_game, extra_balls_collected=extra.get(player.pk, 0))
    if ball > last:
        raise ValidationError(
            {
                "ball": f"{game.machine.title} is a {balls_per_game}-ball game: ball {ball} is "
                f"after the last one. If {player} was on an extra ball, give the extra balls "
                "they had collected."
            }
        )
    names = {p.pk: str(p) for p in m.Player.objects.filter(pk__in=order)}
    with rules_edge("ball"):
        turns = next_turns(
            [player_key(p) for p in order],
            current_player=player_key(player.pk),
            turn=ball,
            balls_per_game=balls_per_game,
            extra_balls_collected=collected,
        )
    turns |= {player_key(p): n for p, n in given.items() if p != player.pk}
    slammer = player_key(told.slammer.pk) if told.slammer is not None else None
    with rules_edge("next_balls"):
        found = catastrophic_event(
            current_player=player_key(player.pk),
            ball_in_play=ball_in_play,
            next_turn=turns,
            balls_per_game=balls_per_game,
            extra_balls_collected=collected,
            slammer=slammer,
            ruleset=ruleset_for(game.group.meet.season.league),
        )
    owed = [_owed(p, names[p], turns, found, extra, slammer) for p in order]
    return GameEnding(game_id=game.pk, balls_per_game=balls_per_game, owed=tuple(owed))


def _players_of(
    given: Mapping[int, int] | Mapping[m.Player, int] | None, order: Sequence[int], *, field: str
) -> dict[int, int]:
    """`given` by player id; a player who does not play the game is refused under `field`."""
    by_id = {ref_id(p): n for p, n in (given or {}).items()}
    strangers = [p for p in by_id if p not in order]
    if strangers:
        names = ", ".join(str(p) for p in m.Player.objects.filter(pk__in=strangers))
        raise ValidationError({field: f"Not playing this game: {names}."}, code="invalid")
    return by_id


def _owed(
    p: int,
    name: str,
    turns: Mapping[str, int],
    found: Sequence[Malfunction],
    extra: Mapping[int, int],
    slammer: str | None,
) -> Owed:
    key = player_key(p)
    mine = [f for f in found if f.player == key]
    return Owed(
        player_id=p,
        name=name,
        next_ball=turns[key],
        majors=tuple(sorted(f.turn for f in mine if f.kind == "major")),
        catastrophic=tuple(sorted(f.turn for f in mine if f.kind == "catastrophic")),
        balls=compensatory_balls(found, player=key)
        if compensatory_entitled(found, player=key)
        else 0,
        extra_balls=extra.get(p, 0),
        slammer=key == slammer,
    )


def report_malfunction(
    *,
    game: m.Game,
    player: m.Player,
    ball: int,
    reason_code: MalfunctionReasonValue,
    kind: MalfunctionKindValue | None = None,
    note: str = "",
    problem: str = "",
    one_handed_ball: bool = False,
    ball_in_play: bool = True,
    request_compensatory: bool = False,
    next_balls: Mapping[int, int] | Mapping[m.Player, int] | None = None,
    extra_balls: Mapping[int, int] | Mapping[m.Player, int] | None = None,
    slammer: m.Player | None = None,
    actor: User,
) -> ReportedMalfunction:
    """A league official records a malfunction on `player`'s `ball` of `game` (§7.3, §7.4).

    `rule_malfunction` classifies it from `reason_code` (R7.3-e, R7.3-f, R7.3-h, R7.3-i,
    R7.4, R7.7-a, R7.8-a); reason "other" needs the official's `kind` and a `note` (R7.3-d,
    R7.3-j), recorded as a Ruling. A serious malfunction on a one-handed extra ball (R7.1-d)
    or matching a problem the LO announced before play (`problem`, R7.3-g) is refused. Every
    malfunction adds a line to the machine's maintenance sheet (R7.3-u). When every player's
    first ball ended in a major, the machine is declared unplayable for the meet (R7.3-r).
    With `request_compensatory` the player's request is recorded at the trigger (RA-b).

    A reason that ends the game (`GAME_ENDING_REASONS`: total failure or reset, power loss,
    fire, slam tilt) gives every player of the game his malfunctions at once, as
    `preview_game_ending` shows them (`catastrophic_event`; `next_balls` as there): the
    current ball in play a major (R7.3-i), every ball never launched catastrophic (R7.3-h,
    A32), one Malfunction per ball per player; each player owed a compensatory game may then
    request it (R7.3-k). `extra_balls` (the extra balls each player had collected: the
    allowable ones are owed, R7.3-l) and, for a slam tilt, `slammer` (who slam tilted it on
    purpose: owed nothing, R8.4-a, A32; their own ball, if it was theirs, is recorded not
    serious) as `preview_game_ending` takes them. The slammer's serious violation is recorded
    apart (`record_violation`, §8.5).

    Side effects: a Malfunction (for a game-ending reason, one per ball per player), a
    MaintenanceNote, maybe a Ruling, a MachineDeclaration and a
    CompensatoryRequest, audit events ``malfunction.reported`` (and the others'), a notice to
    the player queued when they chose it (`flipwell.league.notices.queue_ruling`). Raises
    PermissionDenied unless `actor` is a league official; ValidationError for a meet that is
    not open, a player outside the group, a refused classification, or a refused request.
    """
    with transaction.atomic():
        game = locked_game(game)
        meet = game.group.meet
        league = meet.season.league
        require_official(actor=actor, league=league, action="record a malfunction")
        open_meet(meet, doing="record a malfunction")
        members = group_player_ids(game.group)
        require_member(player, members, field="player", group=game.group)
        reason_code = one_of(reason_code, MALFUNCTION_REASONS, field="reason_code", what="reason")
        why = note.strip()
        if reason_code == "other":
            why = require_reason(note, field="note", what="The official's ruling on a malfunction")
        machine = game.machine
        key = machine_key(machine.pk, machine.title)
        announced = [
            AnnouncedProblem(key, text)
            for text in m.AnnouncedProblem.objects.filter(meet=meet, machine=machine).values_list(
                "problem", flat=True
            )
        ]
        report = MalfunctionReport(
            player=player_key(player.pk),
            machine=key,
            turn=ball,
            reason=reason_code,
            one_handed_ball=one_handed_ball,
            ball_in_play=ball_in_play,
            problem=problem,
        )
        ruleset = ruleset_for(league)
        with rules_edge("kind" if kind else "reason_code"):
            ruling = rule_malfunction(
                report,
                announced=announced,
                lo_kind=one_of(kind, MALFUNCTION_KINDS, field="kind") if kind else None,
                ruleset=ruleset,
            )
        if ruling.kind == "not_serious" and ruling.rule in REFUSED_SERIOUS:
            raise ValidationError(
                {
                    "reason_code": f"This cannot be recorded as a malfunction: {ruling.reason} "
                    f"({ruling.rule}). To note it on the maintenance sheet, record reason "
                    "'other' with kind 'not_serious'."
                },
                code="refused",
            )
        ending = None
        told = EndingReport(next_balls=next_balls, extra_balls=extra_balls, slammer=slammer)
        _check_told(reason_code, told)
        if ends_the_game(reason_code):
            ending = _game_ending(game, player, ball, ball_in_play, told)
        recorded: list[tuple[int, int, str]]
        if ending is None:
            recorded = [(player.pk, ball, ruling.kind)]
        else:
            recorded = [(o.player_id, b, k) for o in ending.owed for b, k in _balls_of(o)]
            if slammer is not None and slammer.pk == player.pk:
                # Their own ball is on the maintenance sheet, and never compensated (R8.4-a).
                recorded.insert(0, (player.pk, ball, m.Malfunction.Kind.NOT_SERIOUS))
        # One row per ball per player; both databases return the new rows' ids.
        rows = m.Malfunction.objects.bulk_create(
            m.Malfunction(
                game=game,
                player_id=who,
                ball=b,
                kind=k,
                reason_code=reason_code,
                problem=problem.strip(),
                note=why,
                official=actor,
            )
            for who, b, k in recorded
        )
        malfunction = next((r for r in rows if r.player_id == player.pk and r.ball == ball), None)
        if malfunction is None:  # a game-ending event after his last ball
            raise ValidationError(
                {"ball": f"{player} has no ball {ball} on a {machine.balls_per_game}-ball game."}
            )
        label = m.Malfunction.ReasonCode(reason_code).label
        m.MaintenanceNote.objects.create(
            machine=machine,
            meet=meet,
            text=f"{ruling.kind.replace('_', ' ')} malfunction: {label}, ball {ball}, "
            f"group {game.group.number} game {game.number} ({ruling.rule})"
            + (f"; the game ended: {_owed_words(ending)}" if ending is not None else "")
            + (f". {why}" if why else ""),
            created_by=actor,
        )
        if kind is not None:
            record_ruling(
                league=league,
                official=actor,
                kind=f"malfunction_{ruling.kind}",
                subject=game_subject(game, player),
                reason=why or ruling.reason,
                affected=group_player_ids(game.group),
            )
        record_event(
            action="malfunction.reported",
            obj=malfunction,
            league=league,
            actor=actor,
            data={
                "game": game.pk,
                "player": player.pk,
                "ball": ball,
                "kind": ruling.kind,
                "reason_code": reason_code,
                "rule": ruling.rule,
                **(
                    {
                        "game_ended": [[r.player_id, r.ball, r.kind] for r in rows],
                        "slammer": slammer.pk if slammer is not None else None,
                        "extra_balls": {str(o.player_id): o.extra_balls for o in ending.owed},
                    }
                    if ending is not None
                    else {}
                ),
            },
        )
        serious = _serious_malfunctions(game)
        entitled = compensatory_entitled(serious, player=player_key(player.pk))
        forfeited = set(m.Forfeit.objects.filter(game=game).values_list("player_id", flat=True))
        playing = [player_key(p) for p in members if p not in forfeited]
        unplayable = False
        # With every player's forfeit recorded nobody plays the machine, so R7.3-r's "every
        # player's first ball" cannot be met (and the rules refuse a game of no players).
        if (
            ruling.kind == "major"
            and playing
            and automatically_unplayable(serious, players=playing)
        ):
            unplayable = declare_machine_state(
                meet,
                machine,
                m.MachineDeclaration.Kind.UNPLAYABLE,
                actor,
                "automatic: every player's first ball ended in a major malfunction (R7.3-r)",
            )
        request = None
        if request_compensatory:
            request = _grant(game, player, serious, play_continued=False, actor=actor)
        season_changed(meet.season)
        queue_ruling(
            league=league,
            player=player,
            meet=meet,
            key=f"malfunction:{malfunction.pk}",
            what=f"a malfunction on your ball {ball} at meet {meet.number}",
            details=[
                f"{malfunction.get_kind_display()}: {label} (group {game.group.number}, "
                f"game {game.number}, {ruling.rule}).",
                "You may now ask for a compensatory game (R7.3-k)." if entitled else "",
            ],
            reason=why,
        )
        if ending is not None:
            _tell_the_others(ending, game, player, label, actor_why=why)
    return ReportedMalfunction(
        malfunction=malfunction,
        ruling=ruling,
        entitled=entitled,
        compensatory=request,
        machine_unplayable=unplayable,
        ending=ending,
        rows=tuple(rows),
    )


def _check_told(reason_code: str, told: EndingReport) -> None:
    """Extra balls and a slammer are said of a game-ending event only (R7.3-l, R8.4-a)."""
    if told.slammer is not None and reason_code != m.Malfunction.ReasonCode.SLAM_TILT:
        raise ValidationError(
            {"slammer": "Only a slam tilt is slam tilted on purpose: leave the slammer empty."}
        )
    if told.extra_balls and not ends_the_game(reason_code):
        raise ValidationError(
            {
                "extra_balls": "Extra balls collected are given for an event that ends the game "
                "(a total failure or reset, a power loss, a fire, a slam tilt) only."
            }
        )


def _tell_the_others(
    ending: GameEnding, game: m.Game, reporter: m.Player, label: str, *, actor_why: str
) -> None:
    """Queue each other player owed something by a game-ending event his notice."""
    meet = game.group.meet
    others = [o for o in ending.owed if o.player_id != reporter.pk and o.balls]
    players = m.Player.objects.in_bulk([o.player_id for o in others])
    for owed in others:
        queue_ruling(
            league=meet.season.league,
            player=players[owed.player_id],
            meet=meet,
            key=f"malfunction:{game.pk}:{owed.player_id}:{owed.next_ball}",
            what=f"{label} ended your game at meet {meet.number}",
            details=[
                f"Group {game.group.number}, game {game.number}: {owed.words}.",
                "You may now ask for a compensatory game (R7.3-k, R7.3-h).",
            ],
            reason=actor_why,
        )


def request_compensatory_game(
    *, game: m.Game, player: m.Player, play_continued: bool = False, actor: User
) -> m.CompensatoryRequest:
    """Grant `player` a compensatory game on `game` (R7.3-k, R7.3-l, RA-b, A31).

    He must have two majors or one catastrophic malfunction in the game, and ask at the
    trigger, before play continued (`play_continued` as the LO attests). The group waits for
    the game (R7.3-p) until its score is recorded.

    Side effects: a CompensatoryRequest (with its number of balls), an audit event
    ``compensatory.requested``. Raises PermissionDenied unless `actor` is a league official;
    ValidationError without entitlement, too late, for a repeat or a meet that is not open.
    """
    with transaction.atomic():
        game = locked_game(game)
        league = game.group.meet.season.league
        require_official(actor=actor, league=league, action="grant a compensatory game")
        open_meet(game.group.meet, doing="grant a compensatory game")
        require_member(player, group_player_ids(game.group), field="player", group=game.group)
        request = _grant(
            game, player, _serious_malfunctions(game), play_continued=play_continued, actor=actor
        )
        season_changed(game.group.meet.season)
    return request


def record_compensatory_game(
    *,
    game: m.Game,
    player: m.Player,
    new_score: int,
    leading_subtracted: int = 0,
    state_subtracted: int = 0,
    reason: str = "",
    actor: User,
) -> m.CompensatoryGame:
    """Record the displayed score of a granted compensatory game (R7.3-m, R7.3-n, R7.3-o).

    His final score is original + new − leading − state, computed by the rules when the
    standings are read. Subtractions are the LO's decisions (R7.3-n, R7.3-o) and need a
    `reason` (a Ruling). Refused without a granted request (R7.3-k, RA-b).

    Side effects: a CompensatoryGame, a Ruling for subtractions, an audit event
    ``compensatory.recorded``. Raises PermissionDenied unless `actor` is a league official;
    ValidationError without a granted request, for a repeat, a negative amount, or a meet
    that is not open.
    """
    with transaction.atomic():
        game = locked_game(game)
        league = game.group.meet.season.league
        require_official(actor=actor, league=league, action="record a compensatory game")
        open_meet(game.group.meet, doing="record a compensatory game")
        if not m.CompensatoryRequest.objects.filter(game=game, player=player).exists():
            raise ValidationError(
                {
                    "player": f"{player} was not granted a compensatory game in this game: it "
                    "needs 2 major or 1 catastrophic malfunction, requested at the trigger "
                    "(R7.3-k, RA-b)."
                },
                code="not_entitled",
            )
        if m.CompensatoryGame.objects.filter(game=game, player=player).exists():
            raise ValidationError({"player": f"{player}'s compensatory game is recorded."})
        amounts = {
            "new_score": new_score,
            "leading_subtracted": leading_subtracted,
            "state_subtracted": state_subtracted,
        }
        for field, amount in amounts.items():
            if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
                raise ValidationError(
                    {field: f"Must be a whole number of 0 or more, not {amount!r}."}
                )
        why = reason.strip()
        if leading_subtracted or state_subtracted:
            why = require_reason(reason, field="reason", what="Subtracting points (R7.3-n, R7.3-o)")
            record_ruling(
                league=league,
                official=actor,
                kind="compensatory_subtraction",
                subject=game_subject(game, player),
                reason=why,
                affected=group_player_ids(game.group),
            )
        compensatory = m.CompensatoryGame.objects.create(
            game=game, player=player, official=actor, **amounts
        )
        record_event(
            action="compensatory.recorded",
            obj=compensatory,
            league=league,
            actor=actor,
            data={"game": game.pk, "player": player.pk, **amounts, "reason": why},
        )
        season_changed(game.group.meet.season)  # e.g. refused: no score to add to
    return compensatory


# --- Positive malfunctions: discarded scores and their replay (§7.4) ------------------------


def record_positive_malfunction_replay(
    *,
    game: m.Game,
    discard_scores_of: Sequence[m.Player],
    reason: str,
    actor: User,
) -> list[m.DiscardedScore]:
    """The LO discards players' completed scores on a game after a positive malfunction gave an
    unfair advantage; they replay (R7.4-a, R7.4-c, A58).

    The counted sheet is kept as it was entered; each discarded score is a fact on that sheet
    version, and the game is incomplete (no points for anyone in it) until the replay is
    recorded with `record_replay_scores`. A game still being played needs no discard: enter
    the new game's sheet as usual (on another machine via `replace_machine`, R7.4-a).

    Side effects: a DiscardedScore per player, a Ruling, an audit event ``scores.discarded``.
    Raises PermissionDenied unless `actor` is a league official; ValidationError without a
    reason or players, for a meet that is not open, a game without confirmed scores, a player
    with no completed score on it, a score already discarded, or a correction pending.
    """
    with transaction.atomic():
        game = locked_game(game)
        group = game.group
        league = group.meet.season.league
        require_official(actor=actor, league=league, action="discard scores")
        open_meet(group.meet, doing="discard scores")
        why = require_reason(reason, field="reason", what="Discarding scores (R7.4-c)")
        players = list(dict.fromkeys(discard_scores_of))
        if not players:
            raise ValidationError({"discard_scores_of": "Name the players whose scores go."})
        counted = _counted_submission(game)
        sheet = dict(counted.lines.values_list("player_id", "machine_score"))
        for player in players:
            if sheet.get(player.pk) is None:
                raise ValidationError(
                    {"discard_scores_of": f"{player} has no completed score on this game."}
                )
        done = set(
            m.DiscardedScore.objects.filter(game=game, version=counted.version).values_list(
                "player_id", flat=True
            )
        )
        repeats = [str(p) for p in players if p.pk in done]
        if repeats:
            raise ValidationError(
                {"discard_scores_of": f"Already discarded: {', '.join(repeats)}."}
            )
        if m.CorrectionRequest.objects.filter(
            game=game, status=m.CorrectionRequest.Status.PENDING
        ).exists():
            raise ValidationError(
                {"game": "A correction of this game waits for answers: settle it first (R3-c)."}
            )
        rows = m.DiscardedScore.objects.bulk_create(
            m.DiscardedScore(
                game=game, player=p, version=counted.version, reason=why, official=actor
            )
            for p in players
        )
        rows = list(m.DiscardedScore.objects.filter(game=game, version=counted.version))
        record_ruling(
            league=league,
            official=actor,
            kind="positive_malfunction_replay",
            subject=f"meet {group.meet.number} group {group.number} game {game.number}: "
            + ", ".join(str(p) for p in players),
            reason=why,
            affected=group_player_ids(group),
        )
        record_event(
            action="scores.discarded",
            obj=game,
            league=league,
            actor=actor,
            data={
                "game": game.pk,
                "version": counted.version,
                "players": [p.pk for p in players],
                "reason": why,
            },
        )
        season_changed(group.meet.season)
    return rows


def record_replay_scores(
    *,
    game: m.Game,
    scores: Mapping[PlayerRef, int],
    entered_by: m.Player,
    confirmed_by: m.Player,
    actor: User,
    tie_order: Sequence[Sequence[PlayerRef]] = (),
) -> SubmittedScores:
    """Record the replay of the scores discarded after a positive malfunction (R7.4-c, A58).

    `scores`: the replay's machine score of every player whose score was discarded; the others'
    scores stand. The result is a new version of the game's sheet (the counted one with the
    replay scores), entered by one player of the group and confirmed by another (R3-a), with
    the tie orders still holding and `tie_order` for new ties (R3.2-i). The game counts again.

    Side effects: a confirmed ScoreSubmission with its ScoreLines and tie orders, an audit
    event ``scores.replay_recorded``. Raises PermissionDenied unless `actor` is a league
    official or scorekeeper; ValidationError for a meet that is not open, a game with no
    discarded score waiting, scores for other players than the discarded ones, players outside
    the group, the same player entering and confirming, or a sheet the rules refuse.
    """
    sheet_changes = {ref_id(p): s for p, s in scores.items()}
    ties = [[ref_id(p) for p in order] for order in tie_order]
    with transaction.atomic():
        game = locked_game(game)
        group = game.group
        league = group.meet.season.league
        require_scorekeeping(actor=actor, league=league, action="record a replay")
        open_meet(group.meet, doing="record a replay")
        members = group_player_ids(group)
        require_member(entered_by, members, field="entered_by", group=group)
        require_member(confirmed_by, members, field="confirmed_by", group=group)
        if entered_by.pk == confirmed_by.pk:
            raise ValidationError(
                {"confirmed_by": "Another player of the group confirms the sheet (R3-a)."}
            )
        counted = _counted_submission(game)
        waiting = set(
            m.DiscardedScore.objects.filter(game=game, version=counted.version).values_list(
                "player_id", flat=True
            )
        )
        if not waiting:
            raise ValidationError({"game": f"Game {game.number} has no discarded score to replay."})
        if set(sheet_changes) != waiting:
            names = ", ".join(
                str(p) for p in m.Player.objects.filter(pk__in=waiting).order_by("pk")
            )
            raise ValidationError({"scores": f"Give the replay scores of exactly: {names}."})
        for score in sheet_changes.values():
            if isinstance(score, bool) or not isinstance(score, int) or score < 0:
                raise ValidationError(
                    {"scores": f"A score is a whole number of 0 or more, not {score!r}."}
                )
        sheet: dict[int, int | None] = {
            **dict(counted.lines.values_list("player_id", "machine_score")),
            **sheet_changes,
        }
        stored = [list(o) for o in counted_tie_orders([game.pk]).get(game.pk, ())]
        carried = [*ties, *carried_tie_orders(stored, sheet, given=ties)]
        points = game_points_of(game, sheet, carried)
        submission = m.ScoreSubmission.objects.create(
            game=game,
            version=latest_version(game) + 1,
            entered_by=entered_by,
            confirmed_by=confirmed_by,
            confirmed_at=timezone.now(),
            recorded_by=actor,
            idempotency_key=f"replay:{uuid.uuid4().hex}",
            is_correction=True,  # a later confirmed version of the sheet (see ScoreSubmission)
            note="replay after a positive malfunction (R7.4-c)",
        )
        store_sheet(submission, sheet, carried, actor=actor)
        record_event(
            action="scores.replay_recorded",
            obj=submission,
            league=league,
            actor=actor,
            data={
                "game": game.pk,
                "version": submission.version,
                "replaced_version": counted.version,
                "scores": {str(p): s for p, s in sheet_changes.items()},
                "tie_order": carried,
            },
        )
        season_changed(group.meet.season)
    return SubmittedScores(submission=submission, points=points)


# --- helpers ---------------------------------------------------------------------------------


def _serious_malfunctions(game: m.Game) -> list[Malfunction]:
    rows = m.Malfunction.objects.filter(
        game=game, kind__in=(m.Malfunction.Kind.MAJOR, m.Malfunction.Kind.CATASTROPHIC)
    ).values_list("player_id", "ball", "kind")
    return [
        Malfunction(player_key(p), ball, one_of(kind, SERIOUS_MALFUNCTION_KINDS, field="kind"))
        for p, ball, kind in rows
    ]


def _grant(
    game: m.Game,
    player: m.Player,
    serious: list[Malfunction],
    *,
    play_continued: bool,
    actor: User,
) -> m.CompensatoryRequest:
    if m.CompensatoryRequest.objects.filter(game=game, player=player).exists():
        raise ValidationError({"player": f"{player}'s compensatory game is already granted."})
    league = game.group.meet.season.league
    with rules_edge("player"):
        granted = grant_compensatory_game(
            serious,
            player=player_key(player.pk),
            play_continued=play_continued,
            ruleset=ruleset_for(league),
        )
    request = m.CompensatoryRequest.objects.create(
        game=game, player=player, balls=granted.balls, official=actor
    )
    record_event(
        action="compensatory.requested",
        obj=request,
        league=league,
        actor=actor,
        data={"game": game.pk, "player": player.pk, "balls": granted.balls},
    )
    return request


def _counted_submission(game: m.Game) -> m.ScoreSubmission:
    counted = (
        m.ScoreSubmission.objects.filter(game=game, confirmed_by__isnull=False)
        .order_by("-version")
        .first()
    )
    if counted is None:
        raise ValidationError(
            {"game": f"Game {game.number} has no confirmed scores: nothing to discard yet."}
        )
    return counted
