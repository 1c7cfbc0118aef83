"""A league official's report of a malfunction (§7.3, §7.4) and what follows it.

Words:
- the *ruling*: the rules' classification of the report (`rule_malfunction`: major,
  catastrophic, not serious, positive), or the official's for reason "other" (R7.3-d).
- *entitled*: the player may now have a compensatory game (R7.3-k).
- *automatically unplayable*: every player's first ball on the machine ended in a major
  malfunction, so it is unplayable for the rest of the meet (R7.3-r).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from flipwell.league import models as m
from flipwell.league.adapters.game_facts import (
    announced_problems,
    players_playing,
    serious_malfunctions,
)
from flipwell.league.adapters.keys import machine_key, player_key
from flipwell.league.adapters.rulesets import season_ruleset
from flipwell.league.enums import (
    MALFUNCTION_KINDS,
    MALFUNCTION_REASONS,
    MalfunctionKindValue,
    MalfunctionReasonValue,
    one_of,
)
from flipwell.league.notices import GameEndedFacts, MalfunctionFacts
from flipwell.league.refusals import Refusal
from flipwell.league.services._edge import (
    game_subject,
    group_player_ids,
    locked_game,
    open_meet,
    require_member,
    require_reason,
    rules_edge,
)
from flipwell.league.services._protocol import Write, official_write
from flipwell.league.services.malfunctions.compensatory import record_grant
from flipwell.league.services.malfunctions.game_ending import (
    EndingReport,
    GameEnding,
    malfunction_balls,
    owed_by_ending,
)
from flipwell.league.services.meet_machines.declarations import declare_machine_state
from flipwell.rules.compensatory_games import compensatory_entitled
from flipwell.rules.game_ending_malfunctions import ends_the_game
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
        write.only_meets(game.group.meet)
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
    return owed_by_ending(game, asked.player, asked.ball, asked.ball_in_play, told)


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
    recorded = [(o.player_id, b, k) for o in report.ending.owed for b, k in malfunction_balls(o)]
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
        compensatory = record_grant(write, game, player, serious, play_continued=False)
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
    something, as facts (their words: `flipwell.web.words.incidents`)."""
    game = report.game
    meet = game.group.meet
    where = {"meet": meet.number, "group": game.group.number, "game": game.number}
    about = MalfunctionFacts(
        kind=malfunction.kind,
        reason_code=malfunction.reason_code,
        ball=malfunction.ball,
        rule=report.ruling.rule,
        entitled=entitled,
        reason=report.why,
        **where,
    )
    key = f"malfunction:{malfunction.pk}"
    write.notice_of(player=report.asked.player, meet=meet, key=key, about=about)
    if report.ending is None:
        return
    others = [o for o in report.ending.owed if o.player_id != report.asked.player.pk and o.balls]
    players = m.Player.objects.in_bulk([o.player_id for o in others])
    for owed in others:
        ended = GameEndedFacts(
            reason_code=malfunction.reason_code,
            majors=owed.majors,
            catastrophic=owed.catastrophic,
            balls=owed.balls,
            slammer=owed.slammer,
            reason=report.why,
            **where,
        )
        write.notice_of(
            player=players[owed.player_id],
            meet=meet,
            key=f"malfunction:{game.pk}:{owed.player_id}:{owed.next_ball}",
            about=ended,
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
