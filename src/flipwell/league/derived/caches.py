"""The memos and stored copies of what is derived from the facts: see the table in
`flipwell.league.derived`.

Nothing in `flipwell.rules` caches a result: the rules compute from the facts they are given,
every time. What is derived from the facts is kept here, always under a key that holds what it
was derived from, so an entry is never invalidated: a change of the facts gives a new revision
(`flipwell.league.models.results.new_revision`), and the old key is simply never asked again.

Words:
- *memo*: a `LeastRecentlyUsed` map in this process; every one made (here, and the page memo
  of `flipwell.serving.pages`) is emptied by `forget` (tests, and a restore in a running
  process).
- *build*: a fingerprint of the code (`build`), part of a stored fold's scope and of a page's
  entity tag, so what other code derived is never read.
"""

from __future__ import annotations

import functools
import hashlib
import pickle
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any, Generic, TypeVar

from django.db import IntegrityError, transaction
from django.utils import timezone

import flipwell
from flipwell.league import models as m

K = TypeVar("K")
V = TypeVar("V")
FOLD_MEMO_SIZE = 64
"""Season folds kept in each process (a 48 x 20 season is a few hundred KB)."""
CODE_SUFFIXES = (".py", ".html", ".js", ".css", ".svg")


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


_memos: list[LeastRecentlyUsed[Any, Any]] = []
"""Every memo made in this process, for `forget`."""


class LeastRecentlyUsed(Generic[K, V]):
    """A map of at most `size` items that forgets the least recently used first; safe for a
    threaded server."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._items: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()
        _memos.append(self)

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


def forget() -> None:
    """Empty every memo of this process: folds, ratings, pages (tests; a restore in a running
    process)."""
    for memo in _memos:
        memo.clear()


# --- Season folds ------------------------------------------------------------------------

FoldKey = tuple[int, int, bool]
"""(season id, revision, explained)."""

_folds: LeastRecentlyUsed[FoldKey, object] = LeastRecentlyUsed(FOLD_MEMO_SIZE)


def remembered_fold(key: FoldKey) -> object | None:
    """The fold this process keeps for `key`, if any."""
    return _folds.get(key)


def remember_fold(key: FoldKey, folded: object) -> None:
    _folds.put(key, folded)


def stored_fold(season: int, revision: int, *, explain: bool) -> object | None:
    """The fold stored for `season` at `revision` by this build, unpickled; None if none."""
    payload = (
        m.DerivedResult.objects.filter(scope=_fold_scope(season, explain), revision=revision)
        .values_list("payload", flat=True)
        .first()
    )
    return None if payload is None else pickle.loads(bytes(payload))  # written by store only


def stored_folds(revisions: dict[int, int]) -> dict[int, object]:
    """The numbers folds stored at these revisions (season id -> revision), in one query."""
    scopes = {_fold_scope(season, False): season for season in revisions}
    rows = m.DerivedResult.objects.filter(scope__in=list(scopes)).values_list(
        "scope", "revision", "payload"
    )
    return {
        scopes[scope]: pickle.loads(bytes(payload))  # written by store_fold only
        for scope, revision, payload in rows
        if revision == revisions[scopes[scope]]
    }


def store_fold(season: int, revision: int, folded: object, *, explain: bool) -> None:
    """Store `folded` as the season's fold at `revision`, replacing the one before: one
    query in the common case. Inside the caller's transaction."""
    payload = pickle.dumps(folded, protocol=pickle.HIGHEST_PROTOCOL)
    scope = _fold_scope(season, explain)
    rows = m.DerivedResult.objects.filter(scope=scope)
    fields = {"revision": revision, "payload": payload, "computed_at": timezone.now()}
    if rows.update(**fields):
        return  # the common case: a new revision of a fold this build stored
    try:
        with transaction.atomic():  # a savepoint: a writer's transaction survives a clash
            m.DerivedResult.objects.create(scope=scope, **fields)
    except IntegrityError:  # another process stored this build's first fold meanwhile
        rows.update(**fields)
        return
    # Folds stored by other builds of the code are never read again.
    prefix = _fold_prefix(season, explain)
    m.DerivedResult.objects.filter(scope__startswith=prefix).exclude(scope=scope).delete()


def _fold_prefix(season: int, explain: bool) -> str:
    return f"fold:{season}:{'explained' if explain else 'numbers'}:"


def _fold_scope(season: int, explain: bool) -> str:
    return _fold_prefix(season, explain) + build()


# --- Ratings -----------------------------------------------------------------------------

_ratings: LeastRecentlyUsed[str, object] = LeastRecentlyUsed(1)


def remembered_ratings(fingerprint: str) -> object | None:
    """The installation's ratings this process keeps for `fingerprint`, if any."""
    return _ratings.get(fingerprint)


def remember_ratings(fingerprint: str, rated: object) -> None:
    """Keep `rated` as the installation's ratings (one entry: the newest)."""
    _ratings.put(fingerprint, rated)


def forget_ratings() -> None:
    """Empty this process's ratings memo alone (tests)."""
    _ratings.clear()
