"""A league night in the console: the season's meets, the meet hub (groups, score sheet links,
close), attendance before the start, the start with its groups preview, and the night's
incidents (forfeits and late arrivals, malfunctions and compensatory games, violations,
corrections)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django import forms
from django.contrib import messages
from django.http import (
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
    HttpResponseRedirect,
)
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.http import require_POST, require_safe

from flipwell.league import models as m
from flipwell.league import services
from flipwell.league.selectors.allowed_machines import AllowedMachines, meet_allowed_machines
from flipwell.league.selectors.console import (
    before_start_warning,
    match_absences_at,
    meet_date_warnings,
    meet_facts,
    meet_forfeits,
    meet_games,
    meet_group_players,
    meet_players,
    next_meet,
    season_meets,
    season_players,
)
from flipwell.league.selectors.machine_history import open_problem_machines
from flipwell.league.selectors.meet_board.board import meet_board
from flipwell.league.selectors.meet_board.values import MeetBoard
from flipwell.league.selectors.meet_times import scheduled_start
from flipwell.league.selectors.photos import PhotoRef, game_photos, meet_photos, meet_removal
from flipwell.league.selectors.standings import start_proposal
from flipwell.league.services.malfunctions import GameEnding, ReportedMalfunction
from flipwell.league.services.meets import AnnouncedLateness
from flipwell.league.turn_rulings import KINDS
from flipwell.rules import ends_the_game
from flipwell.web.auth import ANY_ROLE, LO_ONLY, console_page
from flipwell.web.forms import (
    AnswerForm,
    CancelMeetForm,
    CloseMeetForm,
    CompensatoryGameForm,
    CompensatoryRequestForm,
    ConsoleCorrectionForm,
    ForfeitForm,
    LateJoinForm,
    LatenessForm,
    MalfunctionForm,
    MatchAbsenceForm,
    NextBallsForm,
    NonCountableForm,
    OfficialMachineForm,
    RescheduleMeetForm,
    ScheduleMeetForm,
    StartMeetForm,
    TurnRulingForm,
    ViolationForm,
    WithdrawAnnouncementForm,
    WithdrawMatchAbsenceForm,
    player_choice_form,
)
from flipwell.web.ids import parse_id
from flipwell.web.once import records_nothing
from flipwell.web.scoresheet_tokens import path_for
from flipwell.web.views.manage._common import (
    action,
    attempt,
    done,
    game_of,
    meet_of,
    official,
    page,
    run,
    season_of,
)


def _base(league: m.League, role: str, meet: m.Meet, tab: str) -> dict[str, Any]:
    return {"league": league, "role": role, "meet": meet, "season": meet.season, "tab": tab}


def _games(meet: m.Meet, group: int | None = None) -> list[tuple[int, str]]:
    return [
        (g.pk, f"Group {g.group.number} · game {g.number} · {g.machine.title}")
        for g in meet_games(meet, group=group)
    ]


def _chosen_group(request: HttpRequest, meet: m.Meet) -> int | None:
    """The group number ``?group=N`` chose (its forms then list only that group's games and
    players); None for every group, or for a number the meet does not have."""
    wanted = parse_id(request.GET.get("group"))
    if wanted is not None and meet.groups.filter(number=wanted).exists():
        return wanted
    return None


def _group_context(meet: m.Meet, chosen: int | None) -> dict[str, Any]:
    return {
        "group_numbers": list(meet.groups.order_by("number").values_list("number", flat=True)),
        "chosen_group": chosen,
    }


@console_page(ANY_ROLE)
def meets(request: HttpRequest, league: m.League, role: str, season_id: int) -> HttpResponse:
    """A season's meets, and scheduling the next ones (schedule_meet)."""
    season = season_of(league, season_id)
    upcoming = next_meet(season)
    initial = (
        {"number": upcoming.number, "date": upcoming.date}
        if upcoming is not None and upcoming.planned is None
        else {}
    )
    form = ScheduleMeetForm(request.POST or None, initial=initial)
    if request.method == "POST":
        meet = run(form, services.schedule_meet, season=season, actor=official(request))
        if meet is not None:
            warned = "; ".join(meet_date_warnings(meet))
            message = f"Meet {meet.number} scheduled on {meet.date:%A %d %B %Y}."
            if warned:
                messages.warning(request, f"{message} Warning: {warned}.")
            else:
                messages.success(request, message)
            # On to the meet: its attendance, then its start.
            return HttpResponseRedirect(reverse("web:manage_meet", args=[league.slug, meet.pk]))
    context = {
        "league": league,
        "role": role,
        "season": season,
        "meets": season_meets(season),
        "form": form,
        "upcoming": upcoming,
    }
    return page(request, "manage/meets.html", context, failed=form.is_bound)


@require_safe  # closing is `close`, after its confirmation step
@console_page(ANY_ROLE)
def meet(request: HttpRequest, league: m.League, role: str, meet_id: int) -> HttpResponse:
    """The hub of a league night: groups, games, how players reach their score sheets, and
    the way to close the meet (`close`, which asks first). A group nobody can continue offers
    the official its next machine and its absence (`group`)."""
    the_meet = meet_of(league, meet_id)
    return render(request, "manage/meet.html", _meet_context(league, role, the_meet))


def _by_group(photos: tuple[PhotoRef, ...]) -> dict[int, list[PhotoRef]]:
    """The photos by group id, in their order."""
    found: dict[int, list[PhotoRef]] = {}
    for ref in photos:
        found.setdefault(ref.group_id, []).append(ref)
    return found


def _meet_context(
    league: m.League, role: str, the_meet: m.Meet, refused: dict[int, list[str]] | None = None
) -> dict[str, Any]:
    board = meet_board(the_meet) if the_meet.status != m.Meet.Status.PLANNED else None
    photos = meet_photos(the_meet) if board is not None else ()
    sheets = (
        {g.id: path_for(g.id, the_meet.pk) for g in board.groups}
        if board is not None and the_meet.status == m.Meet.Status.OPEN
        else {}
    )
    is_open = the_meet.status == m.Meet.Status.OPEN
    troubled = open_problem_machines(league) if is_open else {}
    # Each group's next machine as the API and the score sheet show it (allowed_machines).
    choices = meet_allowed_machines(the_meet, board) if board is not None and is_open else {}
    context = {
        **_base(league, role, the_meet, "hub"),
        "board": board,
        "sheets": sheets,
        "next_machines": {gid: _next_machine_rows(c, troubled) for gid, c in choices.items()},
        "refused": refused or {},
        "photos": photos,
        "group_photos": _by_group(photos),
        "gone": _gone(board, match_absences_at(the_meet)) if board is not None else (),
    }
    if the_meet.status == m.Meet.Status.CLOSED:
        context["removal"] = meet_removal(the_meet)
    if the_meet.status == m.Meet.Status.PLANNED:
        context |= {
            "reschedule_form": RescheduleMeetForm(initial={"date": the_meet.date}),
            "cancel_form": CancelMeetForm(),
        }
    return context


def _next_machine_rows(choices: AllowedMachines, troubled: dict[int, int]) -> dict[str, Any]:
    """A group's next machine for its panel: who picks and what is refused (`choices`), the
    allowed machines with their open problems (id, title, count; R7.3-u) and those with any."""
    options = [(o.id, o.title, troubled.get(o.id, 0)) for o in choices.allowed]
    return {
        "choices": choices,
        "options": options,
        "troubled": [(title, n) for _, title, n in options if n],
    }


def _gone(
    board: MeetBoard, absences: tuple[m.MatchAbsence, ...]
) -> list[tuple[m.MatchAbsence, bool]]:
    """Each absence for the rest of the match with whether it may be withdrawn: not one of a
    whole group's (its games were stored as played by nobody)."""
    absent: dict[int, set[int]] = {}
    for absence in absences:
        absent.setdefault(absence.group_id, set()).add(absence.player_id)
    whole = {g.id for g in board.groups if absent.get(g.id) == set(g.players)}
    return [(a, a.group_id not in whole) for a in absences]


@require_POST
@console_page(LO_ONLY)
def group(
    request: HttpRequest, league: m.League, role: str, meet_id: int, number: int
) -> HttpResponse:
    """The official's actions for one group, posted from the meet's hub: choose or draw the
    machine of its next game when nobody may pick (official_chooses_next_machine, A66), or
    record players absent for the rest of the match (record_match_absence, R2.4-a) or withdraw
    one recorded by mistake (withdraw_match_absence)."""
    the_meet = meet_of(league, meet_id)
    the_group = get_object_or_404(m.Group, meet=the_meet, number=number)
    which = action(request)
    if which in ("choose", "draw"):
        form, message = _next_machine(request, league, the_group, which)
    elif which == "absence":
        form, message = _match_absence(request, the_group)
    elif which == "withdraw_absence":
        form, message = _withdraw_match_absence(request, the_group)
    else:
        return HttpResponseBadRequest(
            "Choose an action: choose, draw, absence or withdraw_absence."
        )
    if message:
        messages.success(request, message)
        return HttpResponseRedirect(reverse("web:manage_meet", args=[league.slug, meet_id]))
    refused = {number: [str(e) for errors in form.errors.values() for e in errors]}
    return render(
        request, "manage/meet.html", _meet_context(league, role, the_meet, refused), status=400
    )


def _next_machine(
    request: HttpRequest, league: m.League, group: m.Group, which: str
) -> tuple[forms.Form, str]:
    """The official chooses (or draws) the group's next machine; the message once done."""
    # Drawing ignores a machine left chosen in the select.
    form = OfficialMachineForm(request.POST if which == "choose" else {}, league=league)
    chosen = run(form, services.official_chooses_next_machine, group=group, actor=official(request))
    if chosen is None:
        return form, ""
    how = "drawn" if which == "draw" else "chosen"
    return form, (
        f"Group {group.number}'s game {chosen.game.number} is on {chosen.game.machine.title} "
        f"({how} by the official)."
    )


def _match_absence(request: HttpRequest, group: m.Group) -> tuple[forms.Form, str]:
    """Players absent for the rest of the group's match; the message once recorded."""
    form = MatchAbsenceForm(request.POST, players=meet_players(group.meet, group=group.number))
    recorded = run(form, services.record_match_absence, group=group, actor=official(request))
    if recorded is None:
        return form, ""
    names = ", ".join(str(a.player) for a in recorded.absences)
    first = recorded.from_game
    last = first + recorded.forfeits // len(recorded.absences) - 1  # game 4
    games = f"game {last} is" if first == last else f"games {first} to {last} are"
    return form, (
        f"Group {group.number}: {names} absent for the rest of the match; {games} "
        f"{'their forfeit' if first == last else 'their forfeits'}."
    )


def _withdraw_match_absence(request: HttpRequest, group: m.Group) -> tuple[forms.Form, str]:
    """A player's absence for the rest of the match withdrawn; the message once done."""
    form = WithdrawMatchAbsenceForm(
        request.POST, players=meet_players(group.meet, group=group.number)
    )
    withdrawn = run(form, services.withdraw_match_absence, group=group, actor=official(request))
    if withdrawn is None:
        return form, ""
    return form, (
        f"Group {group.number}: {withdrawn.player}'s absence is withdrawn; their score is "
        "entered again from the game in play on."
    )


@console_page(LO_ONLY)
def reschedule(request: HttpRequest, league: m.League, role: str, meet_id: int) -> HttpResponse:
    """Move a meet not yet started to another date, or cancel it; each asks why (R2-a). The
    meet's hub shows both forms; this page shows them again when one was refused."""
    the_meet = meet_of(league, meet_id)
    posted = action(request)
    moving = RescheduleMeetForm(
        request.POST if posted == "reschedule" else None, initial={"date": the_meet.date}
    )
    cancelling = CancelMeetForm(request.POST if posted == "cancel" else None)
    if posted == "reschedule":
        moved = run(moving, services.reschedule_meet, meet=the_meet, actor=official(request))
        if moved is not None:
            messages.success(request, f"Meet {moved.number} moved to {moved.date:%A %d %B %Y}.")
            return HttpResponseRedirect(reverse("web:manage_meet", args=[league.slug, meet_id]))
    elif posted == "cancel":
        cancelled = run(cancelling, services.cancel_meet, meet=the_meet, actor=official(request))
        if cancelled is not None:
            moved_down = ", ".join(
                f"meet {old} is now meet {new}" for old, new in cancelled.renumbered
            )
            messages.success(
                request,
                f"Meet {cancelled.number} ({cancelled.date:%A %d %B %Y}) is cancelled"
                + (f"; {moved_down}." if moved_down else "."),
            )
            return HttpResponseRedirect(
                reverse("web:manage_meets", args=[league.slug, the_meet.season_id])
            )
    context = {
        **_base(league, role, the_meet, "hub"),
        "reschedule_form": moving,
        "cancel_form": cancelling,
    }
    return page(request, "manage/reschedule.html", context, failed=bool(posted))


@console_page(LO_ONLY)
def close(request: HttpRequest, league: m.League, role: str, meet_id: int) -> HttpResponse:
    """Close the meet, after a confirmation step: the page says what closing does and which
    groups are unfinished (closing those needs a reason, A52); its POST closes."""
    the_meet = meet_of(league, meet_id)
    form = CloseMeetForm(request.POST or None)
    if request.method == "POST":
        closed = run(form, services.close_meet, meet=the_meet, actor=official(request))
        if closed is not None:
            messages.success(request, f"Meet {the_meet.number} is closed.")
            return HttpResponseRedirect(reverse("web:manage_meet", args=[league.slug, meet_id]))
    board = meet_board(the_meet) if the_meet.status == m.Meet.Status.OPEN else None
    context = {
        **_base(league, role, the_meet, "hub"),
        "unfinished": [g for g in board.groups if not g.finished] if board else [],
        "form": form,
        "early": before_start_warning(the_meet, "close"),
    }
    return page(request, "manage/close_meet.html", context, failed=form.is_bound)


@console_page(LO_ONLY)
def attendance(request: HttpRequest, league: m.League, role: str, meet_id: int) -> HttpResponse:
    """Announced absences before the start (R3.1-d), and lateness notices until the close,
    each with when the official was told (R2.2-a); either withdrawn before the start."""
    the_meet = meet_of(league, meet_id)
    players = season_players(the_meet.season)
    which = action(request)
    absence = player_choice_form(players)(request.POST if which == "absence" else None)
    late = LatenessForm(request.POST if which == "late" else None, meet=the_meet, players=players)
    if which == "absence":
        row = run(absence, services.announce_absence, meet=the_meet, actor=official(request))
        if row is not None:
            return done(request, f"{row.player}'s absence is recorded.")
    elif which == "late":
        told = run(late, services.announce_lateness, meet=the_meet, actor=official(request))
        if told is not None:
            return done(request, _lateness_message(told))
    withdraw_errors: list[str] = []
    if which in ("withdraw_absence", "withdraw_late"):
        kind = "absence" if which == "withdraw_absence" else "lateness"
        withdrawing = WithdrawAnnouncementForm(request.POST)
        withdrawn = run(
            withdrawing,
            services.withdraw_announcement,
            meet=the_meet,
            kind=kind,
            actor=official(request),
        )
        if withdrawn is not None:
            what = "absence" if kind == "absence" else "lateness notice"
            return done(request, f"{withdrawn.player}'s {what} is withdrawn.")
        withdraw_errors = [str(e) for errors in withdrawing.errors.values() for e in errors]
    context = {
        **_base(league, role, the_meet, "attendance"),
        "facts": meet_facts(the_meet),
        "absence": absence,
        "late": late,
        "withdraw_errors": withdraw_errors,
    }
    return page(request, "manage/attendance.html", context, failed=bool(which))


def _lateness_message(told: AnnouncedLateness) -> str:
    """What a recorded lateness notice means tonight (R2.2-a, A59), in the league's time."""
    notice, wait_until = told.notice, told.tardiness.wait_until
    who = str(notice.player)
    if wait_until is not None:
        return (
            f"{who}'s lateness notice is recorded: the group waits until "
            f"{wait_until:%H:%M} at the latest (R2.2-a)."
        )
    start = scheduled_start(notice.meet)
    told_at = notice.recorded_at.astimezone(start.tzinfo)
    return (
        f"{who}'s lateness notice is recorded, told at {told_at:%H:%M}, after the "
        f"{start:%H:%M} start: the group does not wait, and {who} joins on arrival when "
        "the rules allow it (R2.2-a, R2.3-a)."
    )


@console_page(LO_ONLY)
def start(request: HttpRequest, league: m.League, role: str, meet_id: int) -> HttpResponse:
    """Start the meet: the ladder's groups as a preview, or the official's with a reason."""
    the_meet = meet_of(league, meet_id)
    proposal = start_proposal(the_meet)
    form = StartMeetForm(
        request.POST or None,
        initial={"date": the_meet.date},  # a dated meet's Date field shows its date
        players=[(line.player.id, line.player.name) for line in proposal.present],
        groups=proposal.group_numbers,
        count=proposal.group_count,
    )
    if request.method == "POST":
        started = run(
            form,
            services.start_meet,
            season=the_meet.season,
            number=the_meet.number,
            actor=official(request),
        )
        if started is not None:
            warned = " ".join(started.warnings)
            messages.success(request, f"Meet {the_meet.number} started. {warned}".strip())
            # On to the night's hub: the groups, their score sheets, what comes next.
            return HttpResponseRedirect(reverse("web:manage_meet", args=[league.slug, meet_id]))
    context = {
        **_base(league, role, the_meet, "start"),
        "preview": proposal.preview,
        "form": form,
        "early": before_start_warning(the_meet, "start"),
    }
    return page(request, "manage/start.html", context, failed=form.is_bound)


FORFEIT_ACTIONS: dict[str, tuple[Callable[..., Any], Callable[[Any], str]]] = {
    "forfeit": (services.record_forfeit, lambda row: f"{row.player}'s forfeit is recorded."),
    # The rules' reason reads as the rest of a sentence about the player.
    "late": (
        services.record_late_join,
        lambda arrival: f"Late arrival recorded: {arrival.row.player} {arrival.decision.reason}.",
    ),
    "non_countable": (
        services.designate_forfeit_non_countable,
        lambda row: f"{row.player}'s forfeit no longer counts (R2.4-g).",
    ),
}
"""The forfeits page's actions: each one's service, and what the console says once done."""


@console_page(ANY_ROLE)
def forfeits(request: HttpRequest, league: m.League, role: str, meet_id: int) -> HttpResponse:
    """Forfeits (record_forfeit) and late arrivals (record_late_join) of an open meet. The list
    holds every forfeit of the meet, those entered on score sheets too (`meet_forfeits`), each
    countable one with the way to designate it non-countable (R2.4-g)."""
    the_meet = meet_of(league, meet_id)
    chosen = _chosen_group(request, the_meet)
    which = action(request)
    posted = _forfeit_forms(request, the_meet, chosen, which)
    if which in FORFEIT_ACTIONS:
        service, said = FORFEIT_ACTIONS[which]
        result = run(posted[which], service, actor=official(request))
        if result is not None:
            return done(request, said(result))
    context = {
        **_base(league, role, the_meet, "forfeits"),
        **_group_context(the_meet, chosen),
        "facts": meet_facts(the_meet),
        "forfeits": [
            f for f in meet_forfeits(the_meet) if chosen is None or f.game.group.number == chosen
        ],
        "forfeit": posted["forfeit"],
        "late": posted["late"],
        "designate": posted["non_countable"],
    }
    return page(request, "manage/forfeits.html", context, failed=bool(which))


def _forfeit_forms(
    request: HttpRequest, meet: m.Meet, chosen: int | None, which: str
) -> dict[str, forms.Form]:
    """The forfeits page's forms by action, the posted one bound."""
    games, players = _games(meet, chosen), meet_group_players(meet, group=chosen)

    def bound(name: str) -> Any:
        return request.POST if which == name else None

    # One page, two forms with the same field names: ids of their own keep each label on
    # its own field. One small form per countable forfeit of the list: the one posted shows
    # its errors.
    return {
        "forfeit": ForfeitForm(
            bound("forfeit"), games=games, players=players, auto_id="id_forfeit_%s"
        ),
        "late": LateJoinForm(bound("late"), games=games, players=players, auto_id="id_late_%s"),
        "non_countable": NonCountableForm(bound("non_countable"), meet=meet),
    }


COMPENSATORY_ACTIONS: dict[str, tuple[Callable[..., Any], Callable[[Any], str]]] = {
    "grant": (
        services.request_compensatory_game,
        lambda granted: (
            "Compensatory game granted: "
            + ("1 ball." if granted.balls == 1 else f"{granted.balls} balls.")
        ),
    ),
    "compensatory": (services.record_compensatory_game, lambda _: "Compensatory game recorded."),
}
"""The malfunctions page's compensatory game actions: each one's service, and what the
console says once done."""


@console_page(LO_ONLY)
def malfunctions(request: HttpRequest, league: m.League, role: str, meet_id: int) -> HttpResponse:
    """Malfunctions (report_malfunction) and compensatory games (request and record)."""
    the_meet = meet_of(league, meet_id)
    chosen = _chosen_group(request, the_meet)
    which = action(request)
    posted = _malfunction_forms(request, the_meet, chosen, which)
    base = {
        **_base(league, role, the_meet, "malfunctions"),
        **_group_context(the_meet, chosen),
    }
    if which == "malfunction":
        answer = _report(request, posted["report"], base)
        if answer is not None:
            return answer
    elif which in COMPENSATORY_ACTIONS:
        service, said = COMPENSATORY_ACTIONS[which]
        result = run(posted[which], service, actor=official(request))
        if result is not None:
            return done(request, said(result))
    context = {
        **base,
        "facts": meet_facts(the_meet),
        "report": posted["report"],
        "grant": posted["grant"],
        "record": posted["compensatory"],
    }
    return page(request, "manage/malfunctions.html", context, failed=bool(which))


def _malfunction_forms(
    request: HttpRequest, meet: m.Meet, chosen: int | None, which: str
) -> dict[str, forms.Form]:
    """The malfunctions page's forms (the report, and the compensatory game's two), the
    posted one bound."""
    games, players = _games(meet, chosen), meet_group_players(meet, group=chosen)

    def bound(name: str) -> dict[str, Any]:
        # Three forms with the same field names on one page: each has ids of its own, so
        # each label names its own field.
        return {
            "data": request.POST if which == name else None,
            "games": games,
            "players": players,
            "auto_id": f"id_{name}_%s",
        }

    return {
        "report": MalfunctionForm(**bound("malfunction")),
        "grant": CompensatoryRequestForm(**bound("grant")),
        "compensatory": CompensatoryGameForm(**bound("compensatory")),
    }


def _report(request: HttpRequest, report: forms.Form, base: dict[str, Any]) -> HttpResponse | None:
    """Report a malfunction (report_malfunction). A game-ending event is shown for review
    first, and recorded once the official confirms it. None: the report was refused (its
    form says why)."""
    assert isinstance(report, MalfunctionForm)
    review = _game_ending_review(request, report)
    if isinstance(review, _Review):  # a game-ending event not confirmed yet: show it first
        context = {**base, "report": report, "ending": review.ending, "balls": review.balls}
        failed = review.ending is None or bool(review.balls.errors)
        return records_nothing(
            page(request, "manage/malfunction_review.html", context, failed=failed)
        )
    reported = run(report, _reporting(review), actor=official(request))
    return done(request, _reported_message(reported)) if reported is not None else None


@dataclass(frozen=True)
class _Review:
    """What a game-ending malfunction gives each player, shown before the official confirms;
    `ending` None when the report itself was refused (its errors are on the report form)."""

    ending: GameEnding | None
    balls: NextBallsForm


@dataclass(frozen=True)
class _Reviewed:
    """What the official confirmed on the review of a game-ending malfunction: the other
    players' next balls and the extra balls they had collected (R7.3-l)."""

    next_balls: dict[int, int]
    extra_balls: dict[int, int]


def _reporting(review: _Reviewed | None) -> Callable[..., ReportedMalfunction]:
    """report_malfunction, with what the official confirmed on the review of a game-ending
    event: the other players' next balls, and their extra balls beside the reporting
    player's."""
    if review is None:
        return services.report_malfunction

    def reported(*, extra_balls: dict[int, int], **arguments: Any) -> ReportedMalfunction:
        return services.report_malfunction(
            **arguments,
            next_balls=review.next_balls,
            extra_balls={**review.extra_balls, **extra_balls},
        )

    return reported


def _game_ending_review(
    request: HttpRequest, report: MalfunctionForm
) -> _Review | _Reviewed | None:
    """For a reason that ends the game (R7.3-h, R8.4-c): until the official confirms, what to
    show them (each player's malfunctions and compensatory game, who slam tilted on purpose,
    each player's next ball and extra balls to adjust); once confirmed, the balls set. None
    for any other report."""
    if not report.is_valid() or not ends_the_game(report.cleaned_data["reason_code"]):
        return None
    reviewed = "confirm" in request.POST  # posted from the review page
    d = report.cleaned_data

    def preview(form: forms.Form, told: _Reviewed | None) -> GameEnding | None:
        # The report's game, player and ball, with the balls the review gave.
        return attempt(
            form,
            lambda: services.preview_game_ending(
                game=d["game"],
                player=d["player"],
                ball=d["ball"],
                ball_in_play=d["ball_in_play"],
                slammer=d["slammer"],
                next_balls=told.next_balls if told else None,
                extra_balls={**(told.extra_balls if told else {}), **d["extra_balls"]},
            ),
        )

    first = preview(report, None)
    if first is None:
        return _Review(None, NextBallsForm(owed=()))
    others = [
        (o.player_id, o.name, o.next_ball) for o in first.owed if o.player_id != d["player"].pk
    ]
    balls = NextBallsForm(request.POST if reviewed else None, owed=others)
    if not reviewed or not balls.is_valid():
        return _Review(first, balls)
    told = _Reviewed(next_balls=balls.next_balls(), extra_balls=balls.extra_balls())
    if request.POST["confirm"] == "yes":
        return told
    return _Review(preview(balls, told) or first, balls)


def _reported_message(reported: ReportedMalfunction) -> str:
    """What the console says once a malfunction is recorded."""
    if reported.ending is not None:
        owed = "; ".join(f"{o.name}: {o.words}" for o in reported.ending.owed)
        return f"Recorded: the game ended. {owed}. Grant each compensatory game below."
    extra = []
    if reported.entitled:
        extra.append("They may now have a compensatory game.")
    if reported.machine_unplayable:
        extra.append("The machine is now unplayable for the meet (R7.3-r).")
    kind = reported.ruling.kind.replace("_", " ")
    return (
        f"Recorded as a {kind} malfunction ({reported.ruling.rule}): "
        f"{reported.ruling.reason}. {' '.join(extra)}"
    ).strip()


@console_page(LO_ONLY)
def violations(request: HttpRequest, league: m.League, role: str, meet_id: int) -> HttpResponse:
    """Violations (record_violation), with the penalty decision the rules give, and the
    rulings about a player's turn (record_turn_ruling: a slow-play warning, ...)."""
    the_meet = meet_of(league, meet_id)
    chosen = _chosen_group(request, the_meet)
    games, players = _games(the_meet, chosen), meet_players(the_meet, group=chosen)
    turn = TurnRulingForm(
        request.POST if action(request) == "turn_ruling" else None,
        games=games,
        players=meet_group_players(the_meet, group=chosen),
        auto_id="id_turn_%s",  # its fields' names are the violation form's too
    )
    ruled = run(turn, services.record_turn_ruling, actor=official(request))
    if ruled is not None:
        return done(request, f"Recorded: {ruled.subject}.")
    posted = request.method == "POST" and not turn.is_bound
    form = ViolationForm(request.POST if posted else None, games=games, players=players)
    recorded = None
    if posted:
        recorded = run(form, services.record_violation, meet=the_meet, actor=official(request))
    decision = None if recorded is None else recorded.decision
    context = {
        **_base(league, role, the_meet, "violations"),
        **_group_context(the_meet, chosen),
        "facts": meet_facts(the_meet),
        "form": ViolationForm(games=games, players=players) if decision is not None else form,
        "decision": decision,
        "turn_form": turn,
        "turn_kinds": KINDS.values(),
    }
    return render(
        request,
        "manage/violations.html",
        context,
        status=400 if request.method == "POST" and decision is None else 200,
    )


@console_page(LO_ONLY)
def corrections(request: HttpRequest, league: m.League, role: str, meet_id: int) -> HttpResponse:
    """Corrections of confirmed games: request one (request_correction, an override reason
    after the close) and record each asked player's answer (respond_to_correction)."""
    the_meet = meet_of(league, meet_id)
    board = meet_board(the_meet) if the_meet.status != m.Meet.Status.PLANNED else None
    which = action(request)
    game_id = parse_id(request.POST.get("game") or request.GET.get("game"))
    game = game_of(the_meet, game_id) if game_id is not None else None
    group = None
    if game is not None and board is not None:
        group = next(g for g in board.groups if g.id == game.group_id)
    players = [(p, group.names[p]) for p in group.players] if group else []
    form = ConsoleCorrectionForm(request.POST if which == "request" else None, players=players)
    answer = AnswerForm(request.POST if which == "answer" else None, meet=the_meet)
    if which == "request" and game is not None:
        made = run(form, services.request_correction, game=game, actor=official(request))
        if made is not None:
            return done(request, "Correction requested: record each asked player's answer.")
    elif which == "answer":
        answered = run(answer, services.respond_to_correction, actor=official(request))
        if answered is not None:
            status = answered.outcome.status
            return done(request, f"Answer recorded: the correction is {status}.")
    context = {
        **_base(league, role, the_meet, "corrections"),
        "facts": meet_facts(the_meet),
        "board": board,
        "games": _games(the_meet),
        "game": game,
        "form": form,
        "answer": answer,
        "group_names": {g.id: g.names for g in board.groups} if board else {},
        "photos": game_photos([game.pk]).get(game.pk, ()) if game is not None else (),
    }
    return page(request, "manage/corrections.html", context, failed=bool(which))
