"""The permission matrix of the services (issue 26 §6): every service that takes an actor,
called by a scorekeeper of the league, by a league official (LO) of another league and by
nobody signed in, is refused with PermissionDenied and writes nothing (no row of any model, no
audit event). The LO of the league is the one who may; each call below is one he could make.

The calls are listed by hand (a service needs real arguments), but which services must be
listed is found: every exported service with an ``actor`` parameter. A new service that is
not in CALLS, nor in PLAYER_ACTS with a reason, fails
`test_every_service_with_an_actor_is_in_the_matrix`.

A refusal must be PermissionDenied, not any error: with the permission check deleted the same
call either writes (the arguments are an LO's valid call) or fails another way, and the test
fails. `scripts/mutate_permissions.py` deletes each check in turn to prove it.
"""

from __future__ import annotations

import datetime
import inspect
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied, ValidationError

from flipwell.league import models as m
from flipwell.league import services
from tests import factories as f
from tests.golden import golden_data
from tests.league.league_night import DATE, Night, build_night, game, start
from tests.league.season_calls import first_meet
from tests.rows import row_counts
from tests.shared_rows import own_copy

pytestmark = pytest.mark.django_db

KEEPER, OTHER, ANON = "scorekeeper", "other league's official", "signed out"
ROLES = (KEEPER, OTHER, ANON)
GOLDEN = golden_data()

# Services a player does through his own score sheet or personal link: their `actor` is
# optional and only says which official helped; the sheet's or link's token is the permission,
# checked at the web and API edges (tests/web/test_permissions.py, tests/api). A correction of
# a closed meet is an LO's decision: `request_correction` is in CALLS for that path.
PLAYER_ACTS = {
    "submit_scores": "a group's own score entry (sheet token)",
    "confirm_scores": "a group's own confirmation (sheet token)",
    "respond_to_correction": "a group member's answer to a correction (sheet token)",
    "choose_next_machine": "a group's own pick of its next machine (sheet token)",
    "attach_photo": "a group's own photo of its score (sheet token; a token's scope, API)",
    "request_playoff_correction": "a playoff match's own correction (match sheet; a token's "
    "scope, API: the actor is only recorded)",
    "answer_playoff_correction": "a playoff match player's answer to it (match sheet; a "
    "token's scope, API)",
}


@dataclass
class World:
    """League A's night (meet 1 open, meet 2 scheduled) and the people who try to act in it."""

    night: Night
    meet: m.Meet
    planned: m.Meet
    keeper: User
    other: User
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def lo(self) -> User:
        return self.night.user

    @property
    def league(self) -> m.League:
        return self.night.league

    @property
    def other_league(self) -> m.League:
        return m.LeagueOfficial.objects.get(user=self.other).league

    @property
    def season(self) -> m.Season:
        return self.night.season

    @property
    def game(self) -> m.Game:
        return game(self.meet, 1, 1)

    def members(self, group: int = 1) -> list[m.Player]:
        return [
            row.player
            for row in m.GroupMember.objects.filter(group__meet=self.meet, group__number=group)
            .select_related("player")
            .order_by("position")
        ]

    def actor(self, role: str) -> Any:
        return {KEEPER: self.keeper, OTHER: self.other, ANON: AnonymousUser()}[role]


@dataclass(frozen=True)
class Call:
    """One service call an LO of the league may make; `may` are the other roles allowed."""

    service: str
    act: Callable[[World, Any], object]
    arrange: Callable[[World], None] = lambda world: None
    may: frozenset[str] = frozenset()
    label: str = ""
    allowed: Callable[[World], User] = lambda world: world.lo  # who may: the league's LO

    @property
    def id(self) -> str:
        return f"{self.service}{':' + self.label if self.label else ''}"


def _link(world: World) -> None:
    player = world.night.players[0]
    world.extra["link"] = services.issue_player_link(
        season=world.season, player=player, actor=world.lo
    )


def _token(world: World) -> None:
    issued = services.issue_api_token(
        league=world.league, name="scoreboard", scopes=["scores"], actor=world.lo
    )
    world.extra["token"] = issued.token


def _merge(world: World) -> None:
    # Two rows of one person, each entered in its own season of the league.
    kept = f.SeasonEntryFactory(season=world.season).player
    merged = f.SeasonEntryFactory(season=f.SeasonFactory(league=world.league)).player
    world.extra["merge"] = services.merge_players(
        league=world.league, kept=kept, merged=merged, reason="One person", actor=world.lo
    )


def _closed(world: World) -> None:
    # A closed meet, as an LO's close would leave it (closing needs every game played).
    m.Meet.objects.filter(pk=world.meet.pk).update(status=m.Meet.Status.CLOSED)


def _next_season(world: World) -> None:
    # A season being prepared, while the season shown has no meet open.
    _closed(world)
    world.extra["next"] = services.start_next_season(
        season=world.season, name="Spring", actor=world.lo
    )


def _asked(world: World) -> None:
    # The players of the season asked about the next one, its sign-up form open.
    call = services.ask_next_season(
        season=world.season, name="Next", weekday=world.season.weekday,
        starts_on=first_meet(world.season.weekday), actor=world.lo,
    )  # fmt: skip
    world.extra["call"] = services.set_signups_open(call=call, open_now=True, actor=world.lo)


def _signed_up(world: World) -> None:
    _asked(world)
    world.extra["signup"] = services.sign_up(
        league=world.league, first_name="Eve", last_name="Newcomer", email="eve@example.org"
    )


RANKS = "first_name,last_name,ifpa_number,ifpa_rank\n"


RULING = {
    "machine_title": "Cosmic Gunfight",
    "kind": "not_a_malfunction",
    "text": "A ball trapped on the upper flipper for 30 seconds is not a malfunction.",
    "reproducible": True,
    "reproduction": "Cradle on the upper flipper.",
    "cause_and_effect": "The ball search waits for the flipper to be released.",
}

CALLS = [
    # meets
    Call("schedule_meet", lambda w, a: services.schedule_meet(
        season=w.season, number=3, date=DATE + datetime.timedelta(days=14), actor=a)),
    Call("announce_absence", lambda w, a: services.announce_absence(
        meet=w.planned, player=w.night.players[0], actor=a)),
    Call("announce_lateness", lambda w, a: services.announce_lateness(
        meet=w.planned, player=w.night.players[0], actor=a)),
    Call("withdraw_announcement", lambda w, a: services.withdraw_announcement(
        meet=w.planned, player=w.night.players[0], kind="absence", actor=a),
        arrange=lambda w: services.announce_absence(
            meet=w.planned, player=w.night.players[0], actor=w.lo) and None),
    Call("start_meet", lambda w, a: services.start_meet(
        season=w.season, number=2, date=w.planned.date, seed=1, actor=a)),
    Call("reschedule_meet", lambda w, a: services.reschedule_meet(
        meet=w.planned, date=w.planned.date + datetime.timedelta(days=1), reason="Venue closed",
        actor=a)),
    Call("cancel_meet", lambda w, a: services.cancel_meet(
        meet=w.planned, reason="Venue closed", actor=a)),
    Call("close_meet", lambda w, a: services.close_meet(
        meet=w.meet, override_reason="Closing early", actor=a)),
    # forfeits and late arrivals: a scorekeeper's work, but a non-countable forfeit is an LO's
    Call("record_forfeit", lambda w, a: services.record_forfeit(
        game=w.game, player=w.members()[0], actor=a), may=frozenset({KEEPER})),
    Call("record_forfeit", lambda w, a: services.record_forfeit(
        game=w.game, player=w.members()[0], countable=False, reason="other", actor=a),
        label="non-countable"),
    Call("designate_forfeit_non_countable", lambda w, a: services.designate_forfeit_non_countable(
        game=w.game, player=w.members()[0], reason="Called away by the venue", actor=a),
        arrange=lambda w: services.record_forfeit(
            game=w.game, player=w.members()[0], actor=w.lo) and None),
    Call("record_late_join", lambda w, a: services.record_late_join(
        game=w.game, player=w.members()[0], machine_allows_joining=True,
        last_player_not_past_ball_1=True, actor=a), may=frozenset({KEEPER})),
    Call("designate_late_join_forfeits", lambda w, a: services.designate_late_join_forfeits(
        season=w.season, player=w.night.players[0], countable=False, reason="Joined late",
        actor=a)),
    # people
    Call("register_player", lambda w, a: services.register_player(
        season=w.season, first_name="Dee", last_name="Cruz", actor=a)),
    Call("edit_player", lambda w, a: services.edit_player(
        season=w.season, player=w.night.players[0], first_name="Renamed", last_name="Player",
        ifpa_number=None, actor=a)),
    Call("import_players_csv", lambda w, a: services.import_players_csv(
        season=w.season, csv_text="first_name,last_name,ifpa_number,ifpa_rank\nDee,Cruz,,\n",
        actor=a)),
    Call("merge_players", lambda w, a: services.merge_players(
        league=w.league, kept=w.night.players[0], merged=w.night.players[1], reason="Same",
        actor=a)),
    Call("check_merge_players", lambda w, a: services.check_merge_players(
        league=w.league, kept=w.night.players[0], merged=w.night.players[1], actor=a)),
    Call("merge_players", lambda w, a: services.merge_players(
        league=w.other_league, kept=w.night.players[0], merged=w.night.players[1],
        reason="Same", actor=a),
        allowed=lambda w: f.UserFactory(is_superuser=True), label="from another league"),
    Call("merge_players", lambda w, a: services.merge_players(
        league=w.other_league, kept=w.extra["rows"][0], merged=w.extra["rows"][1],
        reason="Same", actor=a),
        arrange=lambda w: w.extra.update(rows=[f.PlayerFactory(), f.PlayerFactory()]),
        allowed=lambda w: f.UserFactory(is_superuser=True), label="rows entered nowhere"),
    Call("undo_player_merge", lambda w, a: services.undo_player_merge(
        league=w.league, merge=w.extra["merge"], reason="Two people", actor=a), arrange=_merge),
    Call("set_notice_preferences", lambda w, a: services.set_notice_preferences(
        league=w.league, player=w.night.players[0], email="dee@example.org",
        kinds=["results"], actor=a)),
    Call("issue_player_links", lambda w, a: services.issue_player_links(
        season=w.season, actor=a)),
    Call("issue_player_link", lambda w, a: services.issue_player_link(
        season=w.season, player=w.night.players[0], actor=a)),
    Call("revoke_player_link", lambda w, a: services.revoke_player_link(
        link=w.extra["link"], actor=a), arrange=_link),
    Call("change_ruleset_setting", lambda w, a: services.change_ruleset_setting(
        league=w.league, setting="season_forfeit_limit", value="10", reason="Shorter",
        actor=a),
        arrange=lambda w: f.SeasonFactory(
            league=w.league, created_at=datetime.datetime(2027, 1, 1, tzinfo=datetime.UTC))),
    Call("change_ifpa_figure", lambda w, a: services.change_ifpa_figure(
        league=w.league, figure="min_sessions", value="5", reason="The IFPA lowered it",
        actor=a)),
    # money
    Call("record_ledger_entry", lambda w, a: services.record_ledger_entry(
        league=w.league, kind="kitty_in", account="kitty", amount_cents=500, actor=a)),
    Call("reverse_ledger_entry", lambda w, a: services.reverse_ledger_entry(
        entry=w.extra["entry"], reason="Typed twice", actor=a),
        arrange=lambda w: w.extra.update(entry=services.record_ledger_entry(
            league=w.league, kind="kitty_in", account="kitty", amount_cents=500,
            actor=w.lo))),
    # malfunctions and machines
    Call("report_malfunction", lambda w, a: services.report_malfunction(
        game=w.game, player=w.members()[0], ball=1, reason_code="forced_tilt_stuck_ball",
        actor=a)),
    Call("request_compensatory_game", lambda w, a: services.request_compensatory_game(
        game=w.game, player=w.members()[0], actor=a)),
    Call("record_compensatory_game", lambda w, a: services.record_compensatory_game(
        game=w.game, player=w.members()[0], new_score=1000, actor=a)),
    Call("record_positive_malfunction_replay", lambda w, a:
        services.record_positive_malfunction_replay(
            game=w.game, discard_scores_of=w.members()[:1], reason="Multiball lock", actor=a)),
    Call("record_replay_scores", lambda w, a: services.record_replay_scores(
        game=w.game, scores={p: 100 * (i + 1) for i, p in enumerate(w.members())},
        entered_by=w.members()[0], confirmed_by=w.members()[1], actor=a),
        may=frozenset({KEEPER})),
    Call("declare_machine_unplayable", lambda w, a: services.declare_machine_unplayable(
        meet=w.meet, machine=w.night.machines[-1], reason="Dead flipper", actor=a)),
    Call("declare_machine_repaired", lambda w, a: services.declare_machine_repaired(
        meet=w.meet, machine=w.night.machines[-1], reason="Fixed", actor=a)),
    Call("announce_machine_problem", lambda w, a: services.announce_machine_problem(
        meet=w.meet, machine=w.night.machines[-1], problem="Weak left flipper", actor=a)),
    Call("replace_machine", lambda w, a: services.replace_machine(
        game=w.game, reason="Dead flipper", seed=1, actor=a)),
    Call("official_chooses_next_machine", lambda w, a: services.official_chooses_next_machine(
        group=w.game.group, machine=None, seed=1, actor=a)),
    Call("record_match_absence", lambda w, a: services.record_match_absence(
        group=w.game.group, players=w.members(), seed=1, actor=a)),
    Call("withdraw_match_absence", lambda w, a: services.withdraw_match_absence(
            group=w.game.group, player=w.members()[3], reason="Wrong player", actor=a),
        arrange=lambda w: services.record_match_absence(
            group=w.game.group, players=w.members()[3:], actor=w.lo)),
    Call("create_machine", lambda w, a: services.create_machine(
        league=w.league, title="Cosmic Gunfight", balls_per_game=3, actor=a)),
    Call("create_machines", lambda w, a: services.create_machines(
        league=w.league, titles=["Cosmic Gunfight", "Medieval Madness"], balls_per_game=3,
        actor=a)),
    Call("update_machine", lambda w, a: services.update_machine(
        machine=w.night.machines[-1], location="Back room", actor=a)),
    Call("set_machine_status", lambda w, a: services.set_machine_status(
        machine=w.night.machines[-1], status="unavailable", reason="Sent for repair",
        actor=a)),
    Call("record_machine_repair", lambda w, a: services.record_machine_repair(
        machine=w.night.machines[-1], note="New flipper coil", actor=a)),
    Call("close_machine_problem_report", lambda w, a: services.close_machine_problem_report(
        report=w.extra["report"], reason="No fault found", actor=a),
        arrange=lambda w: w.extra.update(report=services.report_machine_problem(
            machine=w.night.machines[-1], text="Left flipper weak"))),
    Call("load_appendix_a", lambda w, a: services.load_appendix_a(league=w.league, actor=a)),
    Call("add_special_ruling", lambda w, a: services.add_special_ruling(
        league=w.league, actor=a, **RULING)),
    Call("amend_special_ruling", lambda w, a: services.amend_special_ruling(
        league=w.league, ruling=w.extra["ruling"], reason="Clearer", actor=a,
        **{k: v for k, v in RULING.items() if k != "machine_title"}),
        arrange=lambda w: w.extra.update(ruling=services.add_special_ruling(
            league=w.league, actor=w.lo, **RULING))),
    Call("copy_special_ruling", lambda w, a: services.copy_special_ruling(
        league=w.league, source=w.extra["source"], actor=a),
        arrange=lambda w: w.extra.update(source=f.SpecialRulingFactory(
            machine_title="Ghostbusters", reproduction_notes="Shoot the ramp."))),
    # violations
    Call("record_violation", lambda w, a: services.record_violation(
        meet=w.meet, player=w.members()[1], kind="interference", games_completed=0,
        reason="Nudged the machine", actor=a)),
    Call("record_victim_remedy", lambda w, a: services.record_victim_remedy(
        violation=w.extra["violation"], victim=w.members()[0], announced="extra_ball",
        actor=a),
        arrange=lambda w: w.extra.update(violation=f.ViolationFactory(
            meet=w.meet, player=w.members()[1], kind="opponents_ball", serious=False,
            official=w.lo))),
    Call("record_turn_ruling", lambda w, a: services.record_turn_ruling(
        kind="slow_play_warning", game=w.game, player=w.members()[0], reason="Slow to begin",
        actor=a)),
    # Free (price 0): a restart with a charge would be refused by the ledger's own check
    # too, and the restart's check would go untested.
    Call("record_game_restart", lambda w, a: services.record_game_restart(
        game=w.game, responsible=w.members()[0], games_started=1, game_price_cents=0,
        actor=a)),
    Call("request_correction", lambda w, a: services.request_correction(
        game=w.game, scores={w.members()[0]: 5}, requested_by=w.members()[0],
        reason="Typo", override_reason="Seen on the machine", actor=a),
        arrange=_closed, label="closed meet"),
    Call("remove_meet_photos", lambda w, a: services.remove_meet_photos(
        meet=w.meet, reason="The season is over", actor=a), arrange=_closed),
    # the league and its seasons
    Call("open_league", lambda w, a: services.open_league(
        name="Hijack League", slug="hijack", actor=a),
        allowed=lambda w: f.UserFactory(is_staff=True)),  # staff open leagues
    Call("create_season", lambda w, a: services.create_season(
        league=w.league, name="Summer", weekday=1, start_time=datetime.time(19),
        number_of_meets=5, actor=a)),
    Call("start_next_season", lambda w, a: services.start_next_season(
        season=w.season, name="Next", actor=a)),
    Call("publish_season", lambda w, a: services.publish_season(
        season=w.extra["next"], actor=a), arrange=_next_season),
    # the next season's question and sign-ups
    Call("ask_next_season", lambda w, a: services.ask_next_season(
        season=w.season, name="Next", weekday=w.season.weekday,
        starts_on=first_meet(w.season.weekday), actor=a)),
    Call("set_signups_open", lambda w, a: services.set_signups_open(
        call=w.extra["call"], open_now=False, actor=a), arrange=_asked),
    Call("accept_signup", lambda w, a: services.accept_signup(
        signup=w.extra["signup"], actor=a), arrange=_signed_up),
    Call("refuse_signup", lambda w, a: services.refuse_signup(
        signup=w.extra["signup"], reason="The league is full", actor=a), arrange=_signed_up),
    Call("change_season_schedule", lambda w, a: services.change_season_schedule(
        season=w.extra["next"], weekday=3, actor=a), arrange=_next_season),
    Call("cut_season", lambda w, a: services.cut_season(
        season=w.season, number_of_meets=1, reason="The venue closes", actor=a)),
    Call("refresh_ifpa_ranks", lambda w, a: services.refresh_ifpa_ranks(
        season=w.extra["next"], csv_text=RANKS, actor=a), arrange=_next_season),
    Call("import_season_file", lambda w, a: services.import_season_file(
        league=w.league, name="Imported", data=GOLDEN, first_meet=datetime.date(2026, 1, 7),
        actor=a)),
    Call("invite_official", lambda w, a: services.invite_official(
        league=w.league, who="newbie", role="league_official", actor=a)),
    Call("withdraw_invitation", lambda w, a: services.withdraw_invitation(
        invitation=w.extra["invitation"], actor=a),
        arrange=lambda w: w.extra.update(invitation=services.invite_official(
            league=w.league, who="newbie", role="scorekeeper", actor=w.lo))),
    Call("change_official_role", lambda w, a: services.change_official_role(
        official=w.extra["official"], role="league_official", actor=a),
        arrange=lambda w: w.extra.update(official=f.LeagueOfficialFactory(
            league=w.league, role=m.LeagueOfficial.Role.SCOREKEEPER))),
    Call("remove_official", lambda w, a: services.remove_official(
        official=w.extra["official"], actor=a),
        arrange=lambda w: w.extra.update(official=f.LeagueOfficialFactory(league=w.league))),
    Call("link_official_player", lambda w, a: services.link_official_player(
        official=w.night.official, player=w.night.players[0], actor=a)),
    Call("issue_api_token", lambda w, a: services.issue_api_token(
        league=w.league, name="scoreboard", scopes=["scores"], actor=a)),
    Call("revoke_api_token", lambda w, a: services.revoke_api_token(
        token=w.extra["token"], actor=a), arrange=_token),
    # the playoffs (meets not finished: an LO's call is refused for that, after the check)
    Call("qualify_for_playoffs", lambda w, a: services.qualify_for_playoffs(
        season=w.season, date=DATE + datetime.timedelta(days=90), actor=a)),
    Call("record_seed_playoff", lambda w, a: services.record_seed_playoff(
        season=w.season, order=w.night.players[:2], actor=a)),
    Call("record_withdrawal", lambda w, a: services.record_withdrawal(
        season=w.season, player=w.night.players[0], actor=a)),
    Call("close_playoff_night", lambda w, a: services.close_playoff_night(
        season=w.season, actor=a)),
    Call("start_playoff_game", lambda w, a: services.start_playoff_game(
        season=w.season, division="A", match="1", actor=a)),
    Call("record_playoff_game", lambda w, a: services.record_playoff_game(
        season=w.season, division="A", match="1", order=w.night.players[:4], actor=a)),
    Call("record_playoff_tiebreaker", lambda w, a: services.record_playoff_tiebreaker(
        season=w.season, division="A", match="1", order=w.night.players[:2], actor=a)),
    Call("record_no_show", lambda w, a: services.record_no_show(
        season=w.season, division="A", match="1", player=w.night.players[0], actor=a)),
    Call("record_playoff_lateness_notice", lambda w, a:
        services.record_playoff_lateness_notice(
            season=w.season, division="A", match="1", player=w.night.players[0], actor=a)),
]  # fmt: skip

CASES = [
    pytest.param(call, role, id=f"{call.id}:{role}")
    for call in CALLS
    for role in ROLES
    if role not in call.may
]


def actor_services() -> set[str]:
    """Every exported service whose signature takes an `actor`."""
    return {
        name
        for name in services.__all__
        if callable(fn := getattr(services, name))
        and inspect.isfunction(fn)
        and "actor" in inspect.signature(fn).parameters
    }


@pytest.fixture(scope="module")
def shared_world(module_rows) -> World:
    """The league every test of this module starts from, built once (tests/conftest.py's
    ``module_rows``): each test gets a copy and its writes are rolled back."""
    night = build_night()
    meet = start(night)
    planned = services.schedule_meet(
        season=night.season, number=2, date=DATE + datetime.timedelta(days=7), actor=night.user
    )
    keeper = f.LeagueOfficialFactory(league=night.league, role=m.LeagueOfficial.Role.SCOREKEEPER)
    other = f.LeagueOfficialFactory()  # a league official of another league
    return World(night=night, meet=meet, planned=planned, keeper=keeper.user, other=other.user)


@pytest.fixture
def world(shared_world: World, db) -> World:
    return own_copy(shared_world)


def test_every_service_with_an_actor_is_in_the_matrix():
    """issue 26 §6: a new service that takes an actor is in CALLS (or is a player's own act)."""
    listed = {call.service for call in CALLS}

    missing = actor_services() - listed - set(PLAYER_ACTS)

    assert missing == set(), f"add a call for {sorted(missing)} to CALLS in {__file__}"
    assert listed - actor_services() == set()


@pytest.mark.parametrize(("call", "role"), CASES)
def test_service_refuses_role_and_writes_nothing(world, call, role):
    """issue 26 §6: refused with PermissionDenied, and not one row written anywhere."""
    call.arrange(world)
    before = row_counts()

    with pytest.raises(PermissionDenied):
        call.act(world, world.actor(role))

    assert row_counts() == before


@pytest.mark.parametrize("call", CALLS, ids=[call.id for call in CALLS])
def test_service_lets_the_league_official_past_the_check(world, call):
    """issue 26 §6: each call is one the LO may make (so a refusal above is the check's): he,
    and the roles the call lets through, are not refused, whatever the league's state says of
    it afterwards (a ValidationError: the playoffs before the season is over)."""
    call.arrange(world)
    refused = []

    for actor in [call.allowed(world), *(world.actor(role) for role in sorted(call.may))]:
        try:
            call.act(world, actor)
        except ValidationError:
            pass  # past the permission check: the league's state refuses it
        except PermissionDenied:
            refused.append(actor)

    assert refused == []


# A change another league shows (a name, a merge) is an LO's of every league the player plays
# in (issue 26 §1): the league's own LO, not an LO of the other league, is refused.
SHARED = {
    "edit_player": lambda w, shared, row: services.edit_player(
        season=w.season, player=shared, first_name="Renamed", last_name="Player",
        ifpa_number=None, actor=w.lo),
    "merge_players": lambda w, shared, row: services.merge_players(
        league=w.league, kept=row, merged=shared, reason="One person", actor=w.lo),
}  # fmt: skip


@pytest.mark.parametrize("change", SHARED.values(), ids=SHARED.keys())
def test_official_is_refused_a_change_another_league_shows(world, change):
    """issue 26 §1, §6: Ada plays in league B too; A's LO may not rename or merge her away,
    and nothing is written."""
    shared = world.night.players[0]
    f.SeasonEntryFactory(season=f.SeasonFactory(league=world.other_league), player=shared)
    row = f.SeasonEntryFactory(season=f.SeasonFactory(league=world.league)).player
    before = row_counts()

    with pytest.raises(PermissionDenied):
        change(world, shared, row)

    assert row_counts() == before
