"""What a player reads cites no rule in a sentence: on every public page, score sheet, TV and
notice e-mail of a league night, a rule id ("R2.5-a", "rule R6.1-e", "A52", "§8.5") appears
only inside a folded "why" (``<details class="why">``; in a plain-text e-mail, the one
"Why: …" line at its end), never in the sentence read first.

Nothing here lists the pages: the crawl starts at each league's home, its TV, its score sheets
and its players' personal links, and follows every link that stays in a league's public pages
(``/leagues/<slug>/``, ``/tv/<slug>/``, ``/print/<slug>/``, ``/sheet/``, ``/me/``). A page
added tomorrow and linked from those is in the crawl the day it is added.

Words:
- *the night*: one league's meet 1, played through the services with every kind of incident
  (a malfunction and its compensatory game, a violation and its penalty, a turn ruling, a
  forfeit that forfeits the season, a late arrival, a correction waiting for answers, a
  late entrant's forfeits designated), its notices on; crawled while open, then closed.
- *the demo*: the demo league (`create_demo_league`): a finished season with absences,
  compensatory games, zeroed scores, violations, one-ball playoffs and a closed playoff
  night, and a season in progress.
- *the playoffs*: a third league's playoff night in progress, one match with a game played
  and its loser to pick, another with a no-show.
- *visible text*: a page's text outside its ``<details class="why">`` elements, its title,
  scripts and styles.
"""

from __future__ import annotations

import datetime
import re
from collections import deque
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import urldefrag, urlsplit
from zoneinfo import ZoneInfo

import pytest
from django.template.loader import render_to_string
from django.test import Client
from django.utils import timezone

from flipwell.league import models as m
from flipwell.league import services
from flipwell.league.exchange.demo import create_demo_league
from flipwell.league.notice_worker import queue_due_reminders
from flipwell.league.selectors.meet_board.board import meet_board
from flipwell.league.selectors.playoffs.bracket import playoff_bracket
from flipwell.web.player_links import player_link_path
from flipwell.web.scoresheet_tokens import match_sheet_path, scoresheet_path
from flipwell.web.templatetags.flipwell_words import plain, rules_cited
from flipwell.web.words import RULE_ID
from tests import factories as f
from tests.league.league_night import DATE, Night, build_night, game, next_game, play, start

pytestmark = pytest.mark.django_db

DOWNLOADS = (".csv", ".json", ".zip", ".ics", ".png", ".jpg", ".webp")
WHY_LINE = re.compile(r"^Why: .*$", re.M)
"""The one line of a plain-text notice that may cite rules (`flipwell.web.emails`)."""
SITE_LINK = re.compile(r"^https://league\.example\.org(/\S*)$", re.M)
ANY_LINK = re.compile(r"https?://\S+")
"""A link of a notice (the night's ``SITE_URL``): its path, for the crawl to open."""


class Reader(HTMLParser):
    """A page's visible text (see the module docstring) and the links it offers."""

    HIDDEN = ("title", "script", "style")
    EMPTY = ("input", "br", "meta", "link", "img", "hr", "wbr", "source", "col", "area")

    def __init__(self) -> None:
        super().__init__()
        self.text: list[str] = []
        self.folded: list[str] = []
        self.links: list[str] = []
        self._open: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "a" and values.get("href"):
            self.links.append(str(values["href"]))
        if tag in self.EMPTY:
            return
        classes = (values.get("class") or "").split()
        hides = tag in self.HIDDEN or (tag == "details" and "why" in classes)
        self._open.append(f"hidden:{tag}" if hides else tag)
        self._hidden += hides

    def handle_endtag(self, tag: str) -> None:
        while self._open:
            top = self._open.pop()
            self._hidden -= top.startswith("hidden:")
            if top.removeprefix("hidden:") == tag:
                break

    def handle_data(self, data: str) -> None:
        if not self._hidden:
            self.text.append(data)
        elif any(tag == "hidden:details" for tag in self._open):
            self.folded.append(data)


@dataclass
class Crawl:
    """What the crawl opened and the rule ids it found outside a "why"."""

    client: Client
    areas: tuple[str, ...]
    seen: set[str] = field(default_factory=set)
    opened: list[str] = field(default_factory=list)
    found: list[str] = field(default_factory=list)
    folded: int = 0
    """How many rule ids the "why" folds held."""

    def read(self, *starts: str) -> None:
        """Open each start and every page linked from one opened, once."""
        todo = deque(url for url in starts if url not in self.seen)
        self.seen.update(todo)
        while todo:
            url = todo.popleft()
            response = self.client.get(url)
            if response.status_code != 200 or "html" not in response["Content-Type"]:
                continue
            self.opened.append(url)
            reader = self.reader(url, response.content.decode())
            for href in reader.links:
                link = urldefrag(href)[0]
                path = urlsplit(link).path
                if link in self.seen or not path.startswith(self.areas):
                    continue
                if path.endswith(DOWNLOADS) or path.endswith("/report/"):
                    continue  # a file, or the problem form's own page (a form to post)
                self.seen.add(link)
                todo.append(link)

    def post(self, url: str, data: dict[str, str]) -> None:
        """Post a player's form and read the page it leads to: its message, or the page again
        with why it was refused (400)."""
        response = self.client.post(url, data, follow=True)
        assert response.status_code in (200, 400), f"{url}: {response.status_code}"
        self.opened.append(f"POST {url}")
        self.reader(f"POST {url}", response.content.decode())

    def reader(self, where: str, page: str) -> Reader:
        reader = Reader()
        reader.feed(page)
        self.check(where, " ".join(reader.text))
        self.folded += len(RULE_ID.findall(" ".join(reader.folded)))
        return reader

    def check(self, where: str, text: str) -> None:
        text = re.sub(r"\s+", " ", text)
        self.found += [
            f"{where}: …{text[max(0, hit.start() - 70) : hit.end() + 10]}…"
            for hit in RULE_ID.finditer(text)
        ]


def areas_of(*slugs: str) -> tuple[str, ...]:
    """The public paths of the leagues: their pages, TV and printouts, the sheets, the
    personal links and the notices' preferences pages."""
    leagues = tuple(f"/{area}/{slug}/" for slug in slugs for area in ("leagues", "tv", "print"))
    return (*leagues, "/sheet/", "/me/", "/notices/")


def starts_of(league: m.League) -> list[str]:
    """A league's home, its TV, each meet's score sheets, each playoff match's sheet and each
    player's link."""
    sheets = [
        scoresheet_path(group)
        for group in m.Group.objects.filter(meet__season__league=league).order_by("pk")
    ]
    links = [
        player_link_path(link)
        for link in m.PlayerLink.objects.filter(season__league=league, revoked_at__isnull=True)
    ]
    match_sheets = [
        match_sheet_path(night.pk, division.name, match.match)
        for night in m.PlayoffNight.objects.filter(season__league=league).select_related("season")
        for division in playoff_bracket(night.season).divisions
        for match in division.matches
    ]
    return [f"/leagues/{league.slug}/", f"/tv/{league.slug}/", *sheets, *match_sheets, *links]


# --- the night -------------------------------------------------------------------------------


def members(meet: m.Meet, number: int) -> list[m.Player]:
    group = meet.groups.get(number=number)
    return [row.player for row in group.members.order_by("position").select_related("player")]


def picker(meet: m.Meet, number: int) -> m.Player:
    board = next(g for g in meet_board(meet).groups if g.number == number)
    assert board.next_picker is not None
    return m.Player.objects.get(pk=board.next_picker)


def build_the_night(settings: Any) -> tuple[Night, m.Meet]:
    """The night of the module docstring, left open: its notices queued."""
    settings.NOTICES_EMAIL = True
    settings.SITE_URL = "https://league.example.org"
    night = build_night(players=8)
    night.season.ruleset_overrides = {"season_forfeit_limit": 1}  # one forfeit: out (R2.5-a)
    night.season.save()
    late = f.SeasonEntryFactory(season=night.season, joined_at_meet=3).player
    for player in [*night.players, late]:
        services.set_notice_preferences(
            league=night.league,
            player=player,
            email=f"player.{player.pk}@example.org",
            kinds=("groups", "results", "reminder", "ruling"),
            actor=night.user,
        )
    services.issue_player_links(season=night.season, actor=night.user)
    services.designate_late_join_forfeits(
        season=night.season, player=late, countable=False, reason="Moved here", actor=night.user
    )
    meet = start(night)
    one, two = members(meet, 1), members(meet, 2)
    user = night.user

    # Group 1: a power loss, its compensatory game, a violation, a turn ruling, a correction.
    first = game(meet, 1, 1)
    services.report_malfunction(
        game=first, player=one[3], ball=1, reason_code="power_loss", ball_in_play=False,
        actor=user,
    )  # fmt: skip
    services.request_compensatory_game(game=first, player=one[3], actor=user)
    services.record_compensatory_game(
        game=first, player=one[3], new_score=90, leading_subtracted=5,
        reason="Started at ball 2", actor=user,
    )  # fmt: skip
    play(first, {one[0]: 100, one[1]: 50, one[2]: 30, one[3]: 10})
    services.record_violation(
        meet=meet, player=one[1], kind="opponents_ball", game=first, reason="Seen by the LO",
        actor=user,
    )  # fmt: skip
    second = next_game(meet, 1, picker(meet, 1))
    services.record_turn_ruling(
        kind="slow_play_warning", game=second, player=one[2], reason="Slow", actor=user
    )
    services.request_correction(
        game=first, scores={one[0]: 100, one[1]: 50, one[2]: 35, one[3]: 10},
        requested_by=one[2], reason="My score was 35",
    )  # fmt: skip

    # Group 2: a forfeit (the season's limit: out of the season), a late arrival.
    opening = game(meet, 2, 1)
    services.record_forfeit(game=opening, player=two[3], actor=user)
    services.record_late_join(
        game=opening, player=two[2], machine_allows_joining=True,
        last_player_not_past_ball_1=True, actor=user,
    )  # fmt: skip
    play(opening, {two[0]: 300, two[1]: 200, two[2]: 100, two[3]: None})
    next_game(meet, 2, picker(meet, 2))
    return night, meet


def close_the_night(night: Night, meet: m.Meet) -> None:
    """Close meet 1 anyway (its notices of results) and queue meet 2's reminders."""
    services.close_meet(meet=meet, actor=night.user, override_reason="The venue closed early")
    date = DATE + datetime.timedelta(days=7)
    services.schedule_meet(season=night.season, number=2, date=date, actor=night.user)
    zone = ZoneInfo(night.league.time_zone)
    begins = datetime.datetime.combine(date, night.season.start_time, tzinfo=zone)
    queue_due_reminders(begins - datetime.timedelta(hours=3))


# --- the playoffs ----------------------------------------------------------------------------


def build_the_playoffs(client: Client) -> m.League:
    """An 8-player playoff night: SF1's game 1 played from its sheet, SF2's no-show."""
    official = f.LeagueOfficialFactory(league__slug="playoffs")
    league = official.league
    season = f.SeasonFactory(league=league, created_at=f.SET_UP_2026)
    for title in ("Addams Family", "Medieval Madness", "Twilight Zone", "Attack from Mars"):
        f.MachineFactory(league=league, title=title)
    night = f.PlayoffNightFactory(season=season, date=datetime.date(2026, 4, 7), cut=8)
    seeded = [f.PlayerFactory() for _ in range(8)]
    for seed, player in enumerate(seeded, 1):
        f.QualifierFactory(playoff_night=night, player=player, seed=seed)
    sf1 = [seeded[i] for i in (0, 3, 4, 7)]  # seeds 1, 4, 5, 8 (R6.3-h)
    url = match_sheet_path(night.pk, "A", "SF1")
    assert client.post(url + "start/", {"started_by": str(sf1[0].pk)}).status_code == 302
    scores = {f"score_{p.pk}": f"{(9 - i) * 1_000_000:,}" for i, p in enumerate(sf1)}
    entered = {"idempotency_key": "k1", "entered_by": str(sf1[0].pk), "game": "1"}
    assert (
        client.post(url + "enter/", {**entered, "seen_version": "0", **scores}).status_code == 302
    )
    sheet = m.PlayoffSheet.objects.get()
    confirmed = {"submission": str(sheet.pk), "confirmed_by": str(sf1[1].pk)}
    assert client.post(url + "confirm/", confirmed).status_code == 302
    services.record_no_show(
        season=season, division="A", match="SF2", player=seeded[5], actor=official.user
    )
    return league


# --- the words, then the crawl ----------------------------------------------------------------

TEMPLATES = Path(__file__).parents[2] / "src" / "flipwell" / "web" / "templates"
PLAYER_TEMPLATES = ("public", "scoresheet", "me", "tv", "print", "email")
FOLDED = re.compile(
    r'<details class="why">.*?</details>|{% include "public/_why.html"[^%]*%}|^Why: .*$',
    re.S | re.M,
)


def test_player_templates_write_rule_ids_only_in_the_why():
    """Issue 33 §3: a template a player reads writes a rule id only in its fold
    (public/_why.html) or, in a notice, on its "Why:" line; the crawl below reads what they
    render."""
    found = []
    for folder in PLAYER_TEMPLATES:
        for path in sorted((TEMPLATES / folder).rglob("*.*")):
            text = re.sub(r"{#.*?#}", "", path.read_text())
            text = re.sub(r"{% comment %}.*?{% endcomment %}", "", text, flags=re.S)
            found += [
                f"{path.relative_to(TEMPLATES)}: {hit.group(0)!r}"
                for hit in RULE_ID.finditer(FOLDED.sub("", text))
                if path.name != "_why.html"
            ]

    assert found == [], "\n".join(found)


def test_rules_cited_gathers_the_rules_of_every_line_once():
    lines = ["Ann finished 1st of 4: 7 points [R3.2-e]", "bonus to Ann (must exceed) [R3.2-f]"]

    assert rules_cited(lines) == "R3.2-e, R3.2-f"
    assert rules_cited("Penalty (§8.5).", lines) == "§8.5, R3.2-e, R3.2-f"
    assert [plain(line) for line in lines] == [
        "Ann finished 1st of 4: 7 points",
        "bonus to Ann (must exceed)",
    ]


def test_ruling_notice_says_its_rules_on_one_why_line_at_the_end():
    """A plain-text notice has no fold: its sentences are plain, and the rules they rest on
    are one line at the end, before the footer (`flipwell.web.emails`)."""
    body = render_to_string(
        "email/notice_ruling.txt",
        {
            "player": {"first_name": "Ann"},
            "league": "Tuesday Flippers",
            "what": "a violation recorded at meet 1",
            "details": [
                "Played an opponent's ball (§8.2), in group 1.",
                "Penalty: game 1 of your match is forfeited (§8.5).",
            ],
            "preferences_url": "https://league.example.org/notices/x/",
        },
    )

    assert "Played an opponent's ball, in group 1.\n" in body
    assert "Penalty: game 1 of your match is forfeited.\n" in body
    assert body.count("§") == 2
    assert "\nWhy: rules §8.2, §8.5.\n\n--\n" in body


def test_player_pages_sheets_tv_and_notices_cite_rules_only_in_the_why(client, settings):
    """Issue 33 §3: no page a player reads (public pages, TV, printouts, score sheets, playoff
    match sheets, personal links) and no notice e-mail of a league night cites a rule id
    outside its "why"; a rule id there is what a player reads first."""
    night, meet = build_the_night(settings)
    demo = create_demo_league(today=timezone.localdate())
    playoffs = build_the_playoffs(client)
    slugs = (night.league.slug, demo.league.slug, playoffs.slug)
    crawl = Crawl(client=client, areas=areas_of(*slugs))
    sheets = [url for url in starts_of(night.league) + starts_of(playoffs) if "/sheet/" in url]

    crawl.read(*starts_of(night.league), *starts_of(playoffs))
    crawl.read(*(f"{url}state/" for url in sheets))  # what htmx swaps in
    correction = m.CorrectionRequest.objects.get()
    crawl.post(  # a player disagrees: the sheet stands (its message)
        f"{scoresheet_path(correction.game.group)}correction/{correction.pk}/answer/",
        {"player": str(members(meet, 1)[0].pk), "agrees": "no"},
    )
    close_the_night(night, meet)
    link = m.PlayerLink.objects.get(season=night.season, player=night.players[0])
    crawl.post(player_link_path(link), {"action": "late", "meet": "2"})  # refused: started
    crawl.seen.clear()
    crawl.read(*starts_of(night.league), *starts_of(demo.league), *starts_of(playoffs))
    notices = list(m.Notice.objects.order_by("pk"))
    for notice in notices:
        crawl.check(f"notice {notice.subject!r}", notice.subject)
        # A link's signed token may hold "A70" by chance: a link is followed, not read.
        words = ANY_LINK.sub("", WHY_LINE.sub("", notice.body))
        crawl.check(f"notice {notice.subject!r}", words)
    crawl.read(*(link for notice in notices for link in SITE_LINK.findall(notice.body)))

    kinds = {notice.kind for notice in notices}
    assert kinds == {"groups", "results", "reminder", "ruling"}
    assert len(crawl.opened) > 150
    assert crawl.found == [], "\n".join(crawl.found)
    assert crawl.folded > 100  # the rules are there, folded
