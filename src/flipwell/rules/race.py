"""The playoff race: who has clinched a playoff spot, who is eliminated, who is still alive.

Words:
- *contender*: a player of the season with his current season league points (§3.3, A19) and
  whether he is still eligible; season-forfeited and suspended players are not (A05, A37).
- *qualifiers* (q): how many players enter the playoffs, from the eligible players (§6.1,
  §6.2, A05), by `flipwell.rules.playoffs.playoff_qualifier_count`.
- *meet maximum*: the most league points one player can earn at one meet (`max_meet_points`).
- *best possible*: a player's points plus the meet maximum for every meet left.
- *rival*: any other eligible player.
- *clinched*: he qualifies whatever happens: even if he earns nothing more and every rival
  earns the meet maximum at every meet left, fewer than q rivals can reach his total.
- *eliminated*: he cannot qualify whatever happens: even if he earns the meet maximum at
  every meet left, at least q rivals already have more points than that.
- *alive*: neither; `points_to_clinch` says what he must still earn to clinch if every rival
  earned the maximum.

Entry is decided by season totals after the last regular meet (R6.1-d, R6.2-a), and a tie at
the line is settled by a single-ball playoff (R6.1-e) that either player may lose: so a tie is
never enough to clinch, and a rival only eliminates a player by being strictly above him.

The race is a conservative bound. It lets every rival earn the meet maximum at once, though
only one player per group can win each game, so a player may stay "alive" slightly longer
than a finer analysis would show. "Clinched" and "eliminated" are certain for the field as it
is now: they take the eligible players and q as they are (a later season forfeit can lower q,
A05, and so reverse either), and the race assumes
league points only grow: a score correction (R3-e) or a wiped season (R8.5-e) changes the
inputs, and the race is then computed again.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from flipwell.rules.checks import check_count, check_points, check_unique
from flipwell.rules.errors import RuleError, about_player
from flipwell.rules.playoffs import playoff_qualifier_count
from flipwell.rules.ruleset import FWPL_V1, Ruleset
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


def max_meet_points(*, ruleset: Ruleset = FWPL_V1) -> int:
    """The most league points one player can earn at one meet (§3.2, §3.3, A08, A11).

    Per game the most is the winner's 7 plus a bonus point, or `single_player_game_points`
    (at most 8) when he is the only player. Per match the bonus is one match bonus point by
    default (`single_player_match_bonus` is at most 1); with `match_bonus_awards =
    "full_fifth_game"` the fifth game pays like a game, up to 7 + 1.
    """
    per_game = max(WINNER_GAME_POINTS + GAME_BONUS_MAX, ruleset.single_player_game_points)
    if ruleset.match_bonus_awards == "full_fifth_game":
        per_match = WINNER_GAME_POINTS + MATCH_BONUS_MAX
    else:
        per_match = max(MATCH_BONUS_MAX, ruleset.single_player_match_bonus)
    return GAMES_PER_MATCH * per_game + per_match


@dataclass(frozen=True)
class RaceStanding:
    """One eligible player's place in the race.

    best_possible: his points if he earns the meet maximum at every meet left.
    clinch_line: the total he must exceed to clinch if every rival earned the maximum (the
    q-th best rival's best possible); None when fewer than q rivals exist.
    points_to_clinch: the whole league points he must still earn to pass the clinch line, 0
    once clinched, None once eliminated. It can exceed what he can still earn: he then needs
    rivals to drop points, and with no meets left a tie at the line is settled by a
    single-ball playoff (R6.1-e).
    """

    player: PlayerId
    points: Fraction
    best_possible: Fraction
    status: RaceStatus
    clinch_line: Fraction | None
    points_to_clinch: int | None


@dataclass(frozen=True)
class PlayoffRace:
    """The race for the playoffs: q, the meets left, and every eligible player, best first."""

    qualifiers: int
    meets_left: int
    standings: tuple[RaceStanding, ...]

    def standing(self, player: PlayerId) -> RaceStanding:
        """One eligible player's standing; ineligible and unknown players are refused."""
        for standing in self.standings:
            if standing.player == player:
                return standing
        raise about_player("{player} is not an eligible player in this race", player)

    def status(self, player: PlayerId) -> RaceStatus:
        """One eligible player's status: clinched, alive or eliminated."""
        return self.standing(player).status


def playoff_race(
    contenders: Sequence[PlayoffCandidate], *, meets_left: int, ruleset: Ruleset = FWPL_V1
) -> PlayoffRace:
    """Classify every eligible player as clinched, eliminated or alive (§6.1, §6.2).

    R6.1-d, R6.2-a: the q players with the highest season totals after the last regular meet
    qualify, q by `playoff_qualifier_count` over the eligible players (A05; all entrants with
    `playoff_league_size = "all_entrants"`). R6.1-e: a tie at the line goes to a single-ball
    playoff, so clinching needs strictly more than the q-th best rival's best possible total,
    and elimination needs q rivals already strictly above his own best possible total.
    Standings are ordered by points, best first; equal points keep the contenders' order.
    """
    meets = check_count(meets_left, what="meets left")
    field = _checked(contenders)
    eligible = [(c.player, points) for c, points in field if c.eligible]
    league_size = len(eligible) if ruleset.playoff_league_size == "eligible_players" else len(field)
    qualifiers = min(playoff_qualifier_count(league_size, ruleset=ruleset), len(eligible))
    gain = meets * max_meet_points(ruleset=ruleset)
    ranked = sorted(eligible, key=lambda pair: -pair[1])
    standings = []
    for index, (player, points) in enumerate(ranked):
        rival_points = [p for i, (_, p) in enumerate(ranked) if i != index]
        standings.append(_standing(player, points, rival_points, qualifiers, gain))
    return PlayoffRace(qualifiers=qualifiers, meets_left=meets, standings=tuple(standings))


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


def _standing(
    player: PlayerId,
    points: Fraction,
    rival_points: Sequence[Fraction],
    qualifiers: int,
    gain: int,
) -> RaceStanding:
    best = points + gain
    # Rivals' best possible totals, best first; they all gain the same, so the order holds.
    rival_best = sorted((p + gain for p in rival_points), reverse=True)
    clinch_line = rival_best[qualifiers - 1] if len(rival_best) >= qualifiers else None
    if clinch_line is None or points > clinch_line:
        return RaceStanding(player, points, best, "clinched", clinch_line, 0)
    above_best = sum(1 for p in rival_points if p > best)
    if above_best >= qualifiers:
        return RaceStanding(player, points, best, "eliminated", clinch_line, None)
    # Play awards whole points, so the least amount strictly above the gap is ⌊gap⌋ + 1.
    needed = math.floor(clinch_line - points) + 1
    return RaceStanding(player, points, best, "alive", clinch_line, needed)
