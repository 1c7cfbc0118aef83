"""Benchmark: recompute a 48-player, 20-meet season from raw facts.

Prints the fold's time with numbers only (`fold_season(facts)`) and with every point
explained (`explain=True`), the time taken just to read the same facts (JSON text ->
SeasonFacts), and each goal with whether it is met: the numbers-only fold within `GOAL_MS`
(a write folds the whole season, on one scoring path), and at most `GOAL_RATIO` times the
read. A benchmark, not a test: timings on shared machines are noisy, so it reports the best
of several runs and never fails.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable

from flipwell.rules import group_sizes
from flipwell.rules.grouping import split_into_groups
from flipwell.rules.season import fold_season
from flipwell.seasonfile import season_from_dict

PLAYERS = 48
MEETS = 20
GOAL_MS = 20.0
GOAL_RATIO = 4.0
RUNS = 30


def build_season_json(seed: int = 48) -> str:
    """A realistic season file: groups from each meet's ladder, random skill-based scores."""
    rng = random.Random(seed)
    entrants = [
        {"player": f"p{i:02d}", "first_name": f"P{i}", "last_name": "Player", "ifpa_rank": i + 1}
        for i in range(PLAYERS)
    ]
    skill = {e["player"]: rng.uniform(1, 10) for e in entrants}
    data: dict[str, object] = {"entrants": entrants, "meets": []}
    meets: list[dict[str, object]] = []
    data["meets"] = meets
    for number in range(1, MEETS + 1):
        ladder = fold_season(season_from_dict(data)).ladder if meets else _first(entrants)
        absent = [ladder[-1]] if number % 5 == 0 else []  # a few announced absences
        present = [p for p in ladder if p not in absent]
        groups = split_into_groups(present, group_sizes(len(present)))
        meets.append(
            {
                "number": number,
                "announced_absences": absent,
                "groups": [
                    {
                        "players": g,
                        "games": [
                            {
                                "machine": f"M{k}",
                                "scores": {
                                    p: int(skill[p] * 1e5 * rng.lognormvariate(0, 0.7)) * 10 + j
                                    for j, p in enumerate(g)
                                },
                            }
                            for k in range(4)
                        ],
                    }
                    for g in groups
                ],
            }
        )
    return json.dumps(data)


def _first(entrants: list[dict[str, object]]) -> list[str]:
    return [str(e["player"]) for e in entrants]


def best_of(runs: int, work: Callable[[], object]) -> float:
    """Best CPU time in seconds over `runs` runs. CPU time, not wall time: on a machine shared
    with other jobs the wall clock also counts the time this process waits for a core."""
    best = float("inf")
    for _ in range(runs):
        start = time.process_time()
        work()
        best = min(best, time.process_time() - start)
    return best


def main() -> None:
    text = build_season_json()
    facts = season_from_dict(json.loads(text))
    games = sum(len(m.games) for meet in facts.meets for m in meet.groups)
    read = best_of(RUNS, lambda: season_from_dict(json.loads(text)))
    fold = best_of(RUNS, lambda: fold_season(facts))
    explained = best_of(RUNS, lambda: fold_season(facts, explain=True))
    ratio = fold / read
    print(f"season: {PLAYERS} players, {MEETS} meets, {games} games")
    _row("read facts (JSON -> SeasonFacts)", f"{read * 1e3:8.2f} ms")
    _row("fold, numbers only", f"{fold * 1e3:8.2f} ms  ({fold / games * 1e6:.1f} µs per game)")
    _row("fold, every point explained", f"{explained * 1e3:8.2f} ms")
    _row(
        "ratio fold / read", f"{ratio:8.1f} x   goal <= {GOAL_RATIO:g} x: {_met(ratio, GOAL_RATIO)}"
    )
    _row(
        "fold, numbers only",
        f"{fold * 1e3:8.2f} ms  goal <= {GOAL_MS:g} ms: {_met(fold * 1e3, GOAL_MS)}",
    )


def _row(what: str, value: str) -> None:
    print(f"{what + ':':36s}{value}")


def _met(value: float, goal: float) -> str:
    return "met" if value <= goal else "NOT MET"


if __name__ == "__main__":
    main()
