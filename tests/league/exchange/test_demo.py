"""`flipwell demo`: a realistic demo league from nothing, made once."""

import datetime
import re

import pytest
from django.contrib.auth.models import User

from flipwell.cli import main
from flipwell.league import models as m
from flipwell.league.adapters.rulesets import ruleset_for
from flipwell.league.adapters.season_facts import season_facts
from flipwell.league.exchange.demo import DEMO_LEAGUE_NAME, MACHINES, create_demo_league
from flipwell.league.selectors.meet_board.board import meet_board
from flipwell.rules.season import fold_season
from tests import factories as f

pytestmark = pytest.mark.django_db


def test_demo_creates_league_two_seasons_and_an_open_meet(capsys):
    assert main(["demo"]) == 0

    league = m.League.objects.get()
    finished, current = league.seasons.order_by("created_at")
    assert league.name == DEMO_LEAGUE_NAME
    assert (finished.meets.count(), current.meets.count()) == (10, 4)
    assert list(m.Meet.objects.filter(status=m.Meet.Status.OPEN)) == [current.meets.get(number=4)]
    assert league.machines.count() == len(MACHINES) == 12
    night = m.PlayoffNight.objects.get()
    assert (night.season, night.status) == (finished, m.PlayoffNight.Status.CLOSED)
    assert m.PlayoffResult.objects.filter(game__match__playoff_night=night).count() > 0
    for season in (finished, current):
        standings = fold_season(season_facts(season), ruleset=ruleset_for(league)).standings()
        assert len(standings) == 22
    out = capsys.readouterr().out
    assert out.startswith(f"Created the {DEMO_LEAGUE_NAME}:\n")
    password = re.search(r"password: (\S+)", out).group(1)
    official = User.objects.get(username="demo")
    assert official.check_password(password)
    assert list(official.league_roles.values_list("league", "role")) == [
        (league.pk, "league_official")
    ]


def test_demo_open_meet_is_today():
    demo = create_demo_league(today=datetime.date(2026, 3, 10))

    assert demo.current_season.meets.get(status=m.Meet.Status.OPEN).date == datetime.date(
        2026, 3, 10
    )
    assert demo.finished_season.meets.order_by("number").last().date < datetime.date(2026, 2, 17)


def test_demo_passwords_are_generated_not_fixed():
    first = create_demo_league(today=datetime.date(2026, 3, 10)).password
    m.LeagueOfficial.objects.all().delete()
    User.objects.filter(username="demo").update(username="old-demo")
    m.League.objects.filter(slug="flip-well-demo").update(slug="old-demo")

    second = create_demo_league(today=datetime.date(2026, 3, 10)).password

    assert first != second
    assert len(first) >= 16


def test_demo_twice_changes_nothing_the_second_time(capsys):
    assert main(["demo"]) == 0
    counts = (m.League.objects.count(), m.Season.objects.count(), m.AuditEvent.objects.count())
    capsys.readouterr()

    assert main(["demo"]) == 0

    assert capsys.readouterr().out == (
        "The demo league (Flip Well Demo League, slug flip-well-demo) already exists; "
        "nothing was changed.\n"
    )
    assert (m.League.objects.count(), m.Season.objects.count(), m.AuditEvent.objects.count()) == (
        counts
    )


def test_demo_refuses_to_take_over_an_account_named_demo(capsys):
    f.UserFactory(username="demo")

    assert main(["demo"]) == 1

    assert capsys.readouterr().err.startswith(
        "flipwell demo: An account named 'demo' already exists"
    )
    assert m.League.objects.count() == 0


def test_demo_open_meet_is_half_played_so_a_newcomer_can_carry_it_on():
    """Each group of tonight's meet confirmed games 1 and 2; its picker chooses game 3's
    machine (R5-c); the meet cannot close yet."""
    demo = create_demo_league(today=datetime.date(2026, 3, 10))
    meet = demo.current_season.meets.get(status=m.Meet.Status.OPEN)

    board = meet_board(meet)

    played = {group.number: [game.number for game in group.games] for group in board.groups}
    assert played == {group.number: [1, 2] for group in board.groups}
    assert all(game.confirmed for group in board.groups for game in group.games)
    assert all(group.next_picker is not None for group in board.groups)
    assert not any(group.finished for group in board.groups)
