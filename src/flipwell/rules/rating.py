"""A rating for every player from his group games: Glicko-2, one rating period a meet.

Not an FWPL rule: the standings alone decide the playoffs (§6). The rating is what league
players ask for beyond one season: how strong a player is across seasons and leagues, how
sure that is, and each player's chance in a game before it is played.

Words:
- *rating* (r), *deviation* (RD) and *volatility* (σ) are Glicko-2's, on the Glicko scale
  (a new player is 1500 ± 350), as Mark Glickman's "Example of the Glicko-2 system" (2013)
  defines them; `rate` is that paper's steps 1-8, and its worked example is a test.
- *pairwise results*: a 2-, 3- or 4-player game is the results of every pair of its players,
  the better place winning (1), the worse losing (0), a tie a half each. A forfeit is no game:
  the caller leaves the forfeited player out of the game's places.
- *rating period*: one meet. Every result of a meet is rated at once against the ratings
  before the meet; a player with no game at a meet has his deviation grow by his volatility
  (step 6), as Glicko-2 does for a period without games.
- *between seasons*: `SEASON_GAP_PERIODS` idle periods: the deviation grows while a player is
  away, so his first games of the next season move his rating more.
- *range*: the rating ± about two deviations (a 95% interval), in plain words
  (`plain_range`: "about 1,650 ± 120").
"""

from __future__ import annotations

import math
from collections.abc import Container, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import combinations
from typing import TypeVar

from flipwell.rules.progress import season_progress
from flipwell.rules.stats import FoldedSeason
from flipwell.rules.values import PlayerId

K = TypeVar("K", bound=Hashable)

GLICKO_SCALE = 173.7178
"""Glicko-2's factor between the Glicko scale (1500 ± 350) and its own (0 ± 2.01)."""
START_RATING = 1500.0
START_DEVIATION = 350.0
START_VOLATILITY = 0.06
TAU = 0.5
"""The system constant τ: how fast volatility may change (Glickman suggests 0.3 to 1.2)."""
CONVERGENCE = 0.000001
"""The ε of step 5's iteration."""
SEASON_GAP_PERIODS = 4
"""Idle rating periods counted between two seasons (a few weeks away)."""
RANGE_DEVIATIONS = 1.96
"""How many deviations the plain-words range spans each side (a 95% interval)."""


@dataclass(frozen=True)
class Rating:
    """A player's Glicko-2 rating on the Glicko scale."""

    rating: float = START_RATING
    deviation: float = START_DEVIATION
    volatility: float = START_VOLATILITY

    @property
    def mu(self) -> float:
        return (self.rating - START_RATING) / GLICKO_SCALE

    @property
    def phi(self) -> float:
        return self.deviation / GLICKO_SCALE


@dataclass(frozen=True)
class Result:
    """One pairwise result of a rating period: the opponent's rating before the period and the
    score (1 a win, 0.5 a tie, 0 a loss)."""

    opponent: Rating
    score: float


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, opponent_mu: float, opponent_phi: float) -> float:
    return 1 / (1 + math.exp(-_g(opponent_phi) * (mu - opponent_mu)))


def expected_score(player: Rating, opponent: Rating) -> float:
    """The player's expected score against the opponent (Glicko-2's E): his chance to beat
    him, a tie counting a half."""
    return _expected(player.mu, opponent.mu, opponent.phi)


def rate(player: Rating, results: Sequence[Result], *, tau: float = TAU) -> Rating:
    """The player's rating after one rating period with these results (Glickman's steps 1-8);
    with none, only his deviation grows (step 6)."""
    if not results:
        return idle(player)
    mu, phi = player.mu, player.phi
    weights = [(_g(r.opponent.phi), _expected(mu, r.opponent.mu, r.opponent.phi)) for r in results]
    variance = 1 / sum(g * g * e * (1 - e) for g, e in weights)  # step 3: v
    surprise = sum(g * (r.score - e) for (g, e), r in zip(weights, results, strict=True))
    delta = variance * surprise  # step 4: Δ
    volatility = _new_volatility(phi, player.volatility, variance, delta, tau)  # step 5
    phi_star = math.sqrt(phi * phi + volatility * volatility)  # step 6
    new_phi = 1 / math.sqrt(1 / (phi_star * phi_star) + 1 / variance)  # step 7
    new_mu = mu + new_phi * new_phi * surprise
    return Rating(
        rating=GLICKO_SCALE * new_mu + START_RATING,  # step 8
        deviation=GLICKO_SCALE * new_phi,
        volatility=volatility,
    )


def _new_volatility(phi: float, sigma: float, v: float, delta: float, tau: float) -> float:
    """Step 5: σ' by the Illinois algorithm, as the paper gives it."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2 * (phi * phi + v + ex) ** 2) - (
            x - a
        ) / (tau * tau)

    low = a
    if delta * delta > phi * phi + v:
        high = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        high = a - k * tau
    f_low, f_high = f(low), f(high)
    while abs(high - low) > CONVERGENCE:
        middle = low + (low - high) * f_low / (f_high - f_low)
        f_middle = f(middle)
        if f_middle * f_high <= 0:
            low, f_low = high, f_high
        else:
            f_low /= 2
        high, f_high = middle, f_middle
    return math.exp(low / 2)


def idle(player: Rating, periods: int = 1) -> Rating:
    """The rating after `periods` rating periods without a game: the deviation grows by the
    volatility each period (step 6), never past a new player's."""
    phi = player.phi
    for _ in range(periods):
        phi = math.sqrt(phi * phi + player.volatility * player.volatility)
    return replace(player, deviation=min(GLICKO_SCALE * phi, START_DEVIATION))


def between_seasons(player: Rating) -> Rating:
    """The rating a player brings into the next season: `SEASON_GAP_PERIODS` idle periods."""
    return idle(player, SEASON_GAP_PERIODS)


def pairwise(places: Sequence[tuple[K, int]]) -> list[tuple[K, K, float]]:
    """A game's pairwise results from its players' places (1 the best): (a, b, a's score),
    one for each pair, in the order the players are given."""
    return [
        (a, b, 1.0 if pa < pb else 0.0 if pa > pb else 0.5)
        for (a, pa), (b, pb) in combinations(places, 2)
    ]


def rate_meet(
    ratings: Mapping[K, Rating],
    games: Iterable[Sequence[tuple[K, int]]],
    players: Iterable[K] = (),
    *,
    tau: float = TAU,
) -> dict[K, Rating]:
    """Everyone's rating after one meet (a rating period): each game given as its players'
    places, rated pairwise against the ratings before the meet. A player not in `ratings`
    starts at 1500 ± 350; `players` (and everyone already rated) without a game at the meet
    has an idle period."""
    before = dict(ratings)
    results: dict[K, list[Result]] = {key: [] for key in (*before, *players)}
    for game in games:
        for a, b, score in pairwise(game):
            ra, rb = before.get(a, Rating()), before.get(b, Rating())
            results.setdefault(a, []).append(Result(rb, score))
            results.setdefault(b, []).append(Result(ra, 1 - score))
    return {key: rate(before.get(key, Rating()), got, tau=tau) for key, got in results.items()}


def win_chances(ratings: Sequence[Rating]) -> list[float]:
    """Each player's chance to win a game against the others (the best place), from the
    ratings: Luce's choice model on the Glicko-2 scale, each player's strength
    ``exp(g(phi) * mu)``, `phi` the players' combined deviation (Glicko's two-player
    expectation, ``g(sqrt(phi_a^2 + phi_b^2))``, with the field's mean deviation). Two players
    get the pairwise expectation; in a bigger game it stays calibrated, where multiplying the
    pairwise expectations made the favourite far too sure (bench/bench_ratings.py measures it).
    """
    if len(ratings) < 2:
        return [1.0] * len(ratings)
    spread = _g(math.sqrt(2 * sum(p.phi**2 for p in ratings) / len(ratings)))
    top = max(p.mu for p in ratings)
    strengths = [math.exp(spread * (p.mu - top)) for p in ratings]
    total = sum(strengths)
    return [s / total for s in strengths]


def rating_range(player: Rating) -> tuple[int, int]:
    """The rating's 95% range (± `RANGE_DEVIATIONS` deviations), in tens."""
    middle, spread = _in_tens(player)
    return middle - spread, middle + spread


def plain_range(player: Rating) -> str:
    """The rating and its 95% range in plain words: "about 1,650 ± 120" (tens)."""
    middle, spread = _in_tens(player)
    return f"about {middle:,} ± {spread:,}"


def _in_tens(player: Rating) -> tuple[int, int]:
    return (
        round(player.rating / 10) * 10,
        round(RANGE_DEVIATIONS * player.deviation / 10) * 10,
    )


@dataclass(frozen=True)
class RatedMeet:
    """One meet as a rating period: its season (any key, for the gap between seasons), the
    season's players (who idle when absent) and its games as places (forfeits left out)."""

    meet: Hashable
    season: Hashable
    roster: Sequence[Hashable]
    games: Sequence[Sequence[tuple[Hashable, int]]]


@dataclass(frozen=True)
class RatingPoint:
    """A player's rating after one meet."""

    meet: Hashable
    rating: Rating


@dataclass
class Rivalry:
    """One player's pairwise record against one rival: games, his expected wins from the
    ratings before each meet, and his actual wins (a tie a half)."""

    games: int = 0
    expected: float = 0.0
    actual: float = 0.0


@dataclass
class RatingBook:
    """Everything rated: each player's ratings after each of his meets, and each player's
    rivalries season by season (player -> (rival, season) -> `Rivalry`)."""

    history: dict[Hashable, list[RatingPoint]]
    rivalries: dict[Hashable, dict[tuple[Hashable, Hashable], Rivalry]]

    def current(self, player: Hashable) -> Rating | None:
        """The player's rating after his last meet; None if he has none."""
        points = self.history.get(player)
        return points[-1].rating if points else None

    def games(self, player: Hashable) -> int:
        """How many pairwise results rated the player."""
        return sum(r.games for r in self.rivalries.get(player, {}).values())

    def rivals(
        self, player: Hashable, seasons: Container[Hashable] | None = None
    ) -> dict[Hashable, Rivalry]:
        """The player's record against each rival, over `seasons` (every season when None)."""
        found: dict[Hashable, Rivalry] = {}
        for (rival, season), record in self.rivalries.get(player, {}).items():
            if seasons is None or season in seasons:
                total = found.setdefault(rival, Rivalry())
                total.games += record.games
                total.expected += record.expected
                total.actual += record.actual
        return found


def rating_history(meets: Iterable[RatedMeet]) -> dict[Hashable, list[RatingPoint]]:
    """Every player's rating after each meet of his seasons (`rate_all`'s history)."""
    return rate_all(meets).history


def rate_all(meets: Iterable[RatedMeet]) -> RatingBook:
    """Every meet rated in the order given (the order they were played, across seasons and
    leagues). A player's first meet of a season new to him starts from his rating
    `between_seasons` (once a season, so two leagues played in the same weeks do not widen it
    every week)."""
    current: dict[Hashable, Rating] = {}
    seasons_of: dict[Hashable, set[Hashable]] = {}
    book = RatingBook(history={}, rivalries={})
    for meet in meets:
        playing = {*meet.roster, *(player for game in meet.games for player, _ in game)}
        before = {p: _entering(current, seasons_of, p, meet.season) for p in playing}
        _tally(book.rivalries, before, meet)
        after = rate_meet(before, meet.games, playing)
        for player, rating in after.items():
            current[player] = rating
            seasons_of.setdefault(player, set()).add(meet.season)
            book.history.setdefault(player, []).append(RatingPoint(meet.meet, rating))
    return book


def _tally(
    rivalries: dict[Hashable, dict[tuple[Hashable, Hashable], Rivalry]],
    before: Mapping[Hashable, Rating],
    meet: RatedMeet,
) -> None:
    """Add a meet's pairwise results to both players' rivalries of the meet's season."""
    for game in meet.games:
        for a, b, score in pairwise(game):
            for me, rival, mine in ((a, b, score), (b, a, 1 - score)):
                key = (rival, meet.season)
                record = rivalries.setdefault(me, {}).setdefault(key, Rivalry())
                record.games += 1
                record.expected += expected_score(before[me], before[rival])
                record.actual += mine


def _entering(
    current: Mapping[Hashable, Rating],
    seasons_of: Mapping[Hashable, set[Hashable]],
    player: Hashable,
    season: Hashable,
) -> Rating:
    """The rating a player brings into a meet of `season`."""
    if player not in current:
        return Rating()
    if season not in seasons_of[player]:
        return between_seasons(current[player])
    return current[player]


def rated_meets(
    seasons: Iterable[FoldedSeason], *, person_of: Mapping[PlayerId, PlayerId]
) -> list[RatedMeet]:
    """The meets held of folded `seasons` (in the order given) as rating periods: each game's
    players by their places in its finishing order (§3.2; a forfeit has none, R2.4-b), named
    by person (`person_of`, as `flipwell.rules.stats` names them). The meet being played is
    left out: tonight's chances are read from the ratings before it."""
    rated: list[RatedMeet] = []
    for season in seasons:
        progress = season_progress(season.facts, number_of_meets=max(len(season.facts.meets), 1))
        roster = [person_of.get(p, p) for p in season.result.players]
        for meet in season.result.meets:
            if meet.number == progress.open_meet:
                continue
            games = [
                [(person_of.get(p, p), place) for place, p in enumerate(game.result.order, 1)]
                for match in meet.matches
                for game in match.games
            ]
            rated.append(RatedMeet((season.key, meet.number), season.key, roster, games))
    return rated
