"""The 12th countable forfeit in the middle of a night (R2.5-a, R2.5-b, A65) at the edge of the
score, correction and forfeit services: later entry for the player is refused."""

import datetime

import pytest
from django.core.exceptions import ValidationError

from flipwell.league import models as m
from flipwell.league.selectors.standings import standings
from flipwell.league.services.forfeits import record_forfeit
from flipwell.league.services.meets.announcements import announce_absence
from flipwell.league.services.meets.schedule import schedule_meet
from flipwell.league.services.meets.start import start_meet
from flipwell.league.services.scores.confirmation import confirm_scores
from flipwell.league.services.scores.entry import submit_scores
from flipwell.league.services.season_files import import_season_file
from flipwell.rules.season import fold_season
from flipwell.seasonfile import season_from_dict
from tests import factories as f

pytestmark = pytest.mark.django_db

NAMES = {"a": "Al", "b": "Bo", "c": "Cy", "d": "Di", "e": "Ed", "f": "Flo", "g": "Gus"}
SCORES = [9000, 3000, 2000, 1000]


def _match(players, g_scores=None, games=4):
    """Players finish in ladder order each game; Gus's scores per game when given."""
    return {
        "players": list(players),
        "games": [
            {
                "machine": f"Machine {n}",
                "scores": {
                    p: (g_scores[n] if p == "g" and g_scores else SCORES[i])
                    for i, p in enumerate(players)
                },
            }
            for n in range(games)
        ],
    }


GUS_OUT_AT_GAME_1 = [
    ({"g"}, None, 4),
    ({"g"}, None, 4),
    (set(), [None, None, None, 5], 4),
    (set(), [None], 1),
]


def _season_dict(plan=GUS_OUT_AT_GAME_1):
    """A season file following `plan`, one (absent, Gus's scores, games) per meet. By default
    Gus is absent at meets 1-2 (8 forfeits), forfeits games 1-3 of meet 3 (11); at meet 4
    (open) his game-1 forfeit is the 12th countable one."""
    data = {
        "name": "A65",
        "entrants": [
            {"player": p, "first_name": n, "last_name": "Player", "ifpa_rank": rank}
            for rank, (p, n) in enumerate(NAMES.items(), 1)
        ],
        "joined_at": {},
        "late_join_non_countable": [],
        "meets": [],
    }
    for number, (absent, g_scores, games) in enumerate(plan, 1):
        ladder = fold_season(season_from_dict(data)).ladder if data["meets"] else tuple(NAMES)
        present = [p for p in ladder if p not in absent]
        cut = 4 if len(present) == 7 else 3
        data["meets"].append(
            {
                "number": number,
                "date": f"2026-01-{number:02d}",
                "announced_absences": sorted(absent),
                "violations": [],
                "groups": [
                    _match(g, g_scores, games) if "g" in g else _match(g, games=games)
                    for g in (present[:cut], present[cut:])
                ],
            }
        )
    return data


@pytest.fixture
def gus_out():
    """The imported season, meet 4 open, and game 2 of Gus's group (no sheet yet)."""
    official = f.LeagueOfficialFactory(role=m.LeagueOfficial.Role.LEAGUE_OFFICIAL)
    season = import_season_file(
        league=official.league,
        name="A65",
        data=_season_dict(),
        first_meet=datetime.date(2026, 1, 7),
        open_last_meet=True,
        actor=official.user,
    )
    gus = m.Player.objects.get(first_name="Gus")
    group = m.Group.objects.get(meet__season=season, meet__number=4, members__player=gus)
    machine = m.Machine.objects.get(league=official.league, title="Machine 3")
    game2 = m.Game.objects.create(group=group, number=2, machine=machine)
    members = list(group.members.order_by("position").values_list("player", flat=True))
    players = [m.Player.objects.get(pk=p) for p in members]
    return official, gus, game2, players


def test_submit_scores_for_player_after_his_twelfth_forfeit_refused(gus_out):
    """A65, R2.5-b: Gus's game-1 forfeit at meet 4 was his 12th: a score for him in game 2 is
    refused, naming him and the game that ended his season."""
    _, gus, game2, players = gus_out
    others = [p for p in players if p != gus]

    with pytest.raises(ValidationError) as caught:
        submit_scores(
            game=game2,
            scores={**dict(zip(others, SCORES, strict=False)), gus: 500},
            entered_by=others[0],
            idempotency_key="a65-1",
        )

    assert caught.value.message_dict["scores"] == [
        "Gus Player forfeited the season on reaching 12 countable forfeits (game 1 of meet 4) "
        "and may not play game 2 of meet 4: their score is refused; the game is scored among "
        "the players who remain (R2.5-b, A65)."
    ]
    assert not m.ScoreSubmission.objects.filter(game=game2).exists()


def test_submit_scores_without_the_season_forfeited_player_scores_the_rest(gus_out):
    """A65, R2.4-c: with his score empty, game 2 is scored among the players who remain."""
    _, gus, game2, players = gus_out
    others = [p for p in players if p != gus]
    sheet = {**dict(zip(others, SCORES, strict=False)), gus: None}

    submitted = submit_scores(
        game=game2, scores=sheet, entered_by=others[0], idempotency_key="a65-2"
    )
    confirm_scores(submission=submitted.submission, confirmed_by=others[1])

    # Gus's group is the bottom three; the two who remain score as a 2-player game (R2.4-c).
    assert [submitted.points[p.pk] for p in (*others, gus)] == [7, 2, 0]


def test_record_forfeit_after_the_twelfth_forfeit_refused(gus_out):
    """A65: his later games are not further forfeits for his own count."""
    official, gus, game2, _ = gus_out

    with pytest.raises(ValidationError) as caught:
        record_forfeit(game=game2, player=gus, actor=official.user)

    assert caught.value.message_dict["player"] == [
        "Gus Player forfeited the season on reaching 12 countable forfeits (game 1 of meet 4) "
        "and may not play game 2 of meet 4: a forfeit is refused; the game is scored among "
        "the players who remain (R2.5-b, A65)."
    ]
    assert not m.Forfeit.objects.filter(game=game2).exists()


def test_announced_absence_on_the_night_of_the_twelfth_counts_to_twelve():
    """issue 26 §4, A65, R2.5-a: Gus forfeits games 1-2 of meet 1 and is absent at meets 2-3
    (10 countable forfeits); the LO records his absence from meet 4 and starts it. His count
    stops at the 12th, as game by game (it said 14)."""
    official = f.LeagueOfficialFactory(role=m.LeagueOfficial.Role.LEAGUE_OFFICIAL)
    data = _season_dict([(set(), [None, None, 5, 5], 4), ({"g"}, None, 4), ({"g"}, None, 4)])
    data["number_of_meets"] = 10
    season = import_season_file(
        league=official.league,
        name="A65 absent",
        data=data,
        first_meet=datetime.date(2026, 1, 7),
        actor=official.user,
    )
    gus = m.Player.objects.get(first_name="Gus")
    meet4 = schedule_meet(
        season=season, number=4, date=datetime.date(2026, 1, 28), actor=official.user
    )
    announce_absence(meet=meet4, player=gus, actor=official.user)

    start_meet(season=season, number=4, actor=official.user, seed=1)

    line = next(x for x in standings(season).lines if x.player.name == "Gus Player")
    assert (line.countable_forfeits, line.forfeits, line.season_forfeited_at) == (12, 14, 4)
