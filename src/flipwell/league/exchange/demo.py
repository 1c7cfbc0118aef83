"""The demo league: a realistic league made from nothing, to try flipwell out.

Words:
- *demo league*: "Flip Well Demo League" (slug ``flip-well-demo``), with one league official,
  the account ``demo``, whose password is generated when the league is made and shown once;
  he may also open a league of his own (to try the first-night path).
- *finished season*: ten closed meets from the bundled season file
  ``data/demo_finished_season.json`` (a copy of the golden season, every special case in it).
- *playoffs*: the finished season's playoff night, played through the playoff services with
  machine scores from a seeded random generator (`play_demo_playoffs`).
- *season in progress*: four meets of the same players from ``data/demo_current_season.json``,
  the last one open (being played today) and *half played*: each group has played and
  confirmed its first `OPEN_MEET_GAMES_PLAYED` games, and its picker chooses the next machine
  (R5-c), so a newcomer signed in as the demo official can carry the night on.

Dates follow today: the open meet is today, the finished season ended a few weeks before the
season in progress began. Machines: the titles of Appendix A and a few more.
"""

from __future__ import annotations

import datetime
import json
import random
import secrets
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from flipwell.league import models as m
from flipwell.league import services
from flipwell.league.audit import record_event
from flipwell.league.exchange.progress import Progress, Stream
from flipwell.league.selectors.playoffs.bracket import playoff_bracket
from flipwell.league.selectors.setup import open_league_permission
from flipwell.league.services.leagues import create_league
from flipwell.league.services.season_files import import_season_file

if TYPE_CHECKING:
    from django.contrib.auth.models import User

DEMO_LEAGUE_NAME = "Flip Well Demo League"
DEMO_LEAGUE_SLUG = "flip-well-demo"
DEMO_USERNAME = "demo"
DEMO_VENUE = "The Flip Well Arcade, 12 Tilt Street"
FINISHED_SEASON_FILE = "demo_finished_season.json"
CURRENT_SEASON_FILE = "demo_current_season.json"
# (title, balls per game, location): Appendix A's titles first, then the rest of the bank.
MACHINES = (
    ("The Addams Family", 3, "Front row"),
    ("Demolition Man", 3, "Front row"),
    ("F-14 Tomcat", 3, "Front row"),
    ("Ghostbusters", 3, "Front row"),
    ("Medieval Madness", 3, "Back row"),
    ("Attack from Mars", 3, "Back row"),
    ("Twilight Zone", 3, "Back row"),
    ("Theatre of Magic", 3, "Back row"),
    ("Monster Bash", 3, "Side wall"),
    ("Godzilla", 3, "Side wall"),
    ("Black Knight: Sword of Rage", 3, "Side wall"),
    ("Eight Ball Deluxe", 5, "By the bar"),
)
WEEKS_BETWEEN_SEASONS = 3
OPEN_MEET_GAMES_PLAYED = 2
DEMO_PLAYOFF_SEED = 2026
MAX_DEMO_PLAYOFF_STEPS = 200  # a 2-division night needs about 40 steps


class DemoLeagueExistsError(Exception):
    """The demo league is already there: nothing was changed."""


class DemoUserTakenError(Exception):
    """The username ``demo`` belongs to an account that is not the demo league's official."""


@dataclass(frozen=True)
class DemoLeague:
    """What `create_demo_league` made; `password` is the only copy of the official's password."""

    league: m.League
    official: User
    password: str
    finished_season: m.Season
    current_season: m.Season


def create_demo_league(
    *, today: datetime.date | None = None, progress: Stream | None = None
) -> DemoLeague:
    """Create the demo league with its official, machines, a finished and a running season.

    Side effects, in one transaction: a User ``demo`` with a generated password (returned, not
    stored in clear); the League and its LeagueOfficial (`create_league`); the Machines; two
    seasons with every stored fact (`import_season_file`, the second with its last meet open);
    the finished season's playoff night, played and closed (`play_demo_playoffs`); audit
    events of those services and one ``demo.created``. Draws a progress bar on
    `progress` when it is a terminal. Raises DemoLeagueExistsError when the demo league exists and
    DemoUserTakenError when another account is called ``demo``; nothing is written then.
    """
    today = today or timezone.localdate()
    current_start = today - datetime.timedelta(weeks=3)  # its fourth meet is today
    finished_start = current_start - datetime.timedelta(weeks=10 + WEEKS_BETWEEN_SEASONS)
    with (
        Progress("Creating the demo league", total=5, stream=progress) as bar,
        transaction.atomic(),
    ):
        if m.League.objects.filter(slug=DEMO_LEAGUE_SLUG).exists():
            raise DemoLeagueExistsError(
                f"The demo league ({DEMO_LEAGUE_NAME}, slug {DEMO_LEAGUE_SLUG}) already "
                "exists; nothing was changed."
            )
        user_model = get_user_model()
        if user_model._default_manager.filter(username=DEMO_USERNAME).exists():
            raise DemoUserTakenError(
                f"An account named {DEMO_USERNAME!r} already exists and is not the demo "
                "league's official; rename or remove it to create the demo league."
            )
        password = secrets.token_urlsafe(12)
        official = user_model.objects.create_user(
            username=DEMO_USERNAME,
            password=password,
            first_name="Demo",
            last_name="Official",
            email="demo@example.org",
        )
        official.user_permissions.add(open_league_permission())  # he may open his own league
        league = create_league(
            name=DEMO_LEAGUE_NAME,
            slug=DEMO_LEAGUE_SLUG,
            venue=DEMO_VENUE,
            time_zone=settings.TIME_ZONE,
            created_by=official,
        )
        bar.advance()
        machines = m.Machine.objects.bulk_create(
            m.Machine(league=league, title=title, balls_per_game=balls, location=location)
            for title, balls, location in MACHINES
        )
        bar.advance()
        finished = import_season_file(
            league=league,
            name=f"{finished_start:%B %Y} season",
            data=demo_season_file(FINISHED_SEASON_FILE),
            first_meet=finished_start,
            actor=official,
        )
        bar.advance()
        current = import_season_file(
            league=league,
            name=f"{current_start:%B %Y} season",
            data=half_played(demo_season_file(CURRENT_SEASON_FILE)),
            first_meet=current_start,
            open_last_meet=True,
            actor=official,
        )
        bar.advance()
        play_demo_playoffs(
            season=finished,
            date=finished_start + datetime.timedelta(weeks=11),
            actor=official,
        )
        bar.advance()
        record_event(
            action="demo.created",
            obj=league,
            league=league,
            actor=official,
            data={
                "machines": [machine.pk for machine in machines],
                "seasons": [finished.pk, current.pk],
            },
        )
    return DemoLeague(
        league=league,
        official=official,
        password=password,
        finished_season=finished,
        current_season=current,
    )


def demo_season_file(name: str) -> dict[str, Any]:
    """A bundled season file of the demo, parsed."""
    text = resources.files("flipwell.league.exchange").joinpath("data", name).read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def half_played(data: dict[str, Any]) -> dict[str, Any]:
    """The season file with its last meet cut to each group's first `OPEN_MEET_GAMES_PLAYED`
    games (the night in progress). The bundled meet has no violation, compensatory game or
    tie order in its later games, so nothing else refers to them."""
    *held, tonight = data["meets"]
    groups = [
        {**group, "games": group["games"][:OPEN_MEET_GAMES_PLAYED]} for group in tonight["groups"]
    ]
    return {**data, "meets": [*held, {**tonight, "groups": groups}]}


def play_demo_playoffs(*, season: m.Season, date: datetime.date, actor: User) -> None:
    """Play the finished season's playoff night (§6) with the playoff services, and close it.

    Settles seed ties, then plays every match game by game with machine scores from a seeded
    random generator (the same demo every time): game 1's machine drawn by the services, the
    chooser's pick for later games the first title not yet played in the match, tiebreakers
    on a drawn machine; then closes the night. Side effects: those of the playoff services
    (PlayoffNight, Qualifiers, games, results, audit events). A one-off generator, so it runs
    a few queries per game.
    """
    rng = random.Random(DEMO_PLAYOFF_SEED)
    players = {str(p.pk): p for p in m.Player.objects.filter(season_entries__season=season)}
    qualification = services.qualify_for_playoffs(
        season=season, date=date, actor=actor
    ).qualification
    for _ in range(len(players)):  # each seed playoff settles one tie
        if not qualification.ties:
            break
        tied = list(qualification.ties[0].players)
        rng.shuffle(tied)
        qualification = services.record_seed_playoff(
            season=season, order=[players[key] for key in tied], actor=actor
        ).qualified.qualification
    machines = list(season.league.machines.order_by("title"))
    for _ in range(MAX_DEMO_PLAYOFF_STEPS):
        bracket = playoff_bracket(season)
        waiting = [
            (division.name, match)
            for division in bracket.divisions
            for match in division.matches
            if match.status in ("ready", "tiebreaker_needed")
        ]
        if not waiting:
            break
        division, match = waiting[0]
        if match.status == "tiebreaker_needed":
            order = [players[str(ref.id)] for ref in match.tied[0]]
            rng.shuffle(order)
            services.record_playoff_tiebreaker(
                season=season, division=division, match=match.match, order=order, actor=actor
            )
            continue
        played = {game.machine for game in match.games}
        pick = None
        if match.machine_chooser is not None:
            pick = next(machine for machine in machines if machine.title not in played)
        services.start_playoff_game(
            season=season, division=division, match=match.match, machine=pick, actor=actor
        )
        absent = {ref.id for ref in match.no_shows}
        present = [players[str(ref.id)] for ref in match.players if ref.id not in absent]
        scores = {player: rng.randrange(100, 3000) * 1_000 for player in present}
        services.record_playoff_game(
            season=season, division=division, match=match.match, scores=scores, actor=actor
        )
    services.close_playoff_night(season=season, actor=actor)
