"""A season: its meets folded, in order, into standings; and the next meet's ladder and groups.

Words:
- *season facts*: what happened: the entrants, when each joined, and for every meet its
  groups' matches, announced absences and violations. Nothing derived is stored in them.
- *night*: one player's line for one meet: game points, match bonus, the §2.4 credit,
  forfeits, and how he took part (played, absent, not yet joined, out of the league).
- *standing*: a player's season so far: league points (exact), games played, forfeits,
  countable forfeits, season forfeited and at which meet, credit used, offenses.
- *active*: joined, and neither season-forfeited (§2.5) nor suspended (§8.5, §8.8).

Folding is a pure function of the facts: change a fact and fold again (R3-e). The facts and
the results (`SeasonFacts`, `Night`, `Standing`, `SeasonResult`, ...) are `season_values`'.
The ladder and groups are `season_ladder`'s, the §8.5 penalties `season_penalties`' and each
player's nights and running totals `season_nights`'.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from flipwell.rules.checks import check_count, check_unique
from flipwell.rules.errors import RuleError
from flipwell.rules.match import GAMES_PER_MATCH
from flipwell.rules.match_scoring import match_as_played, score_checked_match
from flipwell.rules.ruleset import FWPL_V1, Ruleset
from flipwell.rules.season_ladder import (
    active_ladder,
    check_attendance,
    expected_groups,
    joined_at,
    meet_ladder,
)
from flipwell.rules.season_nights import (
    Tally,
    absent_night,
    played_night,
    record_night,
    standing_from,
)
from flipwell.rules.season_penalties import (
    apply_offenses,
    penalties_for,
    penalty_decisions,
    suspensions,
    without_season_forfeited,
    without_suspended,
)
from flipwell.rules.season_values import (
    MeetFacts,
    MeetResult,
    SeasonFacts,
    SeasonResult,
    Standing,
)
from flipwell.rules.values import PlayerId


def fold_season(
    facts: SeasonFacts,
    *,
    ruleset: Ruleset = FWPL_V1,
    explain: bool = False,
) -> SeasonResult:
    """Fold every meet of a season into standings and the next ladder (§2.4, §2.5, §3, §4, §8.5).

    explain: also write why each point was given (each game's and match bonus's `PointLine`s,
    `MatchResult.explanation`). Without it the result has the same numbers and no lines, for
    the many readers that only need points: the lines cost more than the points themselves.

    R3.3-a: match bonus counts like game points. R2.4-d/e: the all-night credit. R2.4-f: late
    entrants forfeit the games before they joined. R2.5-a: 12 countable forfeits forfeit the
    season. R8.5-b..f: serious violations are cumulative; the third (or violence, vandalism,
    cheating) forfeits the season and wipes the player's scores. R3.1-b, R4.3-c: each meet's
    ladder comes from the season's league points so far.
    """
    players = check_unique((e.player for e in facts.entrants), what="the entrants")
    joined = joined_at(facts, players)
    meets_in_order = in_order(facts.meets)  # each match was checked when made (MatchFacts)
    suspended = suspensions(facts, ruleset) if ruleset.third_offense_rescore_others else {}
    # A re-scored season still had the ladders it was played with: groups already drawn are
    # never redrawn (A45.3), so take each meet's ladder from the season as played.
    as_played = (
        fold_season(facts, ruleset=replace(ruleset, third_offense_rescore_others=False))
        if suspended
        else None
    )
    folding = Folding(facts, joined, {p: Tally() for p in players}, suspended, ruleset, explain)
    for index, meet in enumerate(meets_in_order):
        folding.fold_meet(meet, as_played.meets[index].ladder if as_played is not None else None)
    return folding.result()


class Folding:
    """A season's fold in progress: the meets folded so far, each player's running totals and
    the last meet's ladder; `fold_meet` folds the next meet on top (`fold_season`, and
    `season_prefix.fold_from` from a stored state)."""

    def __init__(
        self,
        facts: SeasonFacts,
        joined: Mapping[PlayerId, int],
        tallies: dict[PlayerId, Tally],
        suspended: Mapping[PlayerId, int],
        ruleset: Ruleset,
        explain: bool,
        meets: Sequence[MeetResult] = (),
        previous: Sequence[PlayerId] = (),
    ) -> None:
        self.facts, self.joined, self.tallies = facts, joined, tallies
        self.suspended, self.ruleset, self.explain = suspended, ruleset, explain
        self.meets: list[MeetResult] = list(meets)
        self.previous: list[PlayerId] = list(previous)

    def fold_meet(self, meet: MeetFacts, ladder: Sequence[PlayerId] | None = None) -> None:
        """Fold the next meet, from `ladder` when given (the season as played), else from the
        ladder the season so far gives (R3.1-b, R4.3-c)."""
        current = (
            list(ladder)
            if ladder is not None
            else meet_ladder(
                self.facts, meet.number, self.joined, self.tallies, self.previous, self.ruleset
            )
        )
        result = _fold_meet(
            self.facts,
            meet,
            current,
            self.joined,
            self.tallies,
            self.suspended,
            self.ruleset,
            self.explain,
        )
        self.meets.append(result)
        self.previous = current

    def result(self) -> SeasonResult:
        """The season folded so far: its meets, standings and the next meet's ladder."""
        tallies, number, facts = self.tallies, len(self.meets) + 1, self.facts
        ladder = active_ladder(tallies, self.previous, self.joined, number, facts, self.ruleset)
        standings = {p: standing_from(p, t) for p, t in tallies.items()}
        return SeasonResult(meets=tuple(self.meets), players=standings, ladder=tuple(ladder))


def may_play_game(standing: Standing, *, meet: int, game: int) -> bool:
    """Whether the player may still play game `game` of meet `meet` (§2.5, R2.5-b, A65).

    A season forfeit takes effect at the moment of the 12th countable forfeit, even mid-night:
    his games of that meet up to that forfeit stand, the later ones are not played.
    """
    at = standing.season_forfeited_at
    if at is None or at > meet:
        return True
    if at < meet or standing.season_forfeited_game is None:
        return False
    return game <= standing.season_forfeited_game


def scores_adjusted_at(facts: SeasonFacts, result: SeasonResult, meet: int) -> bool:
    """Whether a game of meet `meet` ranks a player by another score than the one entered: a
    compensatory game (R7.3-m), a 25% reduction (R8.1-b), a zero score (R8.2-a, R8.7-a) or a
    §8.5 penalty (R8.5-c) of `result`, the fold of `facts`.

    Only such a game's explained scoring says more about its scores than the numbers do (the
    reasons for each adjustment); without one, a reader of the meet's scores needs no
    explained fold (the meet board after every score)."""
    if not 1 <= meet <= len(facts.meets):
        return False
    penalized = meet <= len(result.meets) and any(result.meets[meet - 1].penalties.values())
    return penalized or any(
        game.adjusted for match in facts.meets[meet - 1].groups for game in match.games
    )


def in_order(meets: Sequence[MeetFacts]) -> list[MeetFacts]:
    """The meets, checked to be numbered 1, 2, 3... in order."""
    numbers = [check_count(m.number, what="meet number", minimum=1) for m in meets]
    if numbers != list(range(1, len(meets) + 1)):
        raise RuleError(f"meets must be numbered 1, 2, 3... in order; got {numbers}")
    return list(meets)


def _fold_meet(
    facts: SeasonFacts,
    meet: MeetFacts,
    current: Sequence[PlayerId],
    joined: Mapping[PlayerId, int],
    tallies: dict[PlayerId, Tally],
    suspended: Mapping[PlayerId, int],
    ruleset: Ruleset,
    explain: bool,
) -> MeetResult:
    grouped = check_attendance(meet, current, tallies)
    matches = [
        without_season_forfeited(
            without_suspended(match_as_played(m), suspended, meet.number), tallies, ruleset
        )
        for m in meet.groups
    ]
    decisions, penalties = penalty_decisions(meet, matches, tallies, ruleset)
    results = tuple(
        score_checked_match(
            m, penalties=penalties_for(m, penalties), ruleset=ruleset, explain=explain
        )
        for m in matches
    )
    for result in results:
        finished = meet.closed or len(result.games) == GAMES_PER_MATCH
        for line in result.players.values():
            night = played_night(meet.number, line, closed=meet.closed, finished=finished)
            record_night(tallies[line.player], night, ruleset)
    for player, tally in tallies.items():
        if player not in grouped:
            absent = absent_night(player, meet, joined, tally, facts, ruleset)
            if absent is not None:
                record_night(tally, absent, ruleset)
    apply_offenses(meet, decisions, tallies)
    expected = expected_groups(current, meet, ruleset)
    return MeetResult(
        number=meet.number,
        ladder=tuple(current),
        expected_groups=expected,
        matches=results,
        penalties=penalties,
        decisions=tuple(decisions),
    )
