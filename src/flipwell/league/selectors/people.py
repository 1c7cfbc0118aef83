"""A person across seasons: who they are (merged rows) and their statistics.

Words: *person*, *kept row* and *merge*: see `flipwell.league.models.players`; the statistics'
words (head-to-head, machine record, meets held and attended, points per meet, high score):
see `flipwell.rules.stats`, which counts them from the seasons' stored folds.

Every selector here runs a fixed number of queries whatever the number of seasons, games or
players: the person's rows (1), their seasons (1), the folds (2 when stored), and the names
of everyone in those seasons (1).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from django.db.models import Q, QuerySet

from flipwell.league import models as m
from flipwell.league.adapters.keys import player_key
from flipwell.league.derived.results import season_folds
from flipwell.league.selectors.seasons import with_state
from flipwell.league.selectors.standings import PlayerRef
from flipwell.rules import FoldedSeason, high_scores, person_stats
from flipwell.rules.stats import best_and_worst

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User


class PersonNotFoundError(LookupError):
    """No player with this id (the caller answers 404)."""


class MergedPlayerError(LookupError):
    """The row asked for is merged into another: `kept` is the person's own row's id."""

    def __init__(self, kept: int) -> None:
        super().__init__("This player is merged into another: their record is under that player.")
        self.kept = kept


@dataclass(frozen=True)
class Person:
    """A person: their own (kept) row and every row merged into it."""

    player: m.Player
    rows: tuple[m.Player, ...]
    """The kept row first, then the merged rows by id."""

    @property
    def ids(self) -> list[int]:
        """The ids of every row of the person."""
        return [row.pk for row in self.rows]

    @property
    def ref(self) -> PlayerRef:
        """The person as shown: their kept row's id and name."""
        return PlayerRef(self.player.pk, str(self.player))


@dataclass(frozen=True)
class SeasonName:
    """A season as the statistics name it."""

    id: int
    name: str
    league: str


@dataclass(frozen=True)
class SeasonStats:
    """One season of the person: meets held and attended, league points, points per meet."""

    season: SeasonName
    meets_held: int
    meets_attended: int
    games_played: int
    league_points: Fraction
    points_per_meet: Fraction | None
    provisional_points: Fraction = Fraction(0)
    """The part of `league_points` from the meet being played (`flipwell.rules.progress`)."""
    open_meet: int | None = None
    """The meet being played, not yet a meet held; None: none is."""


@dataclass(frozen=True)
class OpponentRecord:
    """The person's head-to-head record against one opponent (a person)."""

    opponent: PlayerRef
    games: int
    won: int
    lost: int


@dataclass(frozen=True)
class MachineStats:
    """The person's games on one machine title."""

    machine: str
    games: int
    average_place: Fraction
    best_score: int | None


@dataclass(frozen=True)
class PlayerStats:
    """A person's statistics over their seasons (of one league, or every league)."""

    player: PlayerRef
    seasons: tuple[SeasonStats, ...]
    """Oldest first."""
    head_to_head: tuple[OpponentRecord, ...]
    """Most games first, then by name."""
    machines: tuple[MachineStats, ...]
    meets_held: int
    meets_attended: int
    games_played: int
    points_per_meet: Fraction | None


@dataclass(frozen=True)
class HighScoreLine:
    """A machine score that stood as displayed: who, in which season and meet."""

    score: int
    player: PlayerRef
    season: SeasonName
    meet: int


@dataclass(frozen=True)
class MachineHighScores:
    """A machine title's best scores, best first, in a league."""

    machine: str
    scores: tuple[HighScoreLine, ...]
    machine_id: int | None = None
    """The league's machine of this title (the first stored, should it have two); None when
    the league no longer has one."""
    league: str = ""
    """The league's slug."""


def person(player_id: int) -> Person:
    """The person whose own row is `player_id` (one query).

    Raises PersonNotFoundError when there is no such player, and MergedPlayerError (naming the
    kept row) when `player_id` is merged into another row: the caller shows that row instead.
    """
    rows = sorted(
        m.Player.objects.filter(Q(pk=player_id) | Q(merged_into_id=player_id)),
        key=lambda p: (p.pk != player_id, p.pk),
    )
    if not rows or rows[0].pk != player_id:
        raise PersonNotFoundError(f"No player {player_id}.")
    if rows[0].merged_into_id is not None:
        raise MergedPlayerError(rows[0].merged_into_id)
    return Person(rows[0], tuple(rows))


def player_stats(who: Person, *, league: m.League | None = None) -> PlayerStats:
    """`who`'s statistics over their public seasons in `league` (every league when None): a
    season being prepared is left out, as the public pages leave it (`seasons.being_prepared`).
    Four queries, whatever the number of seasons and games (the folds stored)."""
    seasons = list(
        with_state(_seasons(league).filter(entries__player__in=who.ids).distinct())
        .exclude(Q(state="being_prepared"))  # an annotation: by Q, which mypy leaves alone
        .order_by("created_at", "pk")
    )
    folded = folded_seasons(seasons)
    people = people_of_seasons(seasons)
    stats = person_stats(folded, person=player_key(who.player.pk), person_of=person_keys(people))
    names = {s.pk: season_name(s) for s in seasons}
    refs = persons_by_key(people)
    return PlayerStats(
        player=who.ref,
        seasons=tuple(
            SeasonStats(
                season=names[line.season],
                meets_held=line.meets_held,
                meets_attended=line.meets_attended,
                games_played=line.games_played,
                league_points=line.league_points,
                points_per_meet=line.points_per_meet,
                provisional_points=line.provisional_points,
                open_meet=line.open_meet,
            )
            for line in stats.seasons
        ),
        head_to_head=tuple(
            sorted(
                (
                    OpponentRecord(refs[h.opponent], h.games, h.won, h.lost)
                    for h in stats.head_to_head
                ),
                key=lambda r: (-r.games, r.opponent.name, r.opponent.id),
            )
        ),
        machines=tuple(
            MachineStats(r.machine, r.games, r.average_place, r.best_score) for r in stats.machines
        ),
        meets_held=stats.meets_held,
        meets_attended=stats.meets_attended,
        games_played=stats.games_played,
        points_per_meet=stats.points_per_meet,
    )


def best_and_worst_machines(stats: PlayerStats) -> tuple[MachineStats | None, MachineStats | None]:
    """The machine the person does best on and the one hardest for them, by average place,
    among those played at least twice (`flipwell.rules.stats.best_and_worst`)."""
    return best_and_worst(stats.machines)


def league_high_scores(league: m.League, *, per_machine: int = 3) -> tuple[MachineHighScores, ...]:
    """Each machine title's best `per_machine` scores in every season of `league`, by title,
    with the league's machine of the title (five queries, the folds stored); a person's
    merged rows are named as the person."""
    seasons = list(_seasons(league).order_by("created_at", "pk"))
    people = people_of_seasons(seasons)
    names = {s.pk: season_name(s) for s in seasons}
    refs = persons_by_key(people)
    found = high_scores(
        folded_seasons(seasons), person_of=person_keys(people), per_machine=per_machine
    )
    machine_ids: dict[str, int] = {}
    for title, pk in (
        m.Machine.objects.filter(league=league).order_by("-pk").values_list("title", "pk")
    ):
        machine_ids[title] = pk  # by descending id: the first stored is kept
    return tuple(
        MachineHighScores(
            machine=title,
            scores=tuple(
                HighScoreLine(h.score, refs[h.player], names[h.season], h.meet) for h in scores
            ),
            machine_id=machine_ids.get(title),
            league=league.slug,
        )
        for title, scores in found.items()
    )


def _seasons(league: m.League | None) -> QuerySet[m.Season]:
    rows = m.Season.objects.select_related("league")
    return rows if league is None else rows.filter(league=league)


def folded_seasons(seasons: Sequence[m.Season]) -> list[FoldedSeason]:
    return [
        FoldedSeason(season.pk, fold.facts, fold.result)
        for season, fold in zip(seasons, season_folds(seasons), strict=True)
    ]


def people_of_seasons(seasons: Iterable[m.Season]) -> dict[str, PlayerRef]:
    """Every player key of `seasons` -> the person it belongs to (kept row's id and name)."""
    rows = (
        m.Player.objects.filter(season_entries__season__in=[s.pk for s in seasons])
        .values_list(
            "pk",
            "first_name",
            "last_name",
            "merged_into_id",
            "merged_into__first_name",
            "merged_into__last_name",
        )
        .distinct()
    )
    found: dict[str, PlayerRef] = {}
    for pk, first, last, kept, kept_first, kept_last in rows:
        found[player_key(pk)] = (
            PlayerRef(pk, f"{first} {last}")
            if kept is None
            else PlayerRef(kept, f"{kept_first} {kept_last}")
        )
    return found


def person_keys(people: dict[str, PlayerRef]) -> dict[str, str]:
    """Player key -> the person's key (the rules' `person_of`)."""
    return {key: player_key(ref.id) for key, ref in people.items()}


def persons_by_key(people: dict[str, PlayerRef]) -> dict[str, PlayerRef]:
    """The person's key -> the person as shown (every person of `people`)."""
    return {player_key(ref.id): ref for ref in people.values()}


def season_name(season: m.Season) -> SeasonName:
    return SeasonName(season.pk, season.name, season.league.name)


@dataclass(frozen=True)
class MergeCandidate:
    """A person who played in a league, with every season of each of their rows (any
    league), for an official choosing two rows to merge."""

    id: int
    name: str
    ifpa_number: int | None
    seasons: tuple[str, ...]
    """"Season (League)" for every season the person's rows are entered in, oldest first."""

    @property
    def label(self) -> str:
        """How a choice names the person: name and seasons (never an id)."""
        return f"{self.name} ({', '.join(self.seasons)})"


@dataclass(frozen=True)
class MergeLine:
    """A merge as the console lists it."""

    merge: m.PlayerMerge
    kept: str
    merged: str
    standing: bool


def merge_candidates(league: m.League) -> tuple[MergeCandidate, ...]:
    """The people whose own rows played in `league` (a merged row is shown within its person),
    by name, with their seasons (two queries)."""
    own = list(
        m.Player.objects.filter(season_entries__season__league=league, merged_into__isnull=True)
        .distinct()
        .order_by("last_name", "first_name", "pk")
    )
    seasons: dict[int, list[str]] = {p.pk: [] for p in own}
    entries = (
        m.SeasonEntry.objects.filter(Q(player__in=own) | Q(player__merged_into__in=own))
        .order_by("season__created_at", "season__pk")
        .values_list("player_id", "player__merged_into_id", "season__name", "season__league__name")
    )
    for player_id, kept, season, league_name in entries:
        seasons[kept or player_id].append(f"{season}, {league_name}")
    return tuple(MergeCandidate(p.pk, str(p), p.ifpa_number, tuple(seasons[p.pk])) for p in own)


def league_merges(league: m.League) -> tuple[MergeLine, ...]:
    """Every merge of rows that played in `league`, newest first (one query)."""
    rows = (
        m.PlayerMerge.objects.filter(
            Q(kept__season_entries__season__league=league)
            | Q(merged__season_entries__season__league=league)
        )
        .select_related("kept", "merged")
        .distinct()
        .order_by("-merged_at", "-pk")
    )
    return tuple(
        MergeLine(row, str(row.kept), str(row.merged), row.undone_at is None) for row in rows
    )


def may_merge_in(*, actor: User | AnonymousUser, league: m.League) -> bool:
    """Whether `actor` may merge players from `league`'s console at all (an LO or superuser)."""
    if not actor.is_authenticated:
        return False
    return (
        actor.is_superuser
        or m.LeagueOfficial.objects.filter(
            user=actor, league=league, role=m.LeagueOfficial.Role.LEAGUE_OFFICIAL
        ).exists()
    )


def leagues_showing(players: Sequence[m.Player]) -> dict[m.League, list[m.Player]]:
    """The leagues whose pages show these rows, by name, each with those of `players` it
    shows: where a row, or a row merged into it, is entered in a season (one query)."""
    given = {p.pk: p for p in players}
    entries = (
        m.SeasonEntry.objects.filter(Q(player__in=given) | Q(player__merged_into__in=given))
        .values_list("season__league_id", "player_id", "player__merged_into_id")
        .distinct()
    )
    shown: dict[int, set[int]] = {}
    for league_id, player_id, kept_id in entries:
        row = kept_id if player_id not in given and kept_id is not None else player_id
        shown.setdefault(league_id, set()).add(row)
    leagues = m.League.objects.filter(pk__in=shown).order_by("name", "pk")
    return {league: [p for p in players if p.pk in shown[league.pk]] for league in leagues}
