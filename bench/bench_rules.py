"""Benchmark: recompute a 48-player, 20-meet season from raw facts (issue target: < 50 ms).

Prints the total time, the time per game, and the ratio to the time taken just to read the
same facts (JSON text -> SeasonFacts). A benchmark, not a test: timings on shared machines
are noisy, so it reports the best of several runs and never fails.
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
TARGET_MS = 50.0
RUNS = 15


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
    """Best wall time in seconds over `runs` runs (the least disturbed by other load)."""
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    text = build_season_json()
    facts = season_from_dict(json.loads(text))
    games = sum(len(m.games) for meet in facts.meets for m in meet.groups)
    read = best_of(RUNS, lambda: season_from_dict(json.loads(text)))
    fold = best_of(RUNS, lambda: fold_season(facts))
    print(f"season: {PLAYERS} players, {MEETS} meets, {games} games")
    print(f"read facts (JSON -> SeasonFacts): {read * 1e3:8.2f} ms")
    print(f"fold season (facts -> standings): {fold * 1e3:8.2f} ms  (target < {TARGET_MS:.0f} ms)")
    print(f"per game:                         {fold / games * 1e6:8.1f} µs")
    print(f"ratio fold / read:                {fold / read:8.1f} x")
    print("verdict: " + ("within target" if fold * 1e3 < TARGET_MS else "OVER TARGET"))


if __name__ == "__main__":
    main()
