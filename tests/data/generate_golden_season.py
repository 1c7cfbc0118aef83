"""Writes tests/data/golden_season.json: a 10-meet, 22-player season with every special case.

Run once by hand (`python tests/data/generate_golden_season.py`); the JSON is committed and
reviewed. Scores come from a seeded random generator; groups come from each meet's ladder, so
the file is consistent with §3.1 and §4. Special cases, by meet:

1  week-1 ladder from IFPA ranks, unranked players alphabetically (R4.3-a, R4.3-b)
2  announced absence: Mia Lopez (her first all-night forfeit earns the 50% credit, R2.4-d)
3  machine-score tie with a recorded one-ball playoff (R3.2-i); unannounced absence: Ned Park
   sits in his group and forfeits all four games (R3.1-e, R2.4-a)
4  late entrant Zoe Quinn joins (R2.4-f): 12 forfeits for meets 1-3, made non-countable by the
   LO (R2.4-g)
5  Omar Reyes arrives late and forfeits game 1 (R2.3-a); a catastrophic malfunction gives
   Bea Adams a compensatory game (R7.3-k, R7.3-m)
6  Cal Brooks's 25% reduction (R8.1-b); Dee Cruz's deathsave zero (R8.7-a); Gus Hale announced
   absent (first of three)
7  Eli Dunn interferes during game 3: first serious violation, game 3 forfeited (R8.5-c)
8  Eli Dunn again, between games 2 and 3: the penalty hits his best completed game (R8.5-d);
   Gus Hale's third straight absence: 12 countable forfeits, season forfeited (R2.5-a)
9  two players tied at zero after deathsaves need a recorded order (A15); Mia Lopez absent
   again: no second credit (R2.4-e)
10 last regular meet
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from flipwell.rules import group_sizes
from flipwell.rules.grouping import split_into_groups
from flipwell.rules.season import fold_season
from flipwell.seasonfile import season_from_dict

OUT = Path(__file__).with_name("golden_season.json")
MACHINES = [
    "The Addams Family",
    "Demolition Man",
    "F-14 Tomcat",
    "Ghostbusters",
    "Medieval Madness",
    "Attack from Mars",
    "Twilight Zone",
    "Theatre of Magic",
]
PEOPLE = [
    # (id, first, last, IFPA rank or None, skill)
    ("bea", "Bea", "Adams", 312, 9.0),
    ("cal", "Cal", "Brooks", 845, 8.0),
    ("dee", "Dee", "Cruz", 1203, 7.6),
    ("eli", "Eli", "Dunn", 2210, 7.0),
    ("fay", "Fay", "Evans", 3050, 6.8),
    ("gus", "Gus", "Hale", 4100, 6.5),
    ("hal", "Hal", "Ito", 5230, 6.3),
    ("ivy", "Ivy", "Jones", 6120, 6.0),
    ("jon", "Jon", "Kato", 7300, 5.8),
    ("kim", "Kim", "Lee", 8800, 5.5),
    ("mia", "Mia", "Lopez", 9900, 5.3),
    ("ned", "Ned", "Park", 12001, 5.0),
    ("omar", "Omar", "Reyes", 15500, 4.8),
    ("pia", "Pia", "Sato", 19000, 4.5),
    ("quin", "Quin", "Tran", 24000, 4.3),
    ("rae", "Rae", "Ueda", None, 4.0),
    ("sam", "Sam", "Vance", None, 3.8),
    ("tia", "Tia", "de Wit", None, 3.6),
    ("uma", "Uma", "Young", None, 3.4),
    ("vic", "Vic", "Zane", None, 3.2),
    ("wes", "Wes", "Abbott", None, 3.0),
    ("zoe", "Zoe", "Quinn", None, 5.6),  # joins at meet 4
]
ANNOUNCED = {2: ["mia"], 6: ["gus"], 7: ["gus"], 8: ["gus"], 9: ["mia"]}


def main() -> None:
    rng = random.Random(20260107)
    skill = {p[0]: p[4] for p in PEOPLE}
    data: dict[str, object] = {
        "name": "Flip Well Golden Season (Winter 2026)",
        "entrants": [
            {"player": p, "first_name": f, "last_name": last, "ifpa_rank": rank}
            for p, f, last, rank, _ in PEOPLE
        ],
        "joined_at": {"zoe": 4},
        "late_join_non_countable": ["zoe"],
        "meets": [],
    }
    meets: list[dict[str, object]] = data["meets"]  # type: ignore[assignment]
    for number in range(1, 11):
        ladder = fold_season(season_from_dict(data)).ladder
        absent = ANNOUNCED.get(number, [])
        present = [p for p in ladder if p not in absent]
        groups = split_into_groups(present, group_sizes(len(present)))
        meet = {
            "number": number,
            "date": f"2026-{1 + (number + 1) // 5:02d}-{(7 * number) % 28 + 1:02d}",
            "announced_absences": absent,
            "violations": [],
            "groups": [_match(rng, g, skill) for g in groups],
        }
        SPECIAL.get(number, lambda m: None)(meet)
        meets.append(meet)
    fold = fold_season(season_from_dict(data))
    data["expected_standings"] = [
        {
            "rank": rank,
            "player": s.player,
            "league_points": str(s.league_points),
            "games_played": s.games_played,
            "forfeits": s.forfeits,
            "countable_forfeits": s.countable_forfeits,
            "offenses": s.offenses,
            "credit_used_at": s.credit_used_at,
            "season_forfeited_at": s.season_forfeited_at,
        }
        for rank, s in enumerate(fold.standings(), start=1)
    ]
    OUT.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def _match(rng: random.Random, players: list[str], skill: dict[str, float]) -> dict[str, object]:
    machines = rng.sample(MACHINES, 4)
    games = []
    for machine in machines:
        scores = {p: _score(rng, skill[p]) for p in players}
        games.append({"machine": machine, "scores": scores})
    return {"players": players, "games": games}


def _score(rng: random.Random, skill: float) -> int:
    return int(skill * 100_000 * rng.lognormvariate(0, 0.7)) // 10 * 10


def _group_of(meet: dict, player: str) -> dict:
    return next(g for g in meet["groups"] if player in g["players"])


def _meet3(meet: dict) -> None:
    group = meet["groups"][0]
    a, b = group["players"][0], group["players"][2]
    game = group["games"][1]
    game["scores"][b] = game["scores"][a]
    game["tie_order"] = [[b, a]]  # the lower seed won the one-ball playoff
    ned = _group_of(meet, "ned")
    for g in ned["games"]:
        g["scores"]["ned"] = None


def _meet5(meet: dict) -> None:
    omar = _group_of(meet, "omar")
    omar["games"][0]["scores"]["omar"] = None
    bea = _group_of(meet, "bea")
    game = bea["games"][2]
    game["scores"]["bea"] = 212_340
    game["compensatory"] = {"bea": {"new": 1_080_500, "leading_subtracted": 0}}


def _meet6(meet: dict) -> None:
    cal = _group_of(meet, "cal")
    cal["games"][3]["reduced"] = ["cal"]
    dee = _group_of(meet, "dee")
    dee["games"][1]["zeroed"] = {"dee": "deathsave"}


def _meet7(meet: dict) -> None:
    meet["violations"] = [{"player": "eli", "kind": "interference", "current_game": 3}]


def _meet8(meet: dict) -> None:
    meet["violations"] = [{"player": "eli", "kind": "interference", "games_completed": 2}]


def _meet9(meet: dict) -> None:
    group = meet["groups"][-1]
    x, y = group["players"][0], group["players"][1]
    game = group["games"][0]
    game["zeroed"] = {x: "deathsave", y: "deathsave"}
    game["tie_order"] = [[y, x]]


SPECIAL = {3: _meet3, 5: _meet5, 6: _meet6, 7: _meet7, 8: _meet8, 9: _meet9}

if __name__ == "__main__":
    main()
