"""Every user-facing error of the score sheet and the console names players, machines and games
by name, never by database id (issue #11, item 4): each form is posted with a player not in the
group, a machine or game id that is not offered, and the errors shown must hold no bare id.

Players and machines get high primary keys here so that an id in a message cannot pass for a
game or ball number.
"""

import datetime
import html
import re
from types import SimpleNamespace

import pytest

from flipwell.league import models as m
from flipwell.league import services
from flipwell.web.scoresheet_tokens import scoresheet_path
from tests import factories as f

pytestmark = pytest.mark.django_db

UNKNOWN = 987654
"""An id of no row at all."""

ERROR = re.compile(
    r'<(?:p|div) class="(?:error|form-errors|message error)"[^>]*>(.*?)</(?:p|div)>', re.S
)


@pytest.fixture
def stranger_night(client):
    """Meet 1 open with two groups of four; one more player is registered but not playing."""
    official = f.LeagueOfficialFactory(league__slug="tuesday")
    client.force_login(official.user)
    season = f.SeasonFactory(league=official.league, number_of_meets=3, created_at=f.SET_UP_2026)
    players = [
        f.SeasonEntryFactory(
            season=season, ifpa_rank_at_start=rank, player=f.PlayerFactory(pk=4100 + rank)
        ).player
        for rank in range(1, 9)
    ]
    stranger = f.SeasonEntryFactory(
        season=season, joined_at_meet=2, player=f.PlayerFactory(pk=4242, first_name="Sam")
    ).player
    for n, title in enumerate(("Addams Family", "Medieval Madness", "Twilight Zone", "Tron")):
        f.MachineFactory(pk=7001 + n, league=official.league, title=title)
    started = services.start_meet(
        season=season, number=1, date=datetime.date(2026, 1, 6), actor=official.user, seed=5
    )
    group = started.groups[0]
    members = list(group.members.order_by("position").values_list("player_id", flat=True))
    return SimpleNamespace(
        league=official.league,
        season=season,
        meet=started.meet,
        group=group,
        game=started.first_games[0],
        other_game=started.first_games[1],
        members=members,
        players=players,
        stranger=stranger,
        sheet=scoresheet_path(group),
        console=f"/manage/tuesday/meets/{started.meet.pk}/",
    )


def errors_of(response) -> list[str]:
    """The error messages a page shows, as text."""
    found = [re.sub(r"<[^>]+>", " ", e) for e in ERROR.findall(response.text)]
    return [" ".join(html.unescape(e).split()) for e in found]


def assert_named(response, *ids: int) -> list[str]:
    """The page refused the input with at least one error and no error holds any of `ids`."""
    shown = errors_of(response)
    assert shown, response.text
    for message in shown:
        numbers = set(re.findall(r"\d+", message))
        assert not numbers & {str(i) for i in ids}, message
    return shown


def test_sheet_entry_by_a_player_not_in_the_group_is_named(client, stranger_night):
    data = {"idempotency_key": "k", "game": stranger_night.game.pk, "seen_version": 0,
            "entered_by": stranger_night.stranger.pk}  # fmt: skip
    for pid in stranger_night.members:
        data[f"score_{pid}"] = "1000"

    response = client.post(stranger_night.sheet + "enter/", data)

    shown = assert_named(response, stranger_night.stranger.pk)
    assert "Entered by (you): that player is not one of the players offered" in " ".join(shown)


def enter_game_1(stranger_night):
    """Game 1's sheet entered by the group's first player."""
    return services.submit_scores(
        game=stranger_night.game,
        scores={pid: 1000 * (n + 1) for n, pid in enumerate(stranger_night.members)},
        entered_by=m.Player.objects.get(pk=stranger_night.members[0]),
        idempotency_key="k",
    )


def play_game_1(stranger_night):
    """Game 1 entered and confirmed: the picker chooses game 2's machine now."""
    services.confirm_scores(
        submission=enter_game_1(stranger_night).submission,
        confirmed_by=m.Player.objects.get(pk=stranger_night.members[1]),
    )


def test_sheet_confirmation_by_a_stranger_is_named(client, stranger_night):
    entered = enter_game_1(stranger_night)

    response = client.post(
        stranger_night.sheet + "confirm/",
        {"submission": entered.submission.pk, "confirmed_by": stranger_night.stranger.pk},
    )

    assert_named(response, stranger_night.stranger.pk)


def test_sheet_unknown_machine_is_named(client, stranger_night):
    play_game_1(stranger_night)
    response = client.post(
        stranger_night.sheet + "next/", {"chosen_by": stranger_night.members[0], "machine": 13}
    )

    shown = assert_named(response, 13)
    assert "Next machine: that machine is not one of the machines offered" in " ".join(shown)


def test_sheet_correction_of_an_unknown_game_is_named(client, stranger_night):
    play_game_1(stranger_night)
    response = client.post(
        stranger_night.sheet + "correction/",
        {"game": UNKNOWN, "requested_by": stranger_night.stranger.pk, "reason": "typo"},
    )

    assert_named(response, UNKNOWN, stranger_night.stranger.pk)


def test_sheet_answer_by_a_stranger_is_named(client, stranger_night):
    response = client.post(
        stranger_night.sheet + "correction/1/answer/",
        {"player": stranger_night.stranger.pk, "agrees": "yes"},
    )

    assert_named(response, stranger_night.stranger.pk)


@pytest.mark.parametrize(
    ("page", "action", "extra"),
    [
        ("forfeits/", "forfeit", {"reason": "absent", "countable": "on"}),
        ("forfeits/", "late", {}),
        ("malfunctions/", "malfunction", {"ball": "1", "reason_code": "other"}),
        ("malfunctions/", "grant", {}),
        ("malfunctions/", "compensatory", {"new_score": "1000"}),
    ],
)
def test_console_game_player_forms_name_a_stranger_and_an_unknown_game(
    client, stranger_night, page, action, extra
):
    response = client.post(
        stranger_night.console + page,
        {"action": action, "game": UNKNOWN, "player": stranger_night.stranger.pk, **extra},
    )

    shown = assert_named(response, UNKNOWN, stranger_night.stranger.pk)
    assert any("that game is not one of the games offered" in e for e in shown)
    assert any("that player is not one of the players offered" in e for e in shown)


def test_console_forfeit_of_a_player_of_another_group_names_him(client, stranger_night):
    outsider = next(p for p in stranger_night.players if p.pk not in stranger_night.members)

    response = client.post(
        stranger_night.console + "forfeits/",
        {"action": "forfeit", "game": stranger_night.game.pk, "player": outsider.pk,
         "reason": "absent", "countable": "on"},
    )  # fmt: skip

    assert_named(response, outsider.pk)


def test_console_violation_by_a_stranger_is_named(client, stranger_night):
    response = client.post(
        stranger_night.console + "violations/",
        {"player": stranger_night.stranger.pk, "kind": "other", "reason": "x",
         "games_completed": "0", "game": UNKNOWN},
    )  # fmt: skip

    assert_named(response, stranger_night.stranger.pk, UNKNOWN)


def test_console_attendance_of_an_unknown_player_is_named(client, stranger_night):
    response = client.post(
        stranger_night.console + "attendance/", {"action": "absence", "player": UNKNOWN}
    )

    assert_named(response, UNKNOWN)


def test_console_machine_declaration_of_an_unknown_machine_is_named(client, stranger_night):
    response = client.post(
        "/manage/tuesday/machines/",
        {"action": "declare", "machine": 13, "kind": "unplayable", "reason": "broken"},
    )

    shown = assert_named(response, 13)
    assert any("that machine is not one of the machines offered" in e for e in shown)


def test_console_ledger_entry_of_an_unknown_player_and_season_is_named(client, stranger_night):
    response = client.post(
        "/manage/tuesday/ledger/",
        {"action": "entry", "kind": "dues_paid", "account": "treasury", "amount_cents": "5",
         "player": UNKNOWN, "season": UNKNOWN + 1},
    )  # fmt: skip

    assert_named(response, UNKNOWN, UNKNOWN + 1)


def test_console_correction_by_a_stranger_is_named(client, stranger_night):
    response = client.post(
        stranger_night.console + "corrections/",
        {"action": "request", "game": stranger_night.game.pk,
         "requested_by": stranger_night.stranger.pk, "reason": "typo"},
    )  # fmt: skip

    assert_named(response, stranger_night.stranger.pk)


def test_no_game_is_named_by_id_in_a_choice_label(client, stranger_night):
    """The console's game choices read "Group 1 · game 1 · <machine>", never a bare id."""
    response = client.get(stranger_night.console + "forfeits/")

    assert f">{stranger_night.game.pk}<" not in response.text
    assert m.Game.objects.filter(group__meet=stranger_night.meet).count() == 2


def test_console_ledger_refusal_names_the_kind_in_words_not_a_code_or_an_id(client, stranger_night):
    """The rules speak of "entry 1: a dues_paid entry": the new entry has no id yet, and an
    official reads kinds in words."""
    response = client.post(
        "/manage/tuesday/ledger/",
        {"action": "entry", "kind": "dues_paid", "account": "dues", "amount_cents": "20",
         "season": stranger_night.season.pk},
    )  # fmt: skip

    shown = assert_named(response, 1)
    assert any(e.startswith("A “Dues paid” entry must name the player") for e in shown)
    assert "The rulebook: R9-a." in response.text
    assert not any("dues_paid" in e for e in shown)
