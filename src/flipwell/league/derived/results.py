"""A season's fold, computed once per revision and read by every worker.

Words:
- *season fold*: the season's facts (`adapters.season_facts`), its ruleset (the readings it
  was created with, `adapters.season_ruleset`) and the rules' `fold_season` of the two:
  everything the standings, ladders, boards and player pages derive from. Its *kind*: the
  numbers alone (what a write folds, and most pages read), or *explained*, every point with
  its reason (a player's page), folded the first time a page asks for it at a revision.
- *revision*: see `flipwell.league.models.results`; a write gives the season a new one and
  stores the fold for it in the same transaction (`store_fold`, called by the services'
  `season_changed`), so a reader finds it already computed.
- *prefix*: the fold's state after the season's leading closed meets
  (`flipwell.rules.season_prefix`), stored with the revision of the last write that kept it
  valid: a write of tonight's meet reads only tonight's facts and folds them on it
  (`write_fold`); any other write folds the season whole and stores it again.

Where a fold is kept (this process's memo, the stored rows) and when it is dropped:
`flipwell.league.derived.caches`. A reader never folds a season whose fold is stored for its
revision; a fold stored for an older revision is replaced, never read.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from django.db import transaction

from flipwell.league import models as m
from flipwell.league.adapters.rulesets import season_ruleset
from flipwell.league.adapters.season_facts import meets_after, season_facts
from flipwell.league.derived import caches
from flipwell.rules import Ruleset, SeasonFacts, SeasonResult, fold_season
from flipwell.rules.season_prefix import SeasonPrefix, fold_from, fold_with_prefix

_IN_WRITE: ContextVar[bool] = ContextVar("flipwell_fold_in_write", default=False)
"""True inside a write's transaction (`within_write`)."""


@dataclass(frozen=True)
class SeasonFold:
    """A season's facts folded under its own ruleset, at one revision."""

    facts: SeasonFacts
    result: SeasonResult
    ruleset: Ruleset


def compute_fold(season: m.Season, *, explain: bool = False) -> SeasonFold:
    """Fold the season from its stored facts now (raises RuleError on a fact it rejects);
    with `explain`, every point carries its reason (R3-e)."""
    facts = season_facts(season)
    ruleset = season_ruleset(season)
    result = fold_season(facts, ruleset=ruleset, explain=explain)
    return SeasonFold(facts, result, ruleset)


def write_fold(
    season: m.Season, *, before: int | None, meets: Collection[int] | None
) -> tuple[SeasonFold, caches.HeldPrefix | None]:
    """The fold (numbers) a write stores at the season's new revision (`season.revision`),
    inside its transaction, and the prefix of its closed meets it was folded on (stored, and
    to store the fold on: `store_fold`).

    meets: the numbers of the only meets whose facts the write changed; before: the season's
    revision before the write. When the season's stored prefix is still the one of `before`
    (stored or carried by the write that gave it) and covers none of `meets`, only the facts
    of the meets after the prefix (tonight's) are read and folded on it, and the prefix is
    carried to the new revision (or, when more meets closed, stored again). Otherwise every
    fact is read and folded, and the prefix stored anew: a write of no meet said (a new
    entrant, a player's name, a ruleset), a correction to a closed meet (A45.2), a reopened
    meet, a season changed outside a write.
    """
    ruleset = season_ruleset(season)
    held = caches.stored_prefix(season.pk, before) if before is not None and meets else None
    if held is not None and meets and min(meets) > held.prefix.through:
        prefix = held.prefix
        later = meets_after(season, prefix.through)
        folded = fold_from(prefix, later, ruleset=ruleset)
        if folded.prefix is prefix:
            caches.carry_prefix(season.pk, before or 0, season.revision)
        else:
            held = caches.store_prefix(season.pk, season.revision, folded.prefix)
        return SeasonFold(prefix.facts_with(later), folded.result, ruleset), held
    facts = season_facts(season)
    whole = fold_with_prefix(facts, ruleset=ruleset)
    held = caches.store_prefix(season.pk, season.revision, whole.prefix)
    return SeasonFold(facts, whole.result, ruleset), held


def season_fold(season: m.Season, *, explain: bool = False) -> SeasonFold:
    """The season's fold at its current revision (explained if asked): from memory, else
    stored, else computed once and stored. Two queries when stored; one when remembered.

    The revision is read from the database, not from `season`: a row loaded before a write
    holds the revision the write replaced, and would be served the fold of the old facts.
    """
    season.revision = _current_revision(season)
    key = (season.pk, season.revision, explain)
    folded = _as_fold(caches.remembered_fold(key))
    if folded is None:
        stored = caches.stored_fold(season.pk, season.revision, explain=explain)
        folded = _as_fold(stored) or _compute_and_store(season, explain)
        caches.remember_fold(key, folded)
    return folded


def closed_meets_prefix(season: m.Season) -> SeasonPrefix | None:
    """The stored prefix of the season's closed meets, when it is still the one of the
    season's revision as last read (`season.revision`: `season_fold` reads it); else None.
    One query: the write that gave the revision stored or carried it, in this process."""
    held = caches.stored_prefix(season.pk, season.revision)
    return None if held is None else held.prefix


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
    found = {s.pk: _as_fold(caches.remembered_fold((s.pk, s.revision, False))) for s in seasons}
    missing = [s for s in seasons if found[s.pk] is None]
    if missing:
        stored = caches.stored_folds({s.pk: s.revision for s in missing})
        for season in missing:
            folded = _as_fold(stored.get(season.pk)) or _compute_and_store(season, False)
            found[season.pk] = folded
            caches.remember_fold((season.pk, season.revision, False), folded)
    return [found[s.pk] for s in seasons]  # type: ignore[misc]


def store_fold(
    season: m.Season, folded: SeasonFold, *, on: caches.HeldPrefix | None = None
) -> None:
    """Store `folded` (the numbers) as the fold of `season` at its (new) revision, inside the
    writer's transaction: a rolled-back write leaves no fold behind. Remembered once
    committed. `on`: the prefix it was folded on (`write_fold`): its parts are stored once,
    with the prefix, not again with each fold."""
    caches.store_fold(season.pk, season.revision, folded, explain=False, on=on)
    key = (season.pk, season.revision, False)
    transaction.on_commit(lambda: caches.remember_fold(key, folded))


def _as_fold(found: object | None) -> SeasonFold | None:
    return found if isinstance(found, SeasonFold) else None


def _current_revision(season: m.Season) -> int:
    revision = m.Season.objects.filter(pk=season.pk).values_list("revision", flat=True).first()
    if revision is None:
        raise m.Season.DoesNotExist(f"season {season.pk} no longer exists")
    return revision


def _compute_and_store(season: m.Season, explain: bool) -> SeasonFold:
    """Fold a season whose fold is not stored at its revision, and store it for the next
    reader: a reader's store, which never replaces a fold stored at a newer revision and
    never waits for a writer's lock (`caches.store_read_fold`). Inside a write (a fold read
    by a service) nothing is stored: the write stores its own fold at its end, and a row
    locked this early in its transaction would be held to its end, against the writer
    ahead of it (a deadlock: each waiting for the other's row)."""
    folded = compute_fold(season, explain=explain)
    if not _IN_WRITE.get():
        caches.store_read_fold(season.pk, season.revision, folded, explain=explain)
    return folded


@contextmanager
def within_write() -> Iterator[None]:
    """Mark the code inside as a write's (the write protocol's transaction): a fold it reads
    and finds unstored is computed, not stored (`_compute_and_store`)."""
    token = _IN_WRITE.set(True)
    try:
        yield
    finally:
        _IN_WRITE.reset(token)
