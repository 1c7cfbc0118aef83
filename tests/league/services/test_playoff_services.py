"""The playoff night services (§6) on the golden season: qualify, settle ties, play, places,
lateness notices and no-shows."""

import datetime

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from flipwell.league import models as m
from flipwell.league.models.playoffs import PlayoffNoShow
from flipwell.league.selectors.playoffs.bracket import playoff_bracket
from flipwell.league.services.playoff_matches.games import record_playoff_game, start_playoff_game
from flipwell.league.services.playoff_matches.missing_players import (
    playoff_start,
    record_no_show,
    record_playoff_lateness_notice,
)
from flipwell.league.services.playoff_matches.tiebreakers import record_playoff_tiebreaker
from flipwell.league.services.playoffs import (
    close_playoff_night,
    qualify_for_playoffs,
    record_seed_playoff,
    record_withdrawal,
)
from flipwell.league.services.season_files import import_season_file
from tests import factories as f
from tests.golden import GOLDEN
from tests.playoff_night import NIGHT, play, player, players, qualify_and_settle_seeds

pytestmark = pytest.mark.django_db


def names(refs):
    return [ref.name.split()[0] for ref in refs]


def seeds(golden):
    return [
        (q.seed, q.player.first_name)
        for q in m.Qualifier.objects.filter(playoff_night__season=golden)
        .select_related("player")
        .order_by("seed")
    ]


def test_qualify_golden_season_returns_the_seeding_ties(golden, official):
    """21 eligible players (Gus forfeited the season, A05, A37): 12 qualify in one division
    (A01); Bea and Dee tie at 195, Pia and Hal at 184 (R6.1-e, A39)."""
    qualified = qualify_for_playoffs(season=golden, date=NIGHT, actor=official.user)
    qualification = qualified.qualification

    assert (qualification.league_size, qualification.cut) == (21, 12)
    assert (qualified.night, qualified.qualifiers) == (golden.playoff_night, [])
    assert [sorted(names_of(t.players)) for t in qualification.ties] == [
        ["Bea", "Dee"],
        ["Hal", "Pia"],
    ]
    assert [t.line for t in qualification.ties] == ["seeding", "seeding"]
    assert m.Qualifier.objects.count() == 0
    full = {str(p.pk): f"{p.first_name} {p.last_name}" for p in m.Player.objects.all()}
    assert playoff_bracket(golden).ties == tuple(t.render(full) for t in qualification.ties)
    assert all(p not in " ".join(playoff_bracket(golden).ties).split() for p in full)


def names_of(keys):
    return [m.Player.objects.get(pk=int(k)).first_name for k in keys]


def test_seed_playoffs_settle_the_seeds(golden, official):
    recorded = qualify_and_settle_seeds(golden, official)

    assert recorded.qualified.qualification.complete
    assert [p.player.first_name for p in recorded.places] == ["Pia", "Hal"]
    assert recorded.qualified.qualifiers == list(
        m.Qualifier.objects.filter(playoff_night__season=golden).order_by("seed")
    )
    assert seeds(golden) == [
        (1, "Cal"), (2, "Fay"), (3, "Dee"), (4, "Bea"), (5, "Ivy"), (6, "Jon"),
        (7, "Omar"), (8, "Pia"), (9, "Hal"), (10, "Eli"), (11, "Ned"), (12, "Rae"),
    ]  # fmt: skip
    assert m.Tiebreaker.objects.filter(purpose=m.Tiebreaker.Purpose.SEEDING).count() == 2


def test_seed_playoff_for_players_not_tied_refused(golden, official):
    qualify_for_playoffs(season=golden, date=NIGHT, actor=official.user)

    with pytest.raises(ValidationError, match="not one open tie") as caught:
        record_seed_playoff(season=golden, order=players("Cal", "Fay"), actor=official.user)
    assert m.Tiebreaker.objects.count() == 0
    (message,) = caught.value.message_dict["order"]
    bea, dee = (f"{p.first_name} {p.last_name}" for p in players("Bea", "Dee"))
    assert f"{bea} and {dee}" in message or f"{dee} and {bea}" in message


def test_qualify_before_the_last_meet_is_closed_refused(official):
    """R6.1-d: entry is decided after the final regular week."""
    season = import_season_file(
        league=official.league,
        name="Short",
        data={**GOLDEN, "meets": GOLDEN["meets"][:9], "number_of_meets": 10},
        first_meet=datetime.date(2026, 1, 7),
        actor=official.user,
    )

    with pytest.raises(ValidationError, match="closed 9 of its 10 meets"):
        qualify_for_playoffs(season=season, date=NIGHT, actor=official.user)
    assert m.PlayoffNight.objects.count() == 0


def test_qualify_by_a_scorekeeper_refused(golden):
    scorekeeper = f.LeagueOfficialFactory(
        league=golden.league, role=m.LeagueOfficial.Role.SCOREKEEPER
    )

    with pytest.raises(PermissionDenied):
        qualify_for_playoffs(season=golden, date=NIGHT, actor=scorekeeper.user)


def test_cut_override_without_reason_refused(golden, official):
    with pytest.raises(ValidationError, match="needs a reason"):
        qualify_for_playoffs(season=golden, date=NIGHT, actor=official.user, cut=16)


def test_cut_override_below_half_refused(golden, official):
    """R6.2-b, A06: at least half of the 21 eligible players must qualify."""
    with pytest.raises(ValidationError, match="at least 11 must qualify"):
        qualify_for_playoffs(
            season=golden, date=NIGHT, actor=official.user, cut=8, cut_reason="short night"
        )
    assert m.Ruling.objects.count() == 0


def test_cut_override_is_logged_as_a_ruling(golden, official):
    qualification = qualify_for_playoffs(
        season=golden, date=NIGHT, actor=official.user, cut=16, cut_reason="two divisions"
    ).qualification

    ruling = m.Ruling.objects.get(kind="playoff_cut_override")
    assert (qualification.cut, ruling.official, ruling.reason) == (
        16,
        official.user,
        "two divisions",
    )


def test_withdrawal_moves_everyone_below_up(golden, official):
    """R6.6-b: seeds below Ned move up one, and Kim, the best non-qualifier, enters (A41)."""
    qualify_and_settle_seeds(golden, official)

    recorded = record_withdrawal(season=golden, player=player("Ned"), actor=official.user)

    assert seeds(golden)[-2:] == [(11, "Rae"), (12, "Kim")]
    assert recorded.withdrawal == m.Withdrawal.objects.get()
    assert recorded.withdrawal.recorded_by == official.user
    assert "Kim" in names_of(recorded.qualified.qualification.seedings[0].seeds)


def test_withdrawal_after_play_started_refused(golden, official):
    qualify_and_settle_seeds(golden, official)
    start_playoff_game(season=golden, division="A", match="QF1", actor=official.user)

    with pytest.raises(ValidationError, match="bracket is fixed"):
        record_withdrawal(season=golden, player=player("Ned"), actor=official.user)
    assert m.Withdrawal.objects.count() == 0


def test_game_one_machine_chosen_by_hand_refused(golden, official):
    """R6.4-b: the first machine of each playoff match is random."""
    qualify_and_settle_seeds(golden, official)
    machine = m.Machine.objects.filter(league=golden.league).first()

    with pytest.raises(ValidationError, match="drawn at random"):
        start_playoff_game(
            season=golden, division="A", match="QF1", machine=machine, actor=official.user
        )
    assert m.PlayoffGame.objects.count() == 0


def test_semifinal_cannot_start_before_its_quarterfinal(golden, official):
    """R6.3-j: SF1 waits for the top 2 of QF1."""
    qualify_and_settle_seeds(golden, official)

    with pytest.raises(ValidationError, match="top 2 of QF1"):
        start_playoff_game(season=golden, division="A", match="SF1", actor=official.user)


def test_machine_repeated_in_a_match_refused(golden, official):
    """A44: no machine repeats within one playoff match."""
    qualify_and_settle_seeds(golden, official)
    first = start_playoff_game(season=golden, division="A", match="QF1", actor=official.user)
    record_playoff_game(
        season=golden,
        division="A",
        match="QF1",
        order=players("Ivy", "Pia", "Hal", "Rae"),
        actor=official.user,
    )

    with pytest.raises(ValidationError, match="already played in this match"):
        start_playoff_game(
            season=golden, division="A", match="QF1", machine=first.machine, actor=official.user
        )


def test_game_result_missing_a_player_refused(golden, official):
    qualify_and_settle_seeds(golden, official)
    start_playoff_game(season=golden, division="A", match="QF1", actor=official.user)

    with pytest.raises(ValidationError) as caught:
        record_playoff_game(
            season=golden,
            division="A",
            match="QF1",
            order=players("Ivy", "Pia", "Hal"),
            actor=official.user,
        )
    assert m.PlayoffResult.objects.count() == 0
    rae = player("Rae")
    assert caught.value.message_dict["order"] == [
        f"game 1 of QF1 is missing {rae.first_name} {rae.last_name}"
    ]


def test_game_recorded_as_scores_with_a_tie_order(golden, official):
    """A54, R3.2-i: equal machine scores are ordered by the one-ball playoff recorded."""
    qualify_and_settle_seeds(golden, official)
    start_playoff_game(season=golden, division="A", match="QF1", actor=official.user)

    record_playoff_game(
        season=golden,
        division="A",
        match="QF1",
        scores={
            player("Ivy"): 90_000,
            player("Pia"): 50_000,
            player("Hal"): 50_000,
            player("Rae"): 10_000,
        },
        tie_orders=[players("Hal", "Pia")],
        actor=official.user,
    )

    view = playoff_bracket(golden).divisions[0].matches[0]
    assert names(view.games[0].order) == ["Ivy", "Hal", "Pia", "Rae"]
    assert {r.name.split()[0]: t for r, t in view.totals} == {
        "Ivy": 4, "Hal": 2, "Pia": 1, "Rae": 0,
    }  # fmt: skip


def test_tied_scores_without_an_order_refused(golden, official):
    qualify_and_settle_seeds(golden, official)
    start_playoff_game(season=golden, division="A", match="QF1", actor=official.user)

    with pytest.raises(ValidationError) as caught:
        record_playoff_game(
            season=golden,
            division="A",
            match="QF1",
            scores={player("Ivy"): 9, player("Pia"): 5, player("Hal"): 5, player("Rae"): 1},
            actor=official.user,
        )
    assert m.PlayoffResult.objects.count() == 0
    (message,) = caught.value.message_dict["order"]
    assert message.startswith("unresolved tie between ")
    assert {"Pia", "Hal"} <= set(message.split())
    assert not any(str(p.pk) in message.split() for p in players("Pia", "Hal"))


def test_no_show_after_the_match_started_refused(golden, official):
    """R6.6-c: a no-show is a player not present at his match's start."""
    qualify_and_settle_seeds(golden, official)
    start_playoff_game(season=golden, division="A", match="QF1", actor=official.user)

    with pytest.raises(ValidationError, match="has started"):
        record_no_show(
            season=golden, division="A", match="QF1", player=player("Pia"), actor=official.user
        )


def test_no_show_of_a_player_not_in_the_match_refused(golden, official):
    qualify_and_settle_seeds(golden, official)

    with pytest.raises(ValidationError, match="does not play in QF1"):
        record_no_show(
            season=golden, division="A", match="QF1", player=player("Cal"), actor=official.user
        )


def test_whole_playoff_night_of_the_golden_season(golden, official):
    """§6 end to end: 12 qualifiers in one division (R6.1-g, A01), a withdrawal (R6.6-b), QF1
    with a tiebreaker for the last advancing place (R6.5-a, A40), QF2 with a no-show played
    as a 3-player 4-2-1 round (R6.6-c, R6.6-d), semifinals of seeds 1 and 4 and 2 and 3 with
    the quarterfinals' top two (R6.3-j), a final whose totals place 1st-4th (R6.3-e)."""
    qualify_and_settle_seeds(golden, official)
    record_withdrawal(season=golden, player=player("Ned"), actor=official.user)

    # QF1: seeds 5, 8, 9, 12 (R6.3-i).
    play(
        golden,
        official,
        "QF1",
        ("Ivy", "Pia", "Hal", "Kim"),
        ("Hal", "Pia", "Ivy", "Kim"),
        ("Ivy", "Kim", "Pia", "Hal"),
    )
    qf1 = _match(golden, "QF1")
    assert (qf1.status, names(qf1.tied[0])) == ("tiebreaker_needed", ["Pia", "Hal"])
    pia, hal = (f"{p.first_name} {p.last_name}" for p in players("Pia", "Hal"))
    assert qf1.needed == f"tiebreaker needed between {pia} and {hal}"
    recorded = record_playoff_tiebreaker(
        season=golden, division="A", match="QF1", order=players("Hal", "Pia"), actor=official.user
    )
    assert [p.player for p in recorded.places] == players("Hal", "Pia")

    # QF2: seeds 6, 7, 10, 11; Eli does not show (R6.6-c).
    record_no_show(
        season=golden, division="A", match="QF2", player=player("Eli"), actor=official.user
    )
    play(
        golden,
        official,
        "QF2",
        ("Jon", "Rae", "Omar"),
        ("Omar", "Jon", "Rae"),
        ("Jon", "Rae", "Omar"),
    )
    play(
        golden,
        official,
        "SF1",
        ("Cal", "Ivy", "Bea", "Hal"),
        ("Bea", "Cal", "Hal", "Ivy"),
        ("Cal", "Hal", "Ivy", "Bea"),
    )
    play(
        golden,
        official,
        "SF2",
        ("Fay", "Dee", "Jon", "Omar"),
        ("Dee", "Fay", "Omar", "Jon"),
        ("Jon", "Fay", "Dee", "Omar"),
    )
    play(
        golden,
        official,
        "F",
        ("Fay", "Cal", "Bea", "Dee"),
        ("Cal", "Dee", "Fay", "Bea"),
        ("Cal", "Fay", "Dee", "Bea"),
    )
    close_playoff_night(season=golden, actor=official.user)

    bracket = playoff_bracket(golden)
    division = bracket.divisions[0]
    qf1, qf2 = _match(golden, "QF1"), _match(golden, "QF2")
    assert [(x.name.split()[0], t) for x, t in qf1.totals] == [
        ("Ivy", 9), ("Pia", 5), ("Hal", 5), ("Kim", 2),
    ]  # fmt: skip
    assert (names(qf1.advancing), names(qf1.eliminated)) == (["Ivy", "Hal"], ["Pia", "Kim"])
    assert [(x.name.split()[0], t) for x, t in qf2.totals] == [
        ("Jon", 10), ("Omar", 6), ("Rae", 5),
    ]  # fmt: skip
    assert (names(qf2.advancing), names(qf2.eliminated)) == (["Jon", "Omar"], ["Rae", "Eli"])
    assert names(_match(golden, "SF1").players) == ["Cal", "Bea", "Ivy", "Hal"]
    assert names(_match(golden, "SF2").players) == ["Fay", "Dee", "Jon", "Omar"]
    assert names(_match(golden, "F").placing) == ["Cal", "Fay", "Dee", "Bea"]
    assert division.complete
    assert [(place, ref.name.split()[0]) for place, ref in division.places] == [
        (1, "Cal"), (2, "Fay"), (3, "Dee"), (4, "Bea"),
        (5, "Ivy"), (5, "Hal"), (5, "Jon"), (5, "Omar"),
        (9, "Pia"), (9, "Kim"), (9, "Rae"),
        (12, "Eli"),
    ]  # fmt: skip
    assert bracket.status == "closed"
    assert m.PlayoffGame.objects.count() == 15
    assert PlayoffNoShow.objects.get().recorded_by == official.user
    assert m.AuditEvent.objects.filter(action="playoffs.game_recorded").count() == 15


def _match(golden, match):
    return next(x for x in playoff_bracket(golden).divisions[0].matches if x.match == match)


# --- playoff tardiness (R6.6-a, R6.6-c, A59) -------------------------------------------------


def _qualified(official, date):
    season = import_season_file(
        league=official.league, name="Winter 2026", data=GOLDEN,
        first_meet=datetime.date(2026, 1, 7), actor=official.user,
    )  # fmt: skip
    qualify_for_playoffs(season=season, date=date, actor=official.user)
    for first_names in (("Dee", "Bea"), ("Pia", "Hal")):
        order = [m.Player.objects.get(first_name=n) for n in first_names]
        record_seed_playoff(season=season, order=order, actor=official.user)
    return season


def test_playoff_lateness_notice_before_the_start_delays_the_match(official):
    """R6.6-a, §2.2, A59: a notice before the start gives the match 15 minutes' wait."""
    season = _qualified(official, datetime.date(2026, 3, 25))
    start = playoff_start(season.playoff_night)
    pia = m.Player.objects.get(first_name="Pia")

    lateness = record_playoff_lateness_notice(
        season=season, division="A", match="QF1", player=pia,
        at=start - datetime.timedelta(hours=1), actor=official.user,
    )  # fmt: skip

    assert lateness.wait_until == start + datetime.timedelta(minutes=15)
    assert m.PlayoffLatenessNotice.objects.get().player == pia


def test_playoff_lateness_notice_at_the_start_refused(official):
    """R6.6-a: the notice must come before the match start."""
    season = _qualified(official, datetime.date(2026, 3, 25))
    start = playoff_start(season.playoff_night)

    with pytest.raises(ValidationError) as caught:
        record_playoff_lateness_notice(
            season=season, division="A", match="QF1",
            player=m.Player.objects.get(first_name="Pia"), at=start, actor=official.user,
        )  # fmt: skip

    assert "Too late" in caught.value.message_dict["at"][0]


def test_playoff_lateness_notice_for_a_player_not_in_the_match_refused(official):
    season = _qualified(official, datetime.date(2026, 3, 25))
    start = playoff_start(season.playoff_night)

    with pytest.raises(ValidationError, match="does not play in QF1"):
        record_playoff_lateness_notice(
            season=season, division="A", match="QF1",
            player=m.Player.objects.get(first_name="Cal"),
            at=start - datetime.timedelta(hours=1), actor=official.user,
        )  # fmt: skip


def test_playoff_no_show_before_the_delayed_start_refused(official):
    """R6.6-a, R6.6-c: a player who gave notice is a no-show only after the wait."""
    season = _qualified(official, datetime.date(2099, 3, 25))
    start = playoff_start(season.playoff_night)
    pia = m.Player.objects.get(first_name="Pia")
    record_playoff_lateness_notice(
        season=season, division="A", match="QF1", player=pia,
        at=start - datetime.timedelta(days=1), actor=official.user,
    )  # fmt: skip

    with pytest.raises(ValidationError, match="waits for them"):
        record_no_show(season=season, division="A", match="QF1", player=pia, actor=official.user)
    assert m.PlayoffNoShow.objects.count() == 0


def test_playoff_no_show_after_the_delayed_start_recorded(official):
    """R6.6-c: once the wait is over, he is disqualified from the match."""
    season = _qualified(official, datetime.date(2026, 3, 25))
    start = playoff_start(season.playoff_night)
    pia = m.Player.objects.get(first_name="Pia")
    record_playoff_lateness_notice(
        season=season, division="A", match="QF1", player=pia,
        at=start - datetime.timedelta(hours=1), actor=official.user,
    )  # fmt: skip

    no_show = record_no_show(
        season=season, division="A", match="QF1", player=pia, actor=official.user
    )

    assert no_show.player == pia


@pytest.mark.parametrize("service", ["qualify", "seed", "withdraw", "close"])
def test_a_closed_playoff_night_refuses_its_night_services_r6_1_a(golden, official, service):
    """issue 33 §3: a closed night's bracket and places are final; closing it again, or
    qualifying, seeding or withdrawing, is refused in words (nothing written)."""
    qualify_for_playoffs(season=golden, date=NIGHT, actor=official.user)
    m.PlayoffNight.objects.filter(season=golden).update(status=m.PlayoffNight.Status.CLOSED)
    calls = {
        "qualify": lambda: qualify_for_playoffs(season=golden, date=NIGHT, actor=official.user),
        "seed": lambda: record_seed_playoff(
            season=golden, order=players("Dee", "Bea"), actor=official.user
        ),
        "withdraw": lambda: record_withdrawal(
            season=golden, player=player("Ned"), actor=official.user
        ),
        "close": lambda: close_playoff_night(season=golden, actor=official.user),
    }

    with pytest.raises(ValidationError) as refused:
        calls[service]()

    assert refused.value.code == "playoffs_closed"
    assert refused.value.messages == [
        "The playoff night is closed: its bracket and places are final."
    ]
    assert (m.Tiebreaker.objects.count(), m.Withdrawal.objects.count()) == (0, 0)
