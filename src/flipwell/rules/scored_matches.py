"""Matches scored by a season's latest fold, reused by its next fold where nothing changed.

Words:
- *scored match*: one group's match as a fold scored it: the match facts as scored (after a
  suspended or season-forfeited player's games are taken out), the serious-violation
  penalties that fall on its games, and its `MatchResult` (`score_checked_match`).
- *generation*: every scored match of one whole fold, all under that fold's ruleset and
  `explain`. A memo keeps only its latest generation, so it holds one season's matches: a
  match the latest fold did not score (a regrouped meet, a deleted one) is forgotten.

A write changes one match, and folding the season again (R3-e: a changed fact re-derives
game points, match bonus, standings and credits) scores every other match again from equal
facts. Reusing them is exact because a match's result is a pure function of exactly four
things: its facts, its penalties, the ruleset and `explain`; `score_checked_match` reads
nothing else (not the meet, the ladder, nor another match). A scored match is reused only
when all four are equal to this fold's, each compared by identity first, then by value
(facts, rulesets and results are frozen dataclasses with value equality). Equal values score
alike: machine scores are exact ints (`check_match`) and a `Ruleset` holds exactly typed
values. A compensatory game's amounts are checked only when scored (R7.3-m), so a match with
one is reused only if they are exact ints too (1.0 == 1, but 1.0 is refused). Facts and
results are values: nobody changes a dict inside one in place (the memo keeps both, and a
later fold's result shares the matches it reused with the previous fold's).

Thread safety: a fold reads the latest generation once, fills a dict of its own, and
publishes it, never changed again, by one assignment. Of two folds of a season at once the
one finishing last is kept, and the other's matches are scored again by the next fold: an
entry may be lost, never shared half-written, and every reuse is verified.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from flipwell.rules.match import MatchFacts, MatchResult, score_checked_match
from flipwell.rules.ruleset import Ruleset
from flipwell.rules.values import PlayerId

Penalties = Mapping[int, frozenset[PlayerId]]
"""Game number (1-based) -> the players whose serious-violation penalty falls on it (R8.5-c)."""
_Key = tuple[int, tuple[PlayerId, ...]]
"""A match's place in a season: (meet number, its players in ladder order)."""


@dataclass(frozen=True, slots=True)
class _Scored:
    match: MatchFacts
    penalties: Penalties
    result: MatchResult


@dataclass(frozen=True, slots=True)
class _Generation:
    ruleset: Ruleset | None
    explain: bool
    matches: Mapping[_Key, _Scored]


_NONE = _Generation(ruleset=None, explain=False, matches={})


class ScoredMatches:
    """The matches a season's latest fold scored, for its next fold to reuse (issue #10).

    Pass the same one to every `fold_season` of one season with one `explain` (a memo shared
    by two seasons or two kinds only gets fewer reuses, never a wrong one). The results are
    those of folding without it (R3-e).
    """

    __slots__ = ("_latest",)

    def __init__(self) -> None:
        self._latest = _NONE

    @property
    def size(self) -> int:
        """How many scored matches are kept: those of the latest fold."""
        return len(self._latest.matches)

    def for_fold(self, *, ruleset: Ruleset, explain: bool) -> MatchScoring:
        """The scoring of one fold, reusing this memo's matches and replacing them once done."""
        return MatchScoring(ruleset=ruleset, explain=explain, memo=self)

    def _publish(self, generation: _Generation) -> None:
        self._latest = generation


class MatchScoring:
    """One fold's match scoring: each match scored, or reused from the memo's latest fold.

    Without a memo it scores every match, exactly as `score_checked_match` does.
    """

    __slots__ = ("_explain", "_memo", "_previous", "_ruleset", "_scored")

    def __init__(
        self, *, ruleset: Ruleset, explain: bool, memo: ScoredMatches | None = None
    ) -> None:
        self._ruleset = ruleset
        self._explain = explain
        self._memo = memo
        latest = memo._latest if memo is not None else _NONE  # read once: see the module
        same = latest.explain == explain and (
            latest.ruleset is ruleset or latest.ruleset == ruleset
        )
        self._previous = latest.matches if same else {}
        self._scored: dict[_Key, _Scored] = {}

    def score(self, meet: int, match: MatchFacts, *, penalties: Penalties) -> MatchResult:
        """The result of `match` (checked by `check_match`) at meet `meet` (§3.2, §3.3)."""
        if self._memo is None:  # a fold with no memo: nothing to look up or to keep
            return score_checked_match(
                match, penalties=penalties, ruleset=self._ruleset, explain=self._explain
            )
        key = (meet, match.players)
        scored = self._previous.get(key)
        if scored is None or not _reusable(scored, match, penalties):
            result = score_checked_match(
                match, penalties=penalties, ruleset=self._ruleset, explain=self._explain
            )
            scored = _Scored(match, penalties, result)
        self._scored[key] = scored
        return scored.result

    def finish(self) -> None:
        """Keep this fold's matches, and only them, for the memo's next fold."""
        if self._memo is not None:
            self._memo._publish(_Generation(self._ruleset, self._explain, self._scored))


def _reusable(scored: _Scored, match: MatchFacts, penalties: Penalties) -> bool:
    """Whether `scored` is the result of scoring `match` with `penalties` (same ruleset)."""
    same_match = scored.match is match or scored.match == match
    same_penalties = scored.penalties is penalties or scored.penalties == penalties
    return same_match and same_penalties and _exact_compensatory(match)


def _exact_compensatory(match: MatchFacts) -> bool:
    """Every compensatory amount is an int: then an equal amount is an identical one."""
    return all(
        type(c.new) is int and type(c.leading_subtracted) is int and type(c.state_subtracted) is int
        for game in match.games
        if game.compensatory
        for c in game.compensatory.values()
    )
