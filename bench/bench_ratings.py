"""Calibration check: do the ratings predict who wins a game?

Ratings are fit on seasons 1..n-1 (`rules.rating.rate_all`, every group game's pairwise
results, a rating period a meet); then each game of season n is predicted from the ratings as
they stood when season n began (not updated during it), and compared with two other guesses:

- *chance*: every player of the game equally likely to win (1/k);
- *IFPA rank*: a player's chance proportional to ``rank ** -beta`` (an unranked player ranks
  last), with ``beta`` fitted on seasons 1..n-1 so the rank order is given its best shot.

For each, over season n's games: the log-loss of the winner (the mean of -ln p(winner); lower
is better; chance in a 4-player game is ln 4 = 1.386) and how often the favourite won.

Two leagues: the demo league (its finished season rates, its season in progress is predicted)
and a generated league of 10 seasons (40 players of a hidden skill, about a fifth replaced each
season, IFPA ranks that follow the skill with noise; groups from each meet's ladder, as the
league plays them). A benchmark, not a test: it prints and never fails. Pure rules, no database.
"""

from __future__ import annotations

import json
import math
import random
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from importlib import resources
from pathlib import Path
from typing import Any

from flipwell.rules import group_sizes
from flipwell.rules.grouping import split_into_groups
from flipwell.rules.rating import Rating, between_seasons, rate_all, rated_meets
from flipwell.rules.rating import win_chances as rating_chances
from flipwell.rules.season import fold_season
from flipwell.rules.stats import FoldedSeason
from flipwell.seasonfile import season_from_dict

SEASONS = 10
PLAYERS = 40
MEETS = 10
TURNOVER = 0.2
# A score is lognormal around the player's skill: a player one standard deviation stronger
# scores e^0.8, about twice as much, on the median game. With the ladder's groups that makes
# the favourite win about 4 games in 10, as the demo league's favourite does.
SKILL_WEIGHT = 0.8
GAME_NOISE = 0.7
IFPA_NOISE = 1.0  # how far IFPA's order strays from the skill (in its standard deviations)
BETAS = [b / 20 for b in range(61)]

Game = Sequence[tuple[Any, int]]  # players and their places, 1 the best


@dataclass(frozen=True)
class Guess:
    name: str
    log_loss: float
    favourite_won: float


def main() -> None:
    print("ratings fit on seasons 1..n-1, season n's game winners predicted (lower log-loss")
    print("is better; goal: the ratings beat chance and the IFPA rank order)")
    demo = [
        _demo_season(number, name)
        for number, name in enumerate(("demo_finished_season", "demo_current_season"), 1)
    ]
    _report("demo league (season 2 predicted from season 1)", demo)
    generated = _generated_league(seed=2027)
    _report(f"generated league ({SEASONS} seasons, season {SEASONS} predicted)", generated)


@dataclass(frozen=True)
class Season:
    folded: FoldedSeason
    ifpa_rank: Mapping[str, int]


def _report(title: str, seasons: Sequence[Season]) -> None:
    fitted, predicted = seasons[:-1], seasons[-1]
    book = rate_all(rated_meets([s.folded for s in fitted], person_of={}))
    games = _games(predicted)
    ranks = dict(predicted.ifpa_rank)
    beta = _fit_beta(fitted)

    def rating_of(player: Any) -> Rating:
        current = book.current(player)
        return between_seasons(current) if current else Rating()

    guesses = [
        _guess("chance", games, lambda players: [1 / len(players)] * len(players)),
        _guess(f"IFPA rank (beta {beta:.2f})", games, lambda ps: _rank_chances(ps, ranks, beta)),
        _guess("ratings", games, lambda ps: rating_chances([rating_of(p) for p in ps])),
    ]
    print(f"\n{title}: {len(games)} games")
    print(f"  {'guess':24s} {'log-loss':>9s} {'favourite won':>14s}")
    for g in guesses:
        print(f"  {g.name:24s} {g.log_loss:9.3f} {g.favourite_won:13.1%}")
    chance, ifpa, rated = (g.log_loss for g in guesses)
    print(f"  goal: ratings better than chance: {'met' if rated < chance else 'NOT met'}")
    print(
        f"  goal: ratings better than the IFPA rank order: {'met' if rated < ifpa else 'NOT met'}"
    )


def _guess(name: str, games: Sequence[Game], chances: Callable[[list[Any]], list[float]]) -> Guess:
    losses, favourites = [], 0.0
    for game in games:
        players = [p for p, _ in game]
        p = chances(players)
        winner = min(range(len(game)), key=lambda i: game[i][1])
        losses.append(-math.log(max(p[winner], 1e-12)))
        best = max(p)
        tied = [i for i, chance in enumerate(p) if math.isclose(chance, best)]
        favourites += (winner in tied) / len(tied)  # a tie for favourite shares the credit
    return Guess(name, sum(losses) / len(losses), favourites / len(games))


def _rank_chances(players: Sequence[Any], ranks: Mapping[Any, int], beta: float) -> list[float]:
    last = max(ranks.values(), default=1) + 1
    weights = [ranks.get(p, last) ** -beta for p in players]
    total = sum(weights)
    return [w / total for w in weights]


def _fit_beta(seasons: Sequence[Season]) -> float:
    """The exponent that predicts the fitted seasons' winners best, each season's games from
    its own IFPA ranks."""
    played = [(_games(s), s.ifpa_rank) for s in seasons]

    def loss(beta: float) -> float:
        total = 0.0
        for games, ranks in played:
            guess = _guess("", games, partial(_rank_chances, ranks=ranks, beta=beta))
            total += guess.log_loss * len(games)
        return total

    return min(BETAS, key=loss)


def _games(season: Season) -> list[Game]:
    """Every group game of the season with its places (the meets of `rated_meets`, held)."""
    return [game for meet in rated_meets([season.folded], person_of={}) for game in meet.games]


def _demo_season(number: int, name: str) -> Season:
    package = resources.files("flipwell.league.exchange") / "data" / f"{name}.json"
    data = json.loads(package.read_text())
    return _folded(number, data)


def _folded(key: int, data: Mapping[str, Any]) -> Season:
    facts = season_from_dict(data)
    ranks = {e["player"]: e["ifpa_rank"] for e in data["entrants"] if e.get("ifpa_rank")}
    return Season(FoldedSeason(key, facts, fold_season(facts)), ranks)


def _generated_league(seed: int) -> list[Season]:
    rng = random.Random(seed)
    skill: dict[str, float] = {}
    roster: list[str] = []
    seasons = []
    for number in range(1, SEASONS + 1):
        leaving = set(rng.sample(roster, int(len(roster) * TURNOVER))) if roster else set()
        roster = [p for p in roster if p not in leaving]
        while len(roster) < PLAYERS:
            player = f"p{len(skill):03d}"
            skill[player] = rng.gauss(0, 1)
            roster.append(player)
        seasons.append(_folded(number, _season_data(rng, roster, skill)))
    return seasons


def _season_data(
    rng: random.Random, roster: list[str], skill: Mapping[str, float]
) -> dict[str, Any]:
    by_ifpa = sorted(roster, key=lambda p: -skill[p] + rng.gauss(0, IFPA_NOISE))
    entrants = [
        {"player": p, "first_name": p, "last_name": "Player", "ifpa_rank": 1 + by_ifpa.index(p)}
        for p in sorted(roster, key=by_ifpa.index)
    ]
    data: dict[str, Any] = {"entrants": entrants, "meets": []}
    for number in range(1, MEETS + 1):
        ladder = fold_season(season_from_dict(data)).ladder if data["meets"] else by_ifpa
        groups = split_into_groups(list(ladder), group_sizes(len(ladder)))
        data["meets"].append({"number": number, "groups": [_group(rng, g, skill) for g in groups]})
    return data


def _group(rng: random.Random, players: list[str], skill: Mapping[str, float]) -> dict[str, Any]:
    def score(p: str, j: int) -> int:
        return int(1e6 * math.exp(skill[p] * SKILL_WEIGHT + rng.gauss(0, GAME_NOISE))) * 10 + j

    return {
        "players": players,
        "games": [
            {"machine": f"M{k}", "scores": {p: score(p, j) for j, p in enumerate(players)}}
            for k in range(4)
        ],
    }


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).parent))
    main()
