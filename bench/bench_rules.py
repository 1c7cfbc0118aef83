"""Benchmark: recompute a 48-player, 20-meet season from raw facts; a write's fold at meet 2
and at meet 40 of a 64-player season.

Prints the fold's time with numbers only (`fold_season(facts)`) and with every point
explained (`explain=True`), the time taken just to read the same facts (JSON text ->
SeasonFacts), and each goal with whether it is met: the numbers-only fold within `GOAL_MS`
(a write folds the whole season, on one scoring path), and at most `GOAL_RATIO` times the
read. A benchmark, not a test: timings on shared machines are noisy, so it reports the best
of several runs and never fails.

A write's fold: tonight's meet (open) folded on the prefix of the closed meets before it
(`fold_from`), at meet 2 and at meet 40, and their ratio beside its goal (`GOAL_TONIGHT_RATIO`:
a write costs tonight, not the season), with the whole fold (what a write cost before) beside.
Then the same for a score sheet waiting for confirmation: the lines it will give once
confirmed (`pending_game_lines`: the season folded with it as confirmed, what the entry's
reply and the confirmer's table show), on the prefix and whole.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from dataclasses import replace

from flipwell.rules import group_sizes
from flipwell.rules.game_lines import pending_game_lines
from flipwell.rules.grouping import split_into_groups
from flipwell.rules.season import fold_season
from flipwell.rules.season_prefix import SeasonPrefix, fold_from, fold_with_prefix
from flipwell.rules.season_values import SeasonFacts
from flipwell.seasonfile import season_from_dict

PLAYERS = 48
MEETS = 20
GOAL_MS = 20.0
GOAL_RATIO = 4.0
RUNS = 30
TONIGHT_PLAYERS = 64
TONIGHT_MEETS = (2, 40)
"""A write's fold at these meets of a 64-player season: tonight's meet on the closed ones'."""
GOAL_TONIGHT_RATIO = 1.2


def build_season_json(seed: int = 48, players: int = PLAYERS, meets_: int = MEETS) -> str:
    """A realistic season file: groups from each meet's ladder, random skill-based scores."""
    rng = random.Random(seed)
    entrants = [
        {"player": f"p{i:02d}", "first_name": f"P{i}", "last_name": "Player", "ifpa_rank": i + 1}
        for i in range(players)
    ]
    skill = {e["player"]: rng.uniform(1, 10) for e in entrants}
    data: dict[str, object] = {"entrants": entrants, "meets": []}
    meets: list[dict[str, object]] = []
    data["meets"] = meets
    for number in range(1, meets_ + 1):
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
    tonight()


def tonight() -> None:
    """A write's fold at meet 2 and at meet 40 of a 64-player season: tonight's meet (open)
    folded on the stored prefix of the closed meets (`fold_from`), and whole as before."""
    last = TONIGHT_MEETS[-1]
    text = build_season_json(seed=64, players=TONIGHT_PLAYERS, meets_=last)
    facts = season_from_dict(json.loads(text))
    print(f"a write's fold: {TONIGHT_PLAYERS} players, tonight's meet open")
    _at_both_meets(facts, _tonight_at)
    print("a sheet waiting for confirmation, the lines it will give:")
    _at_both_meets(facts, _pending_at)


def _at_both_meets(
    facts: SeasonFacts, measure: Callable[[SeasonFacts, int], tuple[float, float]]
) -> None:
    """Print `measure`'s costs (on the prefix, whole) at each of `TONIGHT_MEETS`, and the
    ratio of the last to the first on the prefix."""
    costs = {}
    for meet in TONIGHT_MEETS:
        on_prefix, whole = measure(facts, meet)
        costs[meet] = on_prefix
        _row(f"at meet {meet}, on the prefix", f"{on_prefix * 1e3:8.2f} ms")
        _row(f"at meet {meet}, whole (before)", f"{whole * 1e3:8.2f} ms")
    _ratio(costs)


def _ratio(costs: dict[int, float]) -> None:
    first, last = TONIGHT_MEETS
    ratio = costs[last] / costs[first]
    _row(
        f"ratio meet {last} / meet {first}",
        f"{ratio:8.2f} x   goal <= {GOAL_TONIGHT_RATIO:g} x: {_met(ratio, GOAL_TONIGHT_RATIO)}",
    )


def _pending_at(facts: SeasonFacts, meet: int) -> tuple[float, float]:
    """The best CPU time of the lines of the first group's last game at meet `meet` (open,
    that game's sheet waiting for confirmation), on the prefix and whole."""
    prefix = _prefix_before(facts, meet)
    played = facts.meets[meet - 1]
    match = played.groups[0]
    waiting = replace(match, games=match.games[:-1])
    tonight = replace(played, closed=False, groups=(waiting, *played.groups[1:]))
    season = prefix.facts_with((tonight,))

    def lines(on: SeasonPrefix | None) -> object:
        game = match.games[-1]
        return pending_game_lines(season, meet=meet, players=match.players, game=game, prefix=on)

    assert lines(prefix) == lines(None)
    return best_of(RUNS, lambda: lines(prefix)), best_of(RUNS, lambda: lines(None))


def _prefix_before(facts: SeasonFacts, meet: int) -> SeasonPrefix:
    prefix = fold_with_prefix(replace(facts, meets=facts.meets[: meet - 1])).prefix
    assert prefix is not None
    return prefix


def _tonight_at(facts: SeasonFacts, meet: int) -> tuple[float, float]:
    """The best CPU time of folding meet `meet` (open) on the prefix of the meets before it,
    and of folding the season up to it whole."""
    prefix = _prefix_before(facts, meet)
    tonight = (replace(facts.meets[meet - 1], closed=False),)
    on_prefix = best_of(RUNS, lambda: fold_from(prefix, tonight))
    whole = best_of(RUNS, lambda: fold_season(prefix.facts_with(tonight)))
    return on_prefix, whole


def _row(what: str, value: str) -> None:
    print(f"{what + ':':36s}{value}")


def _met(value: float, goal: float) -> str:
    return "met" if value <= goal else "NOT MET"


if __name__ == "__main__":
    main()
