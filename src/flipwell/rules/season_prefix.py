"""A season's fold carried on from a stored state: the closed meets folded once, and only the
later meets (tonight's) folded on top at each write.

Words:
- *prefix*: the fold's state after the season's first meets, every one of them closed
  (`SeasonPrefix`): the facts it was folded from (the entrants, when each joined, those meets),
  their results, each player's running totals and the last meet's ladder. Plain data: a
  caller may store it (pickled) and fold later meets on it.
- *later meets*: the meets after the prefix's, in order (the open meet: tonight's).
- *leading closed meets*: the season's first meets up to the first that is not closed: what
  a prefix covers, since a closed meet changes only by a correction after closing (A45.2).

The invariant (tests/rules/test_season_prefix.py): `fold_from(prefix, later).result` is
exactly `fold_season(prefix.facts_with(later))`, numbers only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from flipwell.rules.checks import check_unique
from flipwell.rules.ruleset import FWPL_V1, Ruleset
from flipwell.rules.season import Folding, fold_season, in_order
from flipwell.rules.season_ladder import joined_at
from flipwell.rules.season_nights import Tally
from flipwell.rules.season_penalties import suspensions
from flipwell.rules.season_values import MeetFacts, MeetResult, SeasonFacts, SeasonResult
from flipwell.rules.values import PlayerId


@dataclass(frozen=True)
class SeasonPrefix:
    """The fold's state after the season's first `through` meets (all closed)."""

    facts: SeasonFacts
    """The season's facts but its meets after `through`: the entrants, joinings and the
    covered meets."""
    ruleset: Ruleset
    meets: tuple[MeetResult, ...]
    tallies: Mapping[PlayerId, Tally]
    """Each player's running totals after the covered meets; never changed (`fold_from`
    folds on copies)."""
    ladder: tuple[PlayerId, ...]
    """The ladder the last covered meet was played from (the next one's starts from it)."""

    @property
    def through(self) -> int:
        """How many meets it covers: meets 1 to `through`."""
        return len(self.facts.meets)

    def facts_with(self, later: Sequence[MeetFacts]) -> SeasonFacts:
        """The season's facts: the covered meets and then `later`."""
        return replace(self.facts, meets=(*self.facts.meets, *later))

    def shared(self) -> tuple[object, ...]:
        """The parts of the prefix that a fold on it holds as they are (the same objects): the
        covered meets' facts and results, and every player's nights so far; in one order, so
        that a stored fold may name each by its place (`flipwell.league.derived.caches`)."""
        nights = (night for tally in self.tallies.values() for night in tally.nights)
        return (*self.facts.meets, *self.meets, *nights)


@dataclass(frozen=True)
class PrefixedFold:
    """A season's fold (numbers only) and the prefix of its leading closed meets (None when no
    prefix can carry the season: a re-scored third offense, A36 alternative)."""

    result: SeasonResult
    prefix: SeasonPrefix | None


def season_start(facts: SeasonFacts, *, ruleset: Ruleset = FWPL_V1) -> SeasonPrefix:
    """The prefix of no meet: every entrant with nothing yet."""
    players = check_unique((e.player for e in facts.entrants), what="the entrants")
    return SeasonPrefix(
        facts=replace(facts, meets=()),
        ruleset=ruleset,
        meets=(),
        tallies={p: Tally() for p in players},
        ladder=(),
    )


def fold_with_prefix(facts: SeasonFacts, *, ruleset: Ruleset = FWPL_V1) -> PrefixedFold:
    """`fold_season(facts)` (numbers only) and the prefix of its leading closed meets."""
    return fold_from(season_start(facts, ruleset=ruleset), facts.meets, ruleset=ruleset)


def fold_from(
    prefix: SeasonPrefix, later: Sequence[MeetFacts], *, ruleset: Ruleset = FWPL_V1
) -> PrefixedFold:
    """Fold the meets after the prefix's (`later`, in order) on top of it: the result equals
    `fold_season(prefix.facts_with(later), ruleset=ruleset)`; with the prefix of the leading
    closed meets of them all (`prefix` itself when no later meet is one of them).

    A prefix folded under another ruleset, or a season whose third offense re-scores the
    others (its earlier meets then depend on later facts, A36 alternative), is folded whole.
    """
    facts = prefix.facts_with(later)
    if ruleset != prefix.ruleset:
        return fold_with_prefix(facts, ruleset=ruleset)
    if ruleset.third_offense_rescore_others and suspensions(facts, ruleset):
        return PrefixedFold(fold_season(facts, ruleset=ruleset), None)
    meets = in_order(facts.meets)
    players = list(prefix.tallies)
    folding = Folding(
        facts,
        joined_at(facts, players),
        {p: _copy(t) for p, t in prefix.tallies.items()},
        {},
        ruleset,
        False,
        prefix.meets,
        prefix.ladder,
    )
    covered = _leading_closed(meets)
    after = prefix
    for meet in meets[prefix.through :]:
        folding.fold_meet(meet)
        if meet.number == covered:
            after = _snapshot(folding, facts, ruleset)
    return PrefixedFold(folding.result(), after)


def _leading_closed(meets: Sequence[MeetFacts]) -> int:
    """How many of the first meets are closed."""
    count = 0
    for meet in meets:
        if not meet.closed:
            break
        count += 1
    return count


def _snapshot(folding: Folding, facts: SeasonFacts, ruleset: Ruleset) -> SeasonPrefix:
    """The prefix of the meets folded so far."""
    return SeasonPrefix(
        facts=replace(facts, meets=facts.meets[: len(folding.meets)]),
        ruleset=ruleset,
        meets=tuple(folding.meets),
        tallies={p: _copy(t) for p, t in folding.tallies.items()},
        ladder=tuple(folding.previous),
    )


def _copy(tally: Tally) -> Tally:
    """A tally that a fold may change without changing `tally` (its nights are frozen)."""
    return replace(tally, nights=list(tally.nights))
