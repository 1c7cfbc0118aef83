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

from django.db import transaction
from django.utils import timezone

from flipwell.league import models as m
from flipwell.league.adapters.game_facts import (
    announced_problems,
    forfeited_in,
    players_playing,
    serious_malfunctions,
)
from flipwell.league.adapters.keys import machine_key, player_key
from flipwell.league.adapters.rulesets import season_ruleset
from flipwell.league.adapters.season_facts import counted_tie_orders
from flipwell.league.audit import record_event
from flipwell.league.enums import (
    MALFUNCTION_KINDS,
    MALFUNCTION_REASONS,
    MalfunctionKindValue,
    MalfunctionReasonValue,
    one_of,
)
from flipwell.league.incident_words import (
    game_ended_notice,
    malfunction_notice,
    owed_words,
)
from flipwell.league.refusals import ConflictError, Refusal
from flipwell.league.selectors.meet_board.board import game_play_order
from flipwell.league.services._edge import (
    PlayerRef,
    game_subject,
    group_player_ids,
    locked_game,
    open_meet,
    ref_id,
    require_member,
    require_reason,
    require_scorekeeping,
    rules_edge,
    season_changed,
)
from flipwell.league.services._protocol import Write, official_write
from flipwell.league.services.corrections import carried_tie_orders
from flipwell.league.services.meet_machines import declare_machine_state
from flipwell.league.services.scores import (
    SubmittedScores,
    game_points_of,
    latest_version,
    store_sheet,
)
from flipwell.rules.compensatory_games import compensatory_balls, compensatory_entitled
from flipwell.rules.compensatory_games import request_compensatory_game as grant_compensatory_game
from flipwell.rules.game_ending_malfunctions import (
    catastrophic_event,
    ends_the_game,
    last_ball,
    next_turns,
)
from flipwell.rules.malfunctions import (
    Malfunction,
    MalfunctionReport,
    MalfunctionRuling,
    automatically_unplayable,
    check_recordable,
    rule_malfunction,
)

if TYPE_CHECKING:
    from django.contrib.auth.models import User


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
        """What they are owed in plain words (`flipwell.league.incident_words.owed_words`)."""
        return owed_words(
            majors=self.majors,
            catastrophic=self.catastrophic,
            balls=self.balls,
            slammer=self.slammer,
        )


def _balls_of(owed: Owed) -> list[tuple[int, str]]:
    """His malfunctions as (ball, kind), ball order."""
    return sorted(
        [(b, "major") for b in owed.majors] + [(b, "catastrophic") for b in owed.catastrophic]
    )


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
    forfeited = forfeited_in(game)
    if player.pk in forfeited:
        raise Refusal(
            {"player": f"{player} forfeited this game: no ball of it is theirs to play."},
            code="forfeited_player",
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
    with rules_edge("extra_balls", code="extra_balls_refused"):
        last = last_ball(balls_per_game, extra_balls_collected=extra.get(player.pk, 0))
    if ball > last:
        raise Refusal(
            {
                "ball": f"{game.machine.title} is a {balls_per_game}-ball game: ball {ball} is "
                f"after the last one. If {player} was on an extra ball, give the extra balls "
                "they had collected."
            },
            code="ball_out_of_range",
        )
    names = {p.pk: str(p) for p in m.Player.objects.filter(pk__in=order)}
    with rules_edge("ball", code="ball_out_of_range"):
        turns = next_turns(
            [player_key(p) for p in order],
            current_player=player_key(player.pk),
            turn=ball,
            balls_per_game=balls_per_game,
            extra_balls_collected=collected,
        )
    turns |= {player_key(p): n for p, n in given.items() if p != player.pk}
    slammer = player_key(told.slammer.pk) if told.slammer is not None else None
    with rules_edge("next_balls", code="next_balls_refused"):
        found = catastrophic_event(
            current_player=player_key(player.pk),
            ball_in_play=ball_in_play,
            next_turn=turns,
            balls_per_game=balls_per_game,
            extra_balls_collected=collected,
            slammer=slammer,
            ruleset=season_ruleset(game.group.meet.season),
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
        raise Refusal({field: f"Not playing this game: {names}."}, code="not_in_game")
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

    The rules classify it from `reason_code` (`_rule`); reason "other" needs the official's
    `kind` and a `note` (R7.3-d, R7.3-j), recorded as a Ruling. A reason that ends the game
    gives every player of the game their malfunctions at once (`_ending_of`: `next_balls`,
    `extra_balls` and `slammer` as `preview_game_ending` takes them); the slammer's serious
    violation is recorded apart (`record_violation`). Each Malfunction row is a line of the
    machine's maintenance sheet (R7.3-u, `machine_histories`); the machine may become
    unplayable (R7.3-r); with
    `request_compensatory` the player's request is recorded at the trigger (RA-b).

    Side effects: Malfunction rows, maybe a Ruling, a MachineDeclaration
    and a CompensatoryRequest, audit events ``malfunction.reported`` (and the others'), the
    players' notices. PermissionDenied unless `actor` is an official; ValidationError for a
    meet not open, a player outside the group, a refused classification or request.
    """
    meet = game.group.meet
    told = EndingReport(next_balls=next_balls, extra_balls=extra_balls, slammer=slammer)
    with official_write(
        league=meet.season.league, actor=actor, action="record a malfunction", season=meet.season
    ) as write:
        game = locked_game(game)
        open_meet(game.group.meet, doing="record a malfunction")
        members = group_player_ids(game.group)
        require_member(player, members, field="player", group=game.group)
        reason_code = one_of(reason_code, MALFUNCTION_REASONS, field="reason_code", what="reason")
        asked = _Asked(player, ball, reason_code, problem, one_handed_ball, ball_in_play)
        why = _why(reason_code, note)
        ruling = _rule(game, asked, kind)
        ending = _ending_of(game, asked, told)
        report = _Report(game, asked, why, problem.strip(), ruling, ending, slammer)
        malfunction, rows = _record(write, report, ruled=kind is not None, members=members)
        return _follow_up(
            write, report, malfunction, rows, members=members, request=request_compensatory
        )


@dataclass(frozen=True)
class _Asked:
    """What the official says happened: whose ball, why, on what ball."""

    player: m.Player
    ball: int
    reason_code: MalfunctionReasonValue
    problem: str
    one_handed_ball: bool
    ball_in_play: bool


@dataclass(frozen=True)
class _Report:
    """A report as recorded: what was asked, the official's words (`why`), the stripped
    `problem`, the rules' ruling, and for a game-ending reason what it owes and who slammed."""

    game: m.Game
    asked: _Asked
    why: str
    problem: str
    ruling: MalfunctionRuling
    ending: GameEnding | None
    slammer: m.Player | None


def _why(reason_code: str, note: str) -> str:
    """The official's note; reason "other" is their ruling and needs one (R7.3-d, R7.3-j)."""
    if reason_code == "other":
        return require_reason(note, field="note", what="The official's ruling on a malfunction")
    return note.strip()


def _rule(game: m.Game, asked: _Asked, kind: MalfunctionKindValue | None) -> MalfunctionRuling:
    """The rules' ruling on the report (`rule_malfunction`: R7.3-e, R7.3-f, R7.3-h, R7.3-i,
    R7.4, R7.7-a, R7.8-a), refused as a malfunction on a one-handed extra ball (R7.1-d) or
    matching a problem the LO announced before play (R7.3-g: `check_recordable`)."""
    meet, machine = game.group.meet, game.machine
    key = machine_key(machine.pk, machine.title)
    announced = announced_problems(meet, machine, key)
    report = MalfunctionReport(
        player=player_key(asked.player.pk),
        machine=key,
        turn=asked.ball,
        reason=asked.reason_code,
        one_handed_ball=asked.one_handed_ball,
        ball_in_play=asked.ball_in_play,
        problem=asked.problem,
    )
    ruleset = season_ruleset(meet.season)
    with rules_edge("kind" if kind else "reason_code", code="malfunction_refused"):
        ruling = rule_malfunction(
            report,
            announced=announced,
            lo_kind=one_of(kind, MALFUNCTION_KINDS, field="kind") if kind else None,
            ruleset=ruleset,
        )
    with rules_edge("reason_code", code="malfunction_not_recordable"):
        check_recordable(ruling)
    return ruling


def _ending_of(game: m.Game, asked: _Asked, told: EndingReport) -> GameEnding | None:
    """What a reason that ends the game (`GAME_ENDING_REASONS`) gives every player of it, as
    `preview_game_ending` shows it (`catastrophic_event`: the ball in play a major, R7.3-i;
    every ball never launched catastrophic, R7.3-h, A32; the allowable extra balls owed,
    R7.3-l; the slammer owed nothing, R8.4-a); None for any other reason."""
    _check_told(asked.reason_code, told)
    if not ends_the_game(asked.reason_code):
        return None
    return _game_ending(game, asked.player, asked.ball, asked.ball_in_play, told)


def _record(
    write: Write, report: _Report, *, ruled: bool, members: list[int]
) -> tuple[m.Malfunction, list[m.Malfunction]]:
    """Store one Malfunction per ball per player, the maintenance sheet's line (R7.3-u), the
    official's ruling when they gave the kind (R7.3-d) and the ``malfunction.reported``
    event. Returns the reporting player's row for the ball, and every row."""
    game, asked, ruling = report.game, report.asked, report.ruling
    # Both databases return the new rows' ids.
    rows = m.Malfunction.objects.bulk_create(
        m.Malfunction(
            game=game,
            player_id=who,
            ball=b,
            kind=k,
            reason_code=asked.reason_code,
            problem=report.problem,
            note=report.why,
            official=write.actor,
        )
        for who, b, k in _recorded(report)
    )
    found = (r for r in rows if r.player_id == asked.player.pk and r.ball == asked.ball)
    malfunction = next(found, None)
    if malfunction is None:  # a game-ending event after their last ball
        raise Refusal(
            {
                "ball": f"{asked.player} has no ball {asked.ball} on a "
                f"{game.machine.balls_per_game}-ball game."
            },
            code="ball_out_of_range",
        )
    if ruled:
        write.ruling(
            kind=f"malfunction_{ruling.kind}",
            subject=game_subject(game, asked.player),
            reason=report.why or ruling.reason,
            affected=members,
            player=asked.player,
            game=game,
        )
    write.event("malfunction.reported", malfunction, _reported_data(report, rows))
    return malfunction, rows


def _recorded(report: _Report) -> list[tuple[int, int, str]]:
    """(player id, ball, kind) of every Malfunction the report records."""
    asked = report.asked
    if report.ending is None:
        return [(asked.player.pk, asked.ball, report.ruling.kind)]
    recorded = [(o.player_id, b, k) for o in report.ending.owed for b, k in _balls_of(o)]
    if report.slammer is not None and report.slammer.pk == asked.player.pk:
        # Their own ball is on the maintenance sheet, and never compensated (R8.4-a).
        recorded.insert(0, (asked.player.pk, asked.ball, m.Malfunction.Kind.NOT_SERIOUS))
    return recorded


def _reported_data(report: _Report, rows: Sequence[m.Malfunction]) -> dict[str, object]:
    """The ``malfunction.reported`` event's data."""
    asked, ruling = report.asked, report.ruling
    data: dict[str, object] = {
        "game": report.game.pk,
        "player": asked.player.pk,
        "ball": asked.ball,
        "kind": ruling.kind,
        "reason_code": asked.reason_code,
        "rule": ruling.rule,
    }
    if report.ending is not None:
        data |= {
            "game_ended": [[r.player_id, r.ball, r.kind] for r in rows],
            "slammer": report.slammer.pk if report.slammer is not None else None,
            "extra_balls": {str(o.player_id): o.extra_balls for o in report.ending.owed},
        }
    return data


def _follow_up(
    write: Write,
    report: _Report,
    malfunction: m.Malfunction,
    rows: list[m.Malfunction],
    *,
    members: list[int],
    request: bool,
) -> ReportedMalfunction:
    """What follows a recorded malfunction: the player's entitlement (R7.3-k), the machine
    unplayable (R7.3-r), the compensatory request asked at the trigger (RA-b), the notices."""
    game, player = report.game, report.asked.player
    serious = serious_malfunctions(game)
    entitled = compensatory_entitled(serious, player=player_key(player.pk))
    unplayable = _declare_unplayable(write, report, serious, members)
    compensatory = None
    if request:
        compensatory = _grant(write, game, player, serious, play_continued=False)
    _notify(write, report, malfunction, entitled=entitled)
    return ReportedMalfunction(
        malfunction=malfunction,
        ruling=report.ruling,
        entitled=entitled,
        compensatory=compensatory,
        machine_unplayable=unplayable,
        ending=report.ending,
        rows=tuple(rows),
    )


def _declare_unplayable(
    write: Write, report: _Report, serious: list[Malfunction], members: list[int]
) -> bool:
    """Declare the machine unplayable for the meet when every player's first ball ended in a
    major (R7.3-r); True if declared."""
    playing = players_playing(report.game, members)
    # With every player's forfeit recorded nobody plays the machine, so R7.3-r's "every
    # player's first ball" cannot be met (and the rules refuse a game of no players).
    if not (
        report.ruling.kind == "major"
        and playing
        and automatically_unplayable(serious, players=playing)
    ):
        return False
    return declare_machine_state(
        report.game.group.meet,
        report.game.machine,
        m.MachineDeclaration.Kind.UNPLAYABLE,
        write.actor,
        "automatic: every player's first ball ended in a major malfunction (R7.3-r)",
    )


def _notify(write: Write, report: _Report, malfunction: m.Malfunction, *, entitled: bool) -> None:
    """The reporting player's notice and, for a game-ending event, each other player's owed
    something (`flipwell.league.incident_words`)."""
    meet = report.game.group.meet
    what, details = malfunction_notice(malfunction, rule=report.ruling.rule, entitled=entitled)
    write.notice(
        player=report.asked.player,
        meet=meet,
        key=f"malfunction:{malfunction.pk}",
        what=what,
        details=details,
        reason=report.why,
    )
    if report.ending is None:
        return
    game = report.game
    others = [o for o in report.ending.owed if o.player_id != report.asked.player.pk and o.balls]
    players = m.Player.objects.in_bulk([o.player_id for o in others])
    for owed in others:
        what, details = game_ended_notice(malfunction, owed=owed.words)
        write.notice(
            player=players[owed.player_id],
            meet=meet,
            key=f"malfunction:{game.pk}:{owed.player_id}:{owed.next_ball}",
            what=what,
            details=details,
            reason=report.why,
        )


def _check_told(reason_code: str, told: EndingReport) -> None:
    """Extra balls and a slammer are said of a game-ending event only (R7.3-l, R8.4-a)."""
    if told.slammer is not None and reason_code != m.Malfunction.ReasonCode.SLAM_TILT:
        raise Refusal(
            {"slammer": "Only a slam tilt is slam tilted on purpose: leave the slammer empty."},
            code="slammer_not_allowed",
        )
    if told.extra_balls and not ends_the_game(reason_code):
        raise Refusal(
            {
                "extra_balls": "Extra balls collected are given for an event that ends the game "
                "(a total failure or reset, a power loss, a fire, a slam tilt) only."
            },
            code="extra_balls_not_allowed",
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
    meet = game.group.meet
    with official_write(
        league=meet.season.league,
        actor=actor,
        action="grant a compensatory game",
        season=meet.season,
    ) as write:
        game = locked_game(game)
        open_meet(game.group.meet, doing="grant a compensatory game")
        require_member(player, group_player_ids(game.group), field="player", group=game.group)
        serious = serious_malfunctions(game)
        return _grant(write, game, player, serious, play_continued=play_continued)


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
    that is not open (or a score the season's fold refuses: no score to add to).
    """
    meet = game.group.meet
    with official_write(
        league=meet.season.league,
        actor=actor,
        action="record a compensatory game",
        season=meet.season,
    ) as write:
        game = locked_game(game)
        open_meet(game.group.meet, doing="record a compensatory game")
        _check_compensatory_owed(game, player)
        amounts = _amounts(
            new_score=new_score,
            leading_subtracted=leading_subtracted,
            state_subtracted=state_subtracted,
        )
        why = reason.strip()
        if leading_subtracted or state_subtracted:
            why = require_reason(reason, field="reason", what="Subtracting points (R7.3-n, R7.3-o)")
            write.ruling(
                kind="compensatory_subtraction",
                subject=game_subject(game, player),
                reason=why,
                affected=group_player_ids(game.group),
                player=player,
                game=game,
            )
        compensatory = m.CompensatoryGame.objects.create(
            game=game, player=player, official=actor, **amounts
        )
        data = {"game": game.pk, "player": player.pk, **amounts, "reason": why}
        write.event("compensatory.recorded", compensatory, data)
    return compensatory


def _check_compensatory_owed(game: m.Game, player: m.Player) -> None:
    """A compensatory game is recorded once, after it was granted (R7.3-k, RA-b)."""
    if not m.CompensatoryRequest.objects.filter(game=game, player=player).exists():
        raise Refusal(
            {
                "player": f"{player} was not granted a compensatory game in this game: it "
                "needs 2 major or 1 catastrophic malfunction, requested at the trigger "
                "(R7.3-k, RA-b)."
            },
            code="compensatory_not_granted",
        )
    if m.CompensatoryGame.objects.filter(game=game, player=player).exists():
        raise ConflictError(
            {"player": f"{player}'s compensatory game is recorded."},
            code="compensatory_game_already_recorded",
        )


def _amounts(**amounts: int) -> dict[str, int]:
    """The amounts as given, each refused unless a whole number of 0 or more."""
    for field, amount in amounts.items():
        if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
            raise Refusal(
                {field: f"Must be a whole number of 0 or more, not {amount!r}."},
                code="invalid_amount",
            )
    return amounts


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
    meet = game.group.meet
    with official_write(
        league=meet.season.league, actor=actor, action="discard scores", season=meet.season
    ) as write:
        game = locked_game(game)
        group = game.group
        open_meet(group.meet, doing="discard scores")
        why = require_reason(reason, field="reason", what="Discarding scores (R7.4-c)")
        players = list(dict.fromkeys(discard_scores_of))
        counted = _check_discard(game, players)
        m.DiscardedScore.objects.bulk_create(
            m.DiscardedScore(
                game=game, player=p, version=counted.version, reason=why, official=actor
            )
            for p in players
        )
        rows = list(m.DiscardedScore.objects.filter(game=game, version=counted.version))
        write.ruling(
            kind="positive_malfunction_replay",
            subject=f"meet {group.meet.number} group {group.number} game {game.number}: "
            + ", ".join(str(p) for p in players),
            reason=why,
            affected=group_player_ids(group),
            game=game,
        )
        data = {"version": counted.version, "players": [p.pk for p in players], "reason": why}
        write.event("scores.discarded", game, {"game": game.pk, **data})
    return rows


def _check_discard(game: m.Game, players: list[m.Player]) -> m.ScoreSubmission:
    """The counted sheet whose scores of `players` are discarded: each a completed score not
    yet discarded, and no correction waiting (R7.4-c, R3-c)."""
    if not players:
        raise Refusal(
            {"discard_scores_of": "Name the players whose scores go."},
            code="discard_players_required",
        )
    counted = _counted_submission(game)
    sheet = dict(counted.lines.values_list("player_id", "machine_score"))
    for player in players:
        if sheet.get(player.pk) is None:
            raise Refusal(
                {"discard_scores_of": f"{player} has no completed score on this game."},
                code="no_completed_score",
            )
    done = set(
        m.DiscardedScore.objects.filter(game=game, version=counted.version).values_list(
            "player_id", flat=True
        )
    )
    repeats = [str(p) for p in players if p.pk in done]
    if repeats:
        raise ConflictError(
            {"discard_scores_of": f"Already discarded: {', '.join(repeats)}."},
            code="scores_already_discarded",
        )
    if m.CorrectionRequest.objects.filter(
        game=game, status=m.CorrectionRequest.Status.PENDING
    ).exists():
        raise ConflictError(
            {"game": "A correction of this game waits for answers: settle it first (R3-c)."},
            code="correction_pending",
        )
    return counted


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
    # A scorekeeper may record it too, so this write is not `official_write`'s.
    with transaction.atomic():
        game = locked_game(game)
        group = game.group
        league = group.meet.season.league
        require_scorekeeping(actor=actor, league=league, action="record a replay")
        open_meet(group.meet, doing="record a replay")
        _check_replayers(group, entered_by, confirmed_by)
        counted = _counted_submission(game)
        _check_replay_scores(game, counted, sheet_changes)
        sheet: dict[int, int | None] = {
            **dict(counted.lines.values_list("player_id", "machine_score")),
            **sheet_changes,
        }
        stored = [list(o) for o in counted_tie_orders([game.pk]).get(game.pk, ())]
        carried = [*ties, *carried_tie_orders(stored, sheet, given=ties)]
        points = game_points_of(game, sheet, carried)
        submission = _replay_sheet(game, entered_by, confirmed_by, actor)
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


def _check_replayers(group: m.Group, entered_by: m.Player, confirmed_by: m.Player) -> None:
    """One player of the group enters the replay's sheet, another confirms it (R3-a)."""
    members = group_player_ids(group)
    require_member(entered_by, members, field="entered_by", group=group)
    require_member(confirmed_by, members, field="confirmed_by", group=group)
    if entered_by.pk == confirmed_by.pk:
        raise Refusal(
            {"confirmed_by": "Another player of the group confirms the sheet (R3-a)."},
            code="own_entry",
        )


def _check_replay_scores(
    game: m.Game, counted: m.ScoreSubmission, sheet_changes: Mapping[int, int]
) -> None:
    """The replay gives a score, a whole number of 0 or more, to exactly the players whose
    score on the counted sheet was discarded (R7.4-c)."""
    waiting = set(
        m.DiscardedScore.objects.filter(game=game, version=counted.version).values_list(
            "player_id", flat=True
        )
    )
    if not waiting:
        raise ConflictError(
            {"game": f"Game {game.number} has no discarded score to replay."},
            code="no_discarded_score",
        )
    if set(sheet_changes) != waiting:
        names = ", ".join(str(p) for p in m.Player.objects.filter(pk__in=waiting).order_by("pk"))
        raise Refusal(
            {"scores": f"Give the replay scores of exactly: {names}."},
            code="replay_players_mismatch",
        )
    for score in sheet_changes.values():
        if isinstance(score, bool) or not isinstance(score, int) or score < 0:
            raise Refusal(
                {"scores": f"A score is a whole number of 0 or more, not {score!r}."},
                code="invalid_score",
            )


def _replay_sheet(
    game: m.Game, entered_by: m.Player, confirmed_by: m.Player, actor: User
) -> m.ScoreSubmission:
    """The replay's sheet: a later confirmed version of the game's sheet (`ScoreSubmission`)."""
    return m.ScoreSubmission.objects.create(
        game=game,
        version=latest_version(game) + 1,
        entered_by=entered_by,
        confirmed_by=confirmed_by,
        confirmed_at=timezone.now(),
        recorded_by=actor,
        idempotency_key=f"replay:{uuid.uuid4().hex}",
        is_correction=True,
        note="replay after a positive malfunction (R7.4-c)",
    )


# --- helpers ---------------------------------------------------------------------------------


def _grant(
    write: Write,
    game: m.Game,
    player: m.Player,
    serious: list[Malfunction],
    *,
    play_continued: bool,
) -> m.CompensatoryRequest:
    """Record `player`'s compensatory game request, as the rules grant it (R7.3-k, R7.3-l)."""
    if m.CompensatoryRequest.objects.filter(game=game, player=player).exists():
        raise ConflictError(
            {"player": f"{player}'s compensatory game is already granted."},
            code="compensatory_already_granted",
        )
    with rules_edge("player", code="compensatory_not_owed"):
        granted = grant_compensatory_game(
            serious,
            player=player_key(player.pk),
            play_continued=play_continued,
            ruleset=season_ruleset(game.group.meet.season),
        )
    request = m.CompensatoryRequest.objects.create(
        game=game, player=player, balls=granted.balls, official=write.actor
    )
    data = {"game": game.pk, "player": player.pk, "balls": granted.balls}
    write.event("compensatory.requested", request, data)
    return request


def _counted_submission(game: m.Game) -> m.ScoreSubmission:
    counted = (
        m.ScoreSubmission.objects.filter(game=game, confirmed_by__isnull=False)
        .order_by("-version")
        .first()
    )
    if counted is None:
        raise ConflictError(
            {"game": f"Game {game.number} has no confirmed scores: nothing to discard yet."},
            code="game_not_confirmed",
        )
    return counted
