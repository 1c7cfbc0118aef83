"""Ratings: every person's Glicko-2 rating from the group games of every public season of the
installation (`flipwell.rules.rating`), read from the seasons' stored folds.

Words: *rating*, *deviation*, *range*, *rivalry*: see `flipwell.rules.rating`; *person*: see
`flipwell.league.models.players` (merged rows are one person, rated as one). The meets are
rated in the order they were played (by date, then season and number), across leagues,
since a person may play in several. A rating is not a standing: the standings alone decide
the playoffs (§6), and nothing here is stored.

The whole installation is rated at once and remembered in this process (the ratings memo of
`flipwell.league.derived`) under a key made of every season's revision and publication and
the merges (`_fingerprint`, two small queries): any write anywhere gives a new key, and the
next reader rates again (the folds are stored, so that is the rating arithmetic alone). Every
selector here runs a fixed number of queries.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from datetime import date

from django.db.models import Count, Max, Q

from flipwell.league import models as m
from flipwell.league.adapters.keys import player_key
from flipwell.league.derived import caches
from flipwell.league.selectors.people import (
    Person,
    SeasonName,
    folded_seasons,
    people_of_seasons,
    person_keys,
    persons_by_key,
    season_name,
)
from flipwell.league.selectors.seasons import with_state
from flipwell.league.selectors.standings import PlayerRef
from flipwell.rules.rating import (
    Rating,
    RatingBook,
    plain_range,
    rate_all,
    rated_meets,
    rating_range,
    win_chances,
)

MIN_RATED_GAMES = 12
"""Pairwise results a person needs to be listed on a league's ratings page (three 4-player
games): fewer say little about him."""


@dataclass(frozen=True)
class RatingLine:
    """A person's rating as shown: the number, its deviation, the plain-words range and how
    many pairwise results it rests on."""

    player: PlayerRef
    rating: int
    deviation: int
    words: str
    low: int
    high: int
    """The range's ends (`flipwell.rules.rating.rating_range`)."""
    games: int


@dataclass(frozen=True)
class RatingStep:
    """A person's rating after one meet he was in the season of."""

    season: SeasonName
    meet: int
    date: date
    rating: int
    deviation: int
    low: int
    high: int
    """The range's ends after the meet (`flipwell.rules.rating.rating_range`)."""


@dataclass(frozen=True)
class RivalLine:
    """A person's record against one rival: pairwise games, expected and actual wins."""

    rival: PlayerRef
    games: int
    expected: float
    actual: float


@dataclass(frozen=True)
class PlayerRating:
    """A person's rating, its history (oldest first) and his rivalries (most games first)."""

    current: RatingLine | None
    history: tuple[RatingStep, ...]
    rivals: tuple[RivalLine, ...]


@dataclass(frozen=True)
class _Rated:
    """The installation rated: the book, the persons by key, the meets' names and dates."""

    book: RatingBook
    people: dict[str, PlayerRef]
    meets: dict[Hashable, tuple[SeasonName, int, date]]
    league_of: dict[int, int]
    """Season id -> its league's id."""

    def seasons_of(self, league_id: int) -> set[int]:
        return {season for season, league in self.league_of.items() if league == league_id}


def player_rating(who: Person, *, league: m.League | None = None) -> PlayerRating:
    """`who`'s rating (from every league's games), and his history and rivalries in the
    seasons of `league` (every league's when None: a league's pages name no one and no season
    of another league)."""
    rated = _rated()
    key = player_key(who.player.pk)
    seasons = None if league is None else rated.seasons_of(league.pk)
    history = tuple(
        RatingStep(
            *rated.meets[p.meet],
            round(p.rating.rating),
            round(p.rating.deviation),
            *rating_range(p.rating),
        )
        for p in rated.book.history.get(key, [])
        if seasons is None or _meet_key(p.meet)[0] in seasons
    )
    rivals = sorted(
        (
            RivalLine(rated.people[rival], r.games, r.expected, r.actual)
            for rival, r in rated.book.rivals(key, seasons).items()
            if rival in rated.people
        ),
        key=lambda line: (-line.games, line.rival.name, line.rival.id),
    )
    return PlayerRating(_line(rated, key), history, tuple(rivals))


def league_ratings(league: m.League, *, min_games: int = MIN_RATED_GAMES) -> tuple[RatingLine, ...]:
    """The rated persons who played in a public season of `league` with at least `min_games`
    pairwise results, best rating first (then by name)."""
    rated = _rated()
    keys = {
        player_key(kept or pk)
        for pk, kept in m.Player.objects.filter(
            season_entries__season__league=league,
            season_entries__season__in=_public_seasons(),
        )
        .values_list("pk", "merged_into_id")
        .distinct()
    }
    lines = [_line(rated, key) for key in keys]
    shown = [line for line in lines if line is not None and line.games >= min_games]
    return tuple(sorted(shown, key=lambda line: (-line.rating, line.player.name, line.player.id)))


def win_chances_of(player_ids: Sequence[int]) -> dict[int, float]:
    """Each player's chance to win a game against the others, from the ratings now (a new
    player counts as 1500 ± 350); computed, never stored."""
    return win_chances_in_games([player_ids])[0]


def win_chances_in_games(games: Sequence[Sequence[int]]) -> list[dict[int, float]]:
    """`win_chances_of` for several games at once (one query)."""
    rated = _rated()
    wanted = {pk for game in games for pk in game}
    kept = dict(m.Player.objects.filter(pk__in=wanted).values_list("pk", "merged_into_id"))

    def rating(pk: int) -> Rating:
        return rated.book.current(player_key(kept.get(pk) or pk)) or Rating()

    return [
        dict(zip(game, win_chances([rating(pk) for pk in game]), strict=True)) for game in games
    ]


def _line(rated: _Rated, key: str) -> RatingLine | None:
    rating = rated.book.current(key)
    if rating is None or key not in rated.people:
        return None
    return RatingLine(
        player=rated.people[key],
        rating=round(rating.rating),
        deviation=round(rating.deviation),
        words=plain_range(rating),
        low=rating_range(rating)[0],
        high=rating_range(rating)[1],
        games=rated.book.games(key),
    )


def _public_seasons() -> Iterable[m.Season]:
    return (
        with_state(m.Season.objects.select_related("league"))
        .exclude(Q(state="being_prepared"))
        .order_by("created_at", "pk")
    )


def _rated() -> _Rated:
    """The installation's ratings, rated again only when a fact they may read changed: the
    memo's key is cheap to read (every season's revision and publication, and the merges),
    the public seasons (an annotated query) are read only when it changed."""
    key = _fingerprint()
    found = caches.remembered_ratings(key)
    if isinstance(found, _Rated):
        return found
    rated = _rate(list(_public_seasons()))
    caches.remember_ratings(key, rated)
    return rated


def _fingerprint() -> str:
    """What the ratings are computed from, in three small queries. A season's played meets:
    its stored prefix (the fold of its closed meets) while valid, stamped when written, so a
    score entered tonight does not rate the installation again (the meet being played is not
    rated); else its revision. Its publication and a new season change its row; a merge or
    its undoing changes the merges."""
    seasons = m.Season.objects.order_by("pk").values_list("pk", "revision", "published_at")
    prefixes = caches.prefix_stamps()
    merges = m.PlayerMerge.objects.aggregate(
        count=Count("pk"), last=Max("pk"), undone=Max("undone_at")
    )
    revisions = ",".join(
        f"{pk}:{_played(revision, prefixes.get(pk))}:{published}"
        for pk, revision, published in seasons
    )
    return f"{revisions}|{merges['count']}:{merges['last']}:{merges['undone']}"


def _played(revision: int, prefix: tuple[int, str] | None) -> str:
    """A season's closed meets, as a stamp: its valid prefix's, else its revision."""
    if prefix is not None and prefix[0] == revision:
        return f"closed@{prefix[1]}"
    return str(revision)


def _rate(seasons: Sequence[m.Season]) -> _Rated:
    people = people_of_seasons(seasons)
    names = {s.pk: season_name(s) for s in seasons}
    dates = {
        (season, number): day
        for season, number, day in m.Meet.objects.filter(
            season__in=[s.pk for s in seasons]
        ).values_list("season_id", "number", "date")
    }
    meets = rated_meets(folded_seasons(seasons), person_of=person_keys(people))
    meets.sort(key=lambda meet: (dates[_meet_key(meet.meet)], *_meet_key(meet.meet)))
    return _Rated(
        book=rate_all(meets),
        people=persons_by_key(people),
        meets={
            meet.meet: (
                names[_meet_key(meet.meet)[0]],
                _meet_key(meet.meet)[1],
                dates[_meet_key(meet.meet)],
            )
            for meet in meets
        },
        league_of={s.pk: s.league_id for s in seasons},
    )


def _named(
    meet: Hashable, names: dict[int, SeasonName], dates: dict[tuple[int, int], date]
) -> tuple[SeasonName, int, date]:
    season, number = _meet_key(meet)
    return names[season], number, dates[(season, number)]


def _meet_key(meet: Hashable) -> tuple[int, int]:
    """(season id, meet number): how `rated_meets` names a meet."""
    named: tuple[int, int] = meet  # type: ignore[assignment]
    return named


def forget() -> None:
    """Empty the process's ratings memo (tests)."""
    caches.forget_ratings()
