"""The console's meet page and the score sheet show a group's next machine from one answer
(issue 34 §1, `allowed_machines`): the same machines allowed (R5-d..g, R4-b, R7.3-r), the same
refused with why in plain words, the rule ids only behind a "why" fold; the API says the same."""

from __future__ import annotations

import datetime
from html.parser import HTMLParser

import pytest

from flipwell.league import models as m
from flipwell.league import services
from flipwell.web.scoresheet_tokens import scoresheet_path
from tests import factories as f

pytestmark = pytest.mark.django_db

TITLES = ("Addams Family", "Medieval Madness", "Twilight Zone", "Funhouse", "Tron", "Cyclone")


class Machines(HTMLParser):
    """What a page lists of the next machine: the options of a `machine` select, the
    machines of an allowed list, and the refused ones with their code and plain words."""

    def __init__(self) -> None:
        super().__init__()
        self.options: list[int] = []
        self.allowed: list[int] = []
        self.refused: dict[int, str] = {}
        self.words: dict[int, str] = {}
        self._select = False
        self._ul = ""
        self._refused: int | None = None
        self._depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "select":
            self._select = a.get("name") == "machine"
        elif tag == "option" and self._select and a.get("value"):
            self.options.append(int(a["value"] or 0))
        elif tag == "ul" and "allowed-machines" in (a.get("class") or ""):
            self._ul = "allowed"
        elif tag == "li" and "data-code" in a:
            self._refused = int(a["data-machine"] or 0)
            self.refused[self._refused] = a["data-code"] or ""
            self.words[self._refused] = ""
        elif tag == "li" and self._ul == "allowed" and "data-machine" in a:
            self.allowed.append(int(a["data-machine"] or 0))
        elif tag == "details" and self._refused is not None:
            self._depth += 1

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = False
        elif tag == "ul":
            self._ul = ""
        elif tag == "details" and self._depth:
            self._depth -= 1
        elif tag == "li":
            self._refused = None

    def handle_data(self, data: str) -> None:
        if self._refused is not None and not self._depth:
            self.words[self._refused] += data


def read(html: str) -> Machines:
    parser = Machines()
    parser.feed(html)
    return parser


@pytest.fixture
def stuck_flipper_night(client):
    """Meet 1 open with two groups of four; Flipper Stuck declared on one machine."""
    official = f.LeagueOfficialFactory(league__slug="tuesday")
    client.force_login(official.user)
    season = f.SeasonFactory(league=official.league, number_of_meets=3, created_at=f.SET_UP_2026)
    players = [
        f.SeasonEntryFactory(season=season, ifpa_rank_at_start=rank).player for rank in range(1, 9)
    ]
    machines = [f.MachineFactory(league=official.league, title=t) for t in TITLES]
    started = services.start_meet(
        season=season, number=1, date=datetime.date(2026, 1, 6), actor=official.user, seed=5
    )
    first = started.first_games
    broken = next(x for x in machines if x.pk not in {g.machine_id for g in first})
    services.declare_machine_unplayable(
        meet=started.meet, machine=broken, reason="Flipper stuck", actor=official.user
    )
    return started, players, official


def confirm(game, scores):
    players = list(scores)
    sheet = services.submit_scores(
        game=game, scores=scores, entered_by=players[0], idempotency_key=f"k-{game.pk}"
    )
    services.confirm_scores(submission=sheet.submission, confirmed_by=players[1])


def pages(client, started):
    group = started.groups[0]
    console = client.get(f"/manage/tuesday/meets/{started.meet.pk}/").content.decode()
    sheet = client.get(scoresheet_path(group)).content.decode()
    api = client.get(f"/api/v1/groups/{group.pk}/allowed-machines").json()
    return read(console), read(sheet), api


def test_console_and_sheet_list_the_same_machines_when_a_player_picks(client, stuck_flipper_night):
    # R5-c: the last of game 1 picks; R5-e: game 1's machine, R5-d: group 2's machine in play,
    # R7.3-r: the machine out of service are refused, with the same words on both pages.
    started, players, _ = stuck_flipper_night
    a = players[:4]
    confirm(started.first_games[0], {a[0]: 400, a[1]: 300, a[2]: 200, a[3]: 100})

    console, sheet, api = pages(client, started)

    allowed = [x["id"] for x in api["allowed"]]
    assert api["picker"]["player_id"] == a[3].pk
    assert len(allowed) == 3
    assert sheet.options == allowed
    assert console.allowed == allowed
    assert sorted(sheet.refused.values()) == ["already_played", "in_use", "unplayable"]
    assert console.refused == sheet.refused == {x["id"]: x["code"] for x in api["refused"]}
    assert console.words == sheet.words


def test_refused_machines_read_in_plain_words_with_the_rules_behind_a_why(
    client, stuck_flipper_night
):
    started, players, _ = stuck_flipper_night
    a = players[:4]
    confirm(started.first_games[0], {a[0]: 400, a[1]: 300, a[2]: 200, a[3]: 100})
    in_use = started.first_games[1].machine

    _, sheet, _ = pages(client, started)

    words = " ".join(sheet.words[in_use.pk].split())
    assert words == f"{in_use.title}: group 2 is playing it and is not on its final ball yet."
    assert "R5-d" not in words
    html = client.get(scoresheet_path(started.groups[0])).content.decode()
    assert "<summary>Why</summary><p>The rulebook: R5-d.</p>" in html


def test_console_form_and_sheet_list_the_same_machines_when_the_official_picks(
    client, stuck_flipper_night
):
    # A66: nobody played game 1, so the official chooses among the same machines the sheet
    # lists as allowed.
    started, players, _ = stuck_flipper_night
    confirm(started.first_games[0], dict.fromkeys(players[:4]))

    console, sheet, api = pages(client, started)

    allowed = [x["id"] for x in api["allowed"]]
    assert api["picker"]["kind"] == "official"
    assert len(allowed) == 3
    assert console.options == allowed
    assert sheet.allowed == allowed
    assert console.refused == sheet.refused == {x["id"]: x["code"] for x in api["refused"]}


def test_console_official_choice_of_a_refused_machine_is_refused_with_its_reason(
    client, stuck_flipper_night
):
    # R7.3-r: the machine out of service, posted anyway, is refused with the listed reason.
    started, players, _ = stuck_flipper_night
    confirm(started.first_games[0], dict.fromkeys(players[:4]))
    broken = m.Machine.objects.get(declarations__meet=started.meet)

    response = client.post(
        f"/manage/tuesday/meets/{started.meet.pk}/groups/1/",
        {"action": "choose", "machine": broken.pk},
    )

    assert response.status_code == 400
    assert "is unplayable" in response.content.decode()
    assert not m.Game.objects.filter(group=started.groups[0], number=2).exists()
