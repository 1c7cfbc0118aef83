"""A season's fold, computed once per revision and read by every worker (issue #10).

Words:
- *season fold*: the season's facts (`adapters.season_facts`), the league's ruleset and the
  rules' `fold_season` of the two: everything the standings, ladders, boards and player pages
  derive from. Its *kind*: the numbers alone (what a write folds, and most pages read), or
  *explained*, every point with its reason (a player's page), folded the first time a page
  asks for it at a revision.
- *revision*: see `flipwell.league.models.results`; a write gives the season a new one and
  stores the fold for it in the same transaction (`store_fold`, called by the services'
  `season_changed`), so a reader finds it already computed.
- *memo*: the fold kept in this process's memory, keyed by (season, revision, kind): a page
  view that finds it there runs no query for it at all.
- *scored matches*: the matches the process's latest fold of a season (of one kind) scored,
  which its next fold reuses where their facts are unchanged (`flipwell.rules.ScoredMatches`):
  a write changes one match, and the fold it waits for scores that one again, not all.
- *build*: a fingerprint of flipwell's code, part of every stored scope, so a fold stored by
  other code (before an upgrade) is never unpickled into this code's types.

A reader never folds a season whose fold is stored for its revision; a fold stored for an
older revision is replaced, never read. The stored payload is a pickle written by this code
into this database only (never from a file or a request), like Django's own cache backends.
"""

from __future__ import annotations

import functools
import hashlib
import pickle
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Generic, TypeVar

from django.db import IntegrityError, transaction
from django.utils import timezone

import flipwell
from flipwell.league import models as m
from flipwell.league.adapters import ruleset_for, season_facts
from flipwell.rules import Ruleset, ScoredMatches, SeasonFacts, SeasonResult, fold_season

K = TypeVar("K")
V = TypeVar("V")
MEMO_SIZE = 64
"""Season folds kept in each process (a 48 x 20 season is a few hundred KB)."""
SCORED_SIZE = 16
"""Seasons (of one kind) whose scored matches each process keeps: those being played."""
CODE_SUFFIXES = (".py", ".html", ".js", ".css", ".svg")


@dataclass(frozen=True)
class SeasonFold:
    """A season's facts folded under its league's ruleset, at one revision."""

    facts: SeasonFacts
    result: SeasonResult
    ruleset: Ruleset


@functools.cache
def build() -> str:
    """A short fingerprint of flipwell's code and templates: equal on every server that runs
    the same code, different after any change (computed once per process, a few ms)."""
    digest = hashlib.blake2b(digest_size=8)
    root = Path(flipwell.__file__).parent
    for path in sorted(root.rglob("*")):
        if path.suffix in CODE_SUFFIXES and "__pycache__" not in path.parts:
            digest.update(str(path.relative_to(root)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


class LeastRecentlyUsed(Generic[K, V]):
    """A map of at most `size` items that forgets the least recently used first; safe for a
    threaded server. This process's memory of derived things (folds here, pages in
    `flipwell.http_cache`)."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._items: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
            return found

    def put(self, key: K, value: V) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self._size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


_memo: LeastRecentlyUsed[tuple[int, int, bool], SeasonFold] = LeastRecentlyUsed(MEMO_SIZE)
_scored: LeastRecentlyUsed[tuple[int, bool], ScoredMatches] = LeastRecentlyUsed(SCORED_SIZE)


def compute_fold(season: m.Season, *, explain: bool = False) -> SeasonFold:
    """Fold the season from its stored facts now (raises RuleError on a fact it rejects);
    with `explain`, every point carries its reason. Matches whose facts are unchanged since
    this process's last fold of the season are not scored again (the same result, R3-e)."""
    facts = season_facts(season)
    ruleset = ruleset_for(season.league)
    scored = _scored_matches(season.pk, explain)
    result = fold_season(facts, ruleset=ruleset, explain=explain, scored=scored)
    return SeasonFold(facts, result, ruleset)


def season_fold(season: m.Season, *, explain: bool = False) -> SeasonFold:
    """The season's fold at its current revision (explained if asked): from memory, else
    stored, else computed once and stored. Two queries when stored; one when remembered.

    The revision is read from the database, not from `season`: a row loaded before a write
    holds the revision the write replaced, and would be served the fold of the old facts.
    """
    season.revision = _current_revision(season)
    key = (season.pk, season.revision, explain)
    folded = _memo.get(key)
    if folded is None:
        folded = _stored(season, explain) or _compute_and_store(season, explain)
        _memo.put(key, folded)
    return folded


def season_folds(seasons: Sequence[m.Season]) -> list[SeasonFold]:
    """The folds (numbers) of several seasons at their current revisions, in order: two
    queries whatever their number when they are stored (one when all are remembered); a
    season whose fold is not stored yet is folded and stored as `season_fold` does."""
    if not seasons:
        return []
    revisions = dict(
        m.Season.objects.filter(pk__in=[s.pk for s in seasons]).values_list("pk", "revision")
    )
    for season in seasons:
        if season.pk not in revisions:
            raise m.Season.DoesNotExist(f"season {season.pk} no longer exists")
        season.revision = revisions[season.pk]
    found = {s.pk: _memo.get((s.pk, s.revision, False)) for s in seasons}
    missing = [s for s in seasons if found[s.pk] is None]
    if missing:
        scopes = {_kind_prefix(s, False) + build(): s for s in missing}
        rows = m.DerivedResult.objects.filter(scope__in=list(scopes)).values_list(
            "scope", "revision", "payload"
        )
        for scope, revision, payload in rows:
            season = scopes[scope]
            if revision == season.revision:
                folded = pickle.loads(bytes(payload))  # written by store_fold only
                if isinstance(folded, SeasonFold):
                    found[season.pk] = folded
        for season in missing:
            folded = found[season.pk] or _compute_and_store(season, False)
            found[season.pk] = folded
            _memo.put((season.pk, season.revision, False), folded)
    return [found[s.pk] for s in seasons]  # type: ignore[misc]


def store_fold(season: m.Season, folded: SeasonFold) -> None:
    """Store `folded` (the numbers) as the fold of `season` at its (new) revision, inside the
    writer's transaction: a rolled-back write leaves no fold behind. Memoised once committed."""
    _save(season, folded, explain=False)
    key = (season.pk, season.revision, False)
    transaction.on_commit(lambda: _memo.put(key, folded))


def forget_memo() -> None:
    """Empty this process's memo and scored matches (tests; a restore in the same process)."""
    _memo.clear()
    _scored.clear()


def _scored_matches(season: int, explain: bool) -> ScoredMatches:
    """This process's scored matches of `season` (of one kind), new if none are kept.

    Two threads may each make one: one is kept, and the other's matches are scored again by a
    later fold. A season id given to another season (a restore, a test database) costs misses
    only: every reuse is checked against the facts.
    """
    key = (season, explain)
    scored = _scored.get(key)
    if scored is None:
        scored = ScoredMatches()
        _scored.put(key, scored)
    return scored


def _current_revision(season: m.Season) -> int:
    revision = m.Season.objects.filter(pk=season.pk).values_list("revision", flat=True).first()
    if revision is None:
        raise m.Season.DoesNotExist(f"season {season.pk} no longer exists")
    return revision


def _kind_prefix(season: m.Season, explain: bool) -> str:
    return f"fold:{season.pk}:{'explained' if explain else 'numbers'}:"


def _stored(season: m.Season, explain: bool) -> SeasonFold | None:
    scope = _kind_prefix(season, explain) + build()
    payload = (
        m.DerivedResult.objects.filter(scope=scope, revision=season.revision)
        .values_list("payload", flat=True)
        .first()
    )
    if payload is None:
        return None
    folded = pickle.loads(bytes(payload))  # written by store_fold only
    return folded if isinstance(folded, SeasonFold) else None


def _compute_and_store(season: m.Season, explain: bool) -> SeasonFold:
    folded = compute_fold(season, explain=explain)
    try:
        with transaction.atomic():
            _save(season, folded, explain=explain)
    except IntegrityError:
        pass  # another reader stored it first: the same fold
    return folded


def _save(season: m.Season, folded: SeasonFold, *, explain: bool) -> None:
    payload = pickle.dumps(folded, protocol=pickle.HIGHEST_PROTOCOL)
    prefix = _kind_prefix(season, explain)
    scope = prefix + build()
    rows = m.DerivedResult.objects.filter(scope=scope)
    fields = {"revision": season.revision, "payload": payload, "computed_at": timezone.now()}
    if rows.update(**fields):
        return  # one query: the common case, a new revision of a fold this build stored
    try:
        with transaction.atomic():  # a savepoint: a writer's transaction survives a clash
            m.DerivedResult.objects.create(scope=scope, **fields)
    except IntegrityError:  # another process stored this build's first fold meanwhile
        rows.update(**fields)
        return
    # Folds stored by other builds of the code are never read again.
    m.DerivedResult.objects.filter(scope__startswith=prefix).exclude(scope=scope).delete()
