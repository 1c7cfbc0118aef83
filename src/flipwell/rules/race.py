"""The playoff race: who has clinched a playoff spot, who is eliminated, who is still alive.

Words:
- *contender*: a player of the season with his current season league points (§3.3, A19) and
  whether he is eligible (`playoff_eligible`: active with a game played, A05, A37);
  season-forfeited and suspended players are not.
- *pending*: a player not eligible yet who may be by the last regular meet: active, with no
  game played, and a game still to play (tonight or at a meet left).
- *qualifiers* (q): how many players enter the playoffs, from the eligible players (§6.1,
  §6.2, A05), by `flipwell.rules.playoffs.playoff_qualifier_count`.
- *meet maximum*: the most league points one player can earn at one meet (`max_meet_points`).
- *still to earn*: the most a player can add before the season ends: the meet maximum for
  every meet after tonight, plus, at the meet being played, what his games still to play and
  his match bonus can give (his §2.4 credit if he has no score tonight); nothing more from a
  finished match. Between meets: the meet maximum for every meet left.
- *best possible*: a player's points plus what he may still earn.
- *ending*: one way the season can end: every player between his points now and his best
  possible, and each pending player eligible or not.
- *rival*: any other player who is or may become eligible.
- *clinched*: he qualifies in every ending: he is eligible, and fewer than q rivals reach his
  total even if he earns nothing more and every rival earns all he may.
- *eliminated*: he qualifies in no ending: even if he earns all he may, at least q rivals
  already have more points than that.
- *alive*: neither; `points_to_clinch` says what he must still earn to clinch if every rival
  earned all he may.

Entry is decided by season totals after the last regular meet (R6.1-d, R6.2-a), and a tie at
the line is settled by a single-ball playoff (R6.1-e) that either player may lose: so a tie is
never enough to clinch, and a rival only eliminates a player by being strictly above him.
q depends on how many players are eligible at the end, so each ending counts its own q; an
ending under six eligible players has no playoff line (§1), so while one is possible nobody
is clinched or eliminated.

The race is a conservative bound. It lets every rival earn all he may at once, though only
one player per group can win each game, so a player may stay "alive" slightly longer than a
finer analysis would show. "Clinched" and "eliminated" are certain under the facts as they
are now, the meet being played included (`season_race`): an eligible player stays eligible
(a later season forfeit can lower q, A05, and so reverse either), and league points only
grow: a score correction (R3-e), a violation's penalty (§8) or a wiped season (R8.5-e)
changes the inputs, and the race is then computed again.
"""

from __future__ import annotations

import bisect
import heapq
import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from flipwell.rules.checks import check_count, check_points, check_unique
from flipwell.rules.errors import RuleError, about_player
from flipwell.rules.playoffs import playoff_qualifier_count
from flipwell.rules.progress import season_progress
from flipwell.rules.ruleset import FWPL_V1, Ruleset
from flipwell.rules.season_values import SeasonFacts, SeasonResult, Standing
from flipwell.rules.values import PlayerId, PlayoffCandidate

GAMES_PER_MATCH = 4
"""§4: a match is four games."""

WINNER_GAME_POINTS = 7
"""R3.2-a, R3.2-c, R3.2-e: the winner of a 2-, 3- or 4-player game gets 7, the most any place
earns."""

GAME_BONUS_MAX = 1
"""R3.2-b, R3.2-d, R3.2-f, R3.2-g: a player wins at most one bonus point per game. A 4-player
game has two bonus points, but the first goes to 1st or 3rd and the second to 2nd or 4th."""

MATCH_BONUS_MAX = 1
"""R3.3-c..e (A08 default): a player wins at most one match bonus point. A 4-player group's
first point goes to 1st or 3rd, its second to 2nd or 4th; a lone included player gets
`single_player_match_bonus`, 0 or 1 (A11)."""

MAX_MEET_POINTS = GAMES_PER_MATCH * (WINNER_GAME_POINTS + GAME_BONUS_MAX) + MATCH_BONUS_MAX
"""33 under the FWPL_V1 defaults: 4 games × (7 + 1 bonus point) + 1 match bonus point.

The §2.4 all-night credit never exceeds it: it is half an average of nightly totals, each at
most this, so at most 16.5 (17 rounded half up). Compensatory games (§7.3) add to a machine
score, not to game points, and replays (§8.2) replace a game, so a meet never holds more than
four games' points.
"""

RaceStatus = Literal["clinched", "alive", "eliminated"]


def _per_game(ruleset: Ruleset) -> int:
    """The most one player can earn in one game (R3.2, A11)."""
    return max(WINNER_GAME_POINTS + GAME_BONUS_MAX, ruleset.single_player_game_points)


def _per_match(ruleset: Ruleset) -> int:
    """The most one player can earn from his match's bonus (R3.3, A08, A11)."""
    if ruleset.match_bonus_awards == "full_fifth_game":
        return WINNER_GAME_POINTS + MATCH_BONUS_MAX
    return max(MATCH_BONUS_MAX, ruleset.single_player_match_bonus)


def max_meet_points(*, ruleset: Ruleset = FWPL_V1) -> int:
    """The most league points one player can earn at one meet (§3.2, §3.3, A08, A11).

    Per game the most is the winner's 7 plus a bonus point, or `single_player_game_points`
    (at most 8) when he is the only player. Per match the bonus is one match bonus point by
    default (`single_player_match_bonus` is at most 1); with `match_bonus_awards =
    "full_fifth_game"` the fifth game pays like a game, up to 7 + 1.
    """
    return GAMES_PER_MATCH * _per_game(ruleset) + _per_match(ruleset)


@dataclass(frozen=True)
class RaceChance:
    """One player as the race reads him (module words).

    points: his league points now, the open meet's provisional points included. still_to_earn:
    the most he may still add before the season ends. eligible: eligible now (A05, A37).
    may_become_eligible: not eligible now but a game still to play (tonight or at a meet
    left), so that he may be by the last regular meet.
    """

    player: PlayerId
    points: Fraction
    still_to_earn: Fraction
    eligible: bool
    may_become_eligible: bool = False


@dataclass(frozen=True)
class RaceStanding:
    """One player's place in the race.

    best_possible: his points if he earns the most he can at every meet left.
    clinch_line: the total he must exceed to clinch if every rival earned the most he can
    (the q-th best rival's best possible, in the field that makes it highest); None when
    fewer than q rivals exist.
    points_to_clinch: the whole league points he must still earn to pass the clinch line, 0
    once clinched, None once eliminated (or with no clinch line). It can exceed what he can
    still earn: he then needs rivals to drop points, and with no meets left a tie at the line
    is settled by a single-ball playoff (R6.1-e).
    eligible: False for a player not eligible yet who may still be (`RaceChance`): never
    clinched, since he may play no game.
    """

    player: PlayerId
    points: Fraction
    best_possible: Fraction
    status: RaceStatus
    clinch_line: Fraction | None
    points_to_clinch: int | None
    eligible: bool = True


@dataclass(frozen=True)
class PlayoffRace:
    """The race for the playoffs: q, the meets left, and every player in it, best first."""

    qualifiers: int
    """q for the field as it is now (or, while it is under six, the smallest field that
    has a playoff line)."""
    meets_left: int
    standings: tuple[RaceStanding, ...]

    def standing(self, player: PlayerId) -> RaceStanding:
        """One player's standing; players out of the race and unknown players are refused."""
        found = self.find(player)
        if found is None:
            raise about_player("{player} is not an eligible player in this race", player)
        return found

    def find(self, player: PlayerId) -> RaceStanding | None:
        """One player's standing; None for a player out of the race."""
        return next((s for s in self.standings if s.player == player), None)

    def status(self, player: PlayerId) -> RaceStatus:
        """One player's status: clinched, alive or eliminated."""
        return self.standing(player).status


def playoff_race(
    contenders: Sequence[PlayoffCandidate], *, meets_left: int, ruleset: Ruleset = FWPL_V1
) -> PlayoffRace:
    """Classify every eligible player as clinched, eliminated or alive (§6.1, §6.2), for the
    field as it is now: every player earns up to the meet maximum at each meet left.

    R6.1-d, R6.2-a: the q players with the highest season totals after the last regular meet
    qualify, q by `playoff_qualifier_count` over the eligible players (A05; all entrants with
    `playoff_league_size = "all_entrants"`). R6.1-e: a tie at the line goes to a single-ball
    playoff, so clinching needs strictly more than the q-th best rival's best possible total,
    and elimination needs q rivals already strictly above his own best possible total.
    Standings are ordered by points, best first; equal points keep the contenders' order.
    `season_race` reads a season, the meet being played included.
    """
    meets = check_count(meets_left, what="meets left")
    gain = Fraction(meets * max_meet_points(ruleset=ruleset))
    chances = [RaceChance(c.player, points, gain, c.eligible) for c, points in _checked(contenders)]
    return race_of(chances, meets_left=meets, ruleset=ruleset)


def playoff_eligible(standing: Standing) -> bool:
    """A05, A37: still active (not season-forfeited, not suspended) with a game played."""
    return standing.active and standing.games_played > 0


def season_race(
    facts: SeasonFacts,
    result: SeasonResult,
    *,
    number_of_meets: int | None = None,
    ruleset: Ruleset = FWPL_V1,
) -> PlayoffRace:
    """The race of a folded season, certain under its provisional facts (§6.1, §6.2, R3.3-b).

    A closed meet's points are final. At the meet being played (`flipwell.rules.progress`) a
    group's games still to play may go any way: a player whose match is unfinished may still
    earn each game left's most and the match bonus (R3.3-b: it comes after game 4), and one
    with no score recorded tonight his §2.4 credit at the close (at most the meet maximum);
    a player with no game played this season who still has one to play (tonight, or at a
    meet left, which a late entrant joining after the season's last meet has not, A68) may
    become eligible (A05) or not. Every meet after it gives up to the meet
    maximum. number_of_meets: the season's (None: the facts', lowered when the season was cut
    short, A68). RuleError when no field the season can end with has six eligible players (§1).
    """
    progress = season_progress(facts, number_of_meets=number_of_meets)
    most = max_meet_points(ruleset=ruleset)
    after = progress.left - (1 if progress.open_meet is not None else 0)
    tonight, may_play = _still_tonight(result, progress.open_meet, ruleset)
    chances = []
    for standing in result.standings():
        eligible = playoff_eligible(standing)
        chances.append(
            RaceChance(
                player=standing.player,
                points=Fraction(standing.league_points),
                still_to_earn=tonight.get(standing.player, Fraction(0)) + after * most,
                eligible=eligible,
                may_become_eligible=(
                    not eligible
                    and standing.active
                    and facts.joined_at.get(standing.player, 1) <= progress.meets
                    and (after > 0 or standing.player in may_play)
                ),
            )
        )
    return race_of(chances, meets_left=progress.left, ruleset=ruleset)


def _still_tonight(
    result: SeasonResult, open_meet: int | None, ruleset: Ruleset
) -> tuple[dict[PlayerId, Fraction], set[PlayerId]]:
    """The most each grouped player may still add at the open meet, and the players with a
    game of it still to play (`season_race`)."""
    if open_meet is None:
        return {}, set()
    most = max_meet_points(ruleset=ruleset)
    per_game, per_match = _per_game(ruleset), _per_match(ruleset)
    still: dict[PlayerId, Fraction] = {}
    may_play: set[PlayerId] = set()
    for match in result.meets[open_meet - 1].matches:
        left = GAMES_PER_MATCH - len(match.games)
        for player, line in match.players.items():
            so_far = line.night_total
            if line.games_played == 0:
                # Every game still to play, or the §2.4 credit if he plays none: a night's
                # total is at most the meet maximum either way.
                still[player] = Fraction(max(most - so_far, 0))
            else:
                still[player] = Fraction(left * per_game + (per_match if left else 0))
            if left:
                may_play.add(player)
    return still, may_play


def race_of(
    chances: Sequence[RaceChance], *, meets_left: int, ruleset: Ruleset = FWPL_V1
) -> PlayoffRace:
    """Classify each player who is or may become eligible (§6.1, §6.2, R6.1-d, R6.1-e).

    Every player ends between his points now and his points plus what he may still earn;
    a player who may become eligible does or does not. *Clinched*: in every such ending he
    is eligible and fewer than q rivals reach his total (a tie may lose the R6.1-e playoff).
    *Eliminated*: in every ending in which he is eligible, at least q rivals are strictly
    above him. q follows the field each ending leaves (`playoff_qualifier_count`); an ending
    under six eligible players has no playoff line (§1), so while one is possible nobody is
    clinched or eliminated. RuleError when no ending has one.
    """
    check_count(meets_left, what="meets left")
    eligible = [c for c in chances if c.eligible]
    pending = [c for c in chances if not c.eligible and c.may_become_eligible]

    def line_of(joined: int) -> int | None:
        count = len(eligible) + joined
        size = count if ruleset.playoff_league_size == "eligible_players" else len(chances)
        try:
            return min(playoff_qualifier_count(size, ruleset=ruleset), count)
        except RuleError:
            return None

    lines = [line_of(joined) for joined in range(len(pending) + 1)]
    known = [q for q in lines if q is not None]
    if not known:
        playoff_qualifier_count(len(eligible) + len(pending), ruleset=ruleset)  # raises
        raise RuleError("no playoff line")  # pragma: no cover (the count above raised)
    ranked = sorted([*eligible, *pending], key=lambda c: -c.points)
    field = _Field.of(eligible, pending)
    standings = tuple(_standing(c, field, lines) for c in ranked)
    return PlayoffRace(qualifiers=known[0], meets_left=meets_left, standings=standings)


@dataclass(frozen=True)
class _Field:
    """The eligible (*sure*) and the pending (*maybe*) players' points and best possible
    totals, each sorted once: a player's rivals are these lists without him, so the race
    costs a pass over the field per player, not a sort (48 players: a third of a standings
    page's render before)."""

    sure_best: list[Fraction]  # best first
    maybe_best: list[Fraction]  # best first
    sure_points: list[Fraction]  # lowest first
    maybe_points: list[Fraction]  # lowest first

    @classmethod
    def of(cls, eligible: Sequence[RaceChance], pending: Sequence[RaceChance]) -> _Field:
        return cls(
            sure_best=sorted((c.points + c.still_to_earn for c in eligible), reverse=True),
            maybe_best=sorted((c.points + c.still_to_earn for c in pending), reverse=True),
            sure_points=sorted(c.points for c in eligible),
            maybe_points=sorted(c.points for c in pending),
        )

    def rivals_best(self, him: RaceChance) -> tuple[list[Fraction], list[Fraction]]:
        """The sure and the maybe rivals' best totals, best first: the field's without his."""
        own = him.points + him.still_to_earn
        if him.eligible:
            return _without(self.sure_best, own), self.maybe_best
        return self.sure_best, _without(self.maybe_best, own)

    def rivals_above(self, him: RaceChance) -> tuple[int, int]:
        """How many sure and maybe rivals have more points now than his best possible."""
        best = him.points + him.still_to_earn
        sure = len(self.sure_points) - bisect.bisect_right(self.sure_points, best)
        maybe = len(self.maybe_points) - bisect.bisect_right(self.maybe_points, best)
        himself = int(him.points > best)  # never, while what he may still earn is not negative
        return (sure - himself, maybe) if him.eligible else (sure, maybe - himself)


def _without(values: list[Fraction], value: Fraction) -> list[Fraction]:
    """`values` with one occurrence of `value` left out (equal values are interchangeable)."""
    rest = list(values)
    rest.remove(value)
    return rest


def _qth(first: Sequence[Fraction], second: Sequence[Fraction], q: int) -> Fraction | None:
    """The q-th largest of two lists sorted best first; None when they hold fewer than q."""
    merged = heapq.merge(first, second, reverse=True)
    return next(itertools.islice(merged, q - 1, None), None)


def _checked(contenders: Sequence[PlayoffCandidate]) -> list[tuple[PlayoffCandidate, Fraction]]:
    for contender in contenders:
        if not isinstance(contender, PlayoffCandidate):
            raise RuleError(f"the race takes PlayoffCandidate values, got {contender!r}")
    check_unique((c.player for c in contenders), what="the contenders")
    field = []
    for contender in contenders:
        if not isinstance(contender.eligible, bool):
            raise about_player(
                "{player}'s eligible must be True or False, got {got}",
                contender.player,
                got=repr(contender.eligible),
            )
        points = check_points(
            contender.points, what="{player}'s league points", player=contender.player
        )
        field.append((contender, points))
    return field


def _standing(him: RaceChance, field: _Field, lines: Sequence[int | None]) -> RaceStanding:
    """His standing over every field the season can end with (`race_of`): `lines[j]` is q
    when j of the pending players become eligible."""
    points, best = him.points, him.points + him.still_to_earn
    # He joins the field himself if he is pending: the fields he is eligible in.
    joins = 0 if him.eligible else 1
    sure_best, maybe_best = field.rivals_best(him)
    above, maybe_above = field.rivals_above(him)
    certain, eliminated = True, True
    most_joined: dict[int, int] = {}  # q -> the most pending rivals joining with that q
    for joined in range(len(maybe_best) + 1):
        q = lines[joins + joined]
        if q is None:
            certain = False
            continue
        most_joined[q] = joined
        # The fewest rivals above him when `joined` pending players play (the weakest first).
        if above + max(0, joined - (len(maybe_best) - maybe_above)) < q:
            eliminated = False
    # The rivals' best totals when the strongest pending players join: for one q, the more
    # join, the higher its line, so each q needs only its largest field.
    clinch_line = max(
        (_qth(sure_best, maybe_best[:joined], q) for q, joined in most_joined.items()),
        key=lambda line: Fraction(-1) if line is None else line,
        default=None,
    )
    reached = clinch_line is None or points > clinch_line
    if certain and him.eligible and reached:
        return RaceStanding(him.player, points, best, "clinched", clinch_line, 0, him.eligible)
    if certain and eliminated:
        return RaceStanding(him.player, points, best, "eliminated", clinch_line, None, him.eligible)
    # Play awards whole points, so the least amount strictly above the gap is ⌊gap⌋ + 1.
    needed = None if clinch_line is None or reached else math.floor(clinch_line - points) + 1
    return RaceStanding(him.player, points, best, "alive", clinch_line, needed, him.eligible)
