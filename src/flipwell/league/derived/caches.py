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
import io
import pickle
import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

from django.db import IntegrityError, transaction
from django.utils import timezone

import flipwell
from flipwell.league import models as m
from flipwell.rules.season_prefix import SeasonPrefix

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
    """The fold stored for `season` at `revision` by this build, unpickled; None if none (or
    stored on a prefix since replaced). One query; two when it is stored on a prefix this
    process does not hold yet."""
    payload = (
        m.DerivedResult.objects.filter(scope=_fold_scope(season, explain), revision=revision)
        .values_list("payload", flat=True)
        .first()
    )
    return None if payload is None else _loads([(season, bytes(payload))])[0]


def stored_folds(revisions: dict[int, int]) -> dict[int, object]:
    """The numbers folds stored at these revisions (season id -> revision), in one query (and
    one for the prefixes they are stored on that this process does not hold yet)."""
    scopes = {_fold_scope(season, False): season for season in revisions}
    rows = m.DerivedResult.objects.filter(scope__in=list(scopes)).values_list(
        "scope", "revision", "payload"
    )
    current = [
        (scopes[scope], bytes(payload))
        for scope, revision, payload in rows
        if revision == revisions[scopes[scope]]
    ]
    folds = _loads(current)  # a fold on a prefix: the prefixes in one query at most
    return {season: f for (season, _), f in zip(current, folds, strict=True) if f is not None}


def store_fold(
    season: int, revision: int, folded: object, *, explain: bool, on: HeldPrefix | None = None
) -> None:
    """Store `folded` as the season's fold at `revision`, replacing the one before: one
    query in the common case. Inside the caller's transaction. `on`: the season's prefix the
    fold was folded on, whose parts it holds: stored by their place in it, not again."""
    payload = _dumps(folded, on)
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


def store_read_fold(season: int, revision: int, folded: object, *, explain: bool) -> None:
    """A reader's store of the fold it computed at `revision`, in a transaction of its own:
    only while `revision` is still the season's, so a reader that folded just before a write
    committed never replaces the write's newer fold with its older one; a row a writer holds
    is passed over (``SKIP LOCKED``): the writer stores its own. The first fold of a season
    (or of a build) is created, and a clash with another reader's is the same fold."""
    scope = _fold_scope(season, explain)
    with transaction.atomic():
        rows = m.DerivedResult.objects.filter(scope=scope)
        held = rows.select_for_update(skip_locked=True).values_list("pk", flat=True).first()
        if held is None and rows.exists():
            return  # a writer holds it, and stores the fold of its own revision
        current = m.Season.objects.filter(pk=season).values_list("revision", flat=True).first()
        if current != revision:
            return  # the season moved on while this reader folded
        if held is not None:
            rows.filter(pk=held).update(
                revision=revision, payload=_dumps(folded, None), computed_at=timezone.now()
            )
            return
    store_fold(season, revision, folded, explain=explain)  # the first; a clash: the same fold


def _fold_prefix(season: int, explain: bool) -> str:
    return f"fold:{season}:{'explained' if explain else 'numbers'}:"


def _fold_scope(season: int, explain: bool) -> str:
    return _fold_prefix(season, explain) + build()


# --- Season prefixes ---------------------------------------------------------------------

PrefixKey = tuple[int, int, str]
"""(season id, its stored row's id, when that row's payload was written): one stored prefix."""


@dataclass(frozen=True)
class HeldPrefix:
    """A season's stored prefix as this process holds it: the prefix, its key, and the place
    of each of its shared parts (`SeasonPrefix.shared`) by the part's id."""

    prefix: SeasonPrefix
    key: PrefixKey
    parts: tuple[object, ...]
    places: dict[int, int]

    @classmethod
    def of(cls, prefix: SeasonPrefix, key: PrefixKey) -> HeldPrefix:
        parts = prefix.shared()
        return cls(prefix, key, parts, {id(part): n for n, part in enumerate(parts)})


_prefixes: LeastRecentlyUsed[PrefixKey, HeldPrefix] = LeastRecentlyUsed(FOLD_MEMO_SIZE)


def stored_prefix(season: int, revision: int) -> HeldPrefix | None:
    """The prefix this build stored for `season` if it is still the one of `revision` (stored
    or carried at it, `carry_prefix`): from this process's memo when it holds that payload
    (one query), else unpickled (two); None if none is."""
    row = (
        m.DerivedResult.objects.filter(scope=_prefix_scope(season), revision=revision)
        .values_list("pk", "computed_at")
        .first()
    )
    return None if row is None else _held_prefixes([(season, row[0], row[1].isoformat())])[0]


def _held_prefixes(keys: list[PrefixKey]) -> list[HeldPrefix | None]:
    """The prefixes stored in these rows (season, row id, when written), from the memo or read
    in one query; None for a row since written again or gone."""
    found = {key: _prefixes.get(key) for key in keys}
    missing = {pk: key for key, held in found.items() if held is None for pk in [key[1]]}
    if missing:
        read = m.DerivedResult.objects.filter(pk__in=list(missing))
        for pk, scope, written, payload in read.values_list(
            "pk", "scope", "computed_at", "payload"
        ):
            key = missing[pk]
            if (scope, written.isoformat()) == (_prefix_scope(key[0]), key[2]):
                prefix = pickle.loads(bytes(payload))  # written by store_prefix only
                if isinstance(prefix, SeasonPrefix):
                    found[key] = held = HeldPrefix.of(prefix, key)
                    _prefixes.put(key, held)
    return [found[key] for key in keys]


def carry_prefix(season: int, before: int, after: int) -> bool:
    """Carry the season's stored prefix from revision `before` to `after` (a write changed no
    fact it covers); False when it was not the one of `before` (one query)."""
    rows = m.DerivedResult.objects.filter(scope=_prefix_scope(season), revision=before)
    return rows.update(revision=after) > 0


def prefix_stamps() -> dict[int, tuple[int, str]]:
    """Each season's stored prefix (this build's), by season id: the revision it holds for
    (the season's own while it is valid: a write that folds on it carries it) and when it was
    last written, which changes only when the season's closed meets do (a meet closed, a
    correction after closing, a full fold), not with tonight's writes. One query."""
    rows = m.DerivedResult.objects.filter(
        scope__startswith="prefix:", scope__endswith=f":{build()}"
    ).values_list("scope", "revision", "computed_at")
    return {int(scope.split(":")[1]): (rev, when.isoformat()) for scope, rev, when in rows}


def store_prefix(season: int, revision: int, prefix: SeasonPrefix | None) -> HeldPrefix | None:
    """Store `prefix` as the season's at `revision`, replacing the one before (None: drop
    it); inside the caller's transaction. The prefix as held (remembered at once: its key
    names the payload written, which no rolled-back write's key names again)."""
    scope = _prefix_scope(season)
    rows = m.DerivedResult.objects.filter(scope__startswith=f"prefix:{season}:")
    if prefix is None:
        rows.delete()
        return None
    payload = pickle.dumps(prefix, protocol=pickle.HIGHEST_PROTOCOL)
    fields = {"revision": revision, "payload": payload, "computed_at": timezone.now()}
    if not m.DerivedResult.objects.filter(scope=scope).update(**fields):
        rows.delete()  # other builds' prefixes are never read again
        try:
            with transaction.atomic():  # a savepoint: a writer's transaction survives a clash
                m.DerivedResult.objects.create(scope=scope, **fields)
        except IntegrityError:  # stored meanwhile by a write that did not hold the season
            m.DerivedResult.objects.filter(scope=scope).update(**fields)
    pk = m.DerivedResult.objects.values_list("pk", flat=True).get(scope=scope)
    key = (season, pk, fields["computed_at"].isoformat())  # type: ignore[attr-defined]
    held = HeldPrefix.of(prefix, key)
    _prefixes.put(key, held)
    return held


def _prefix_scope(season: int) -> str:
    return f"prefix:{season}:{build()}"


# --- A fold stored on a prefix ------------------------------------------------------------

ON_PREFIX = b"fold on prefix\n"
"""How the payload of a fold stored on its season's prefix begins: then a line with the
prefix's row id and when it was written, then the fold pickled with each shared part of the
prefix named by its place (pickle's persistent ids)."""


class _OnPrefix(pickle.Pickler):
    def __init__(self, file: io.BytesIO, places: dict[int, int]) -> None:
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self._places = places

    def persistent_id(self, obj: object) -> int | None:
        return self._places.get(id(obj))


class _FromPrefix(pickle.Unpickler):
    def __init__(self, file: io.BytesIO, parts: tuple[object, ...]) -> None:
        super().__init__(file)
        self._parts = parts

    def persistent_load(self, pid: Any) -> object:
        return self._parts[pid]


def _dumps(folded: object, on: HeldPrefix | None) -> bytes:
    """A fold's payload: pickled whole, or on the prefix `on` (its shared parts by place)."""
    if on is None:
        return pickle.dumps(folded, protocol=pickle.HIGHEST_PROTOCOL)
    buffer = io.BytesIO()
    buffer.write(ON_PREFIX + f"{on.key[1]} {on.key[2]}\n".encode())
    _OnPrefix(buffer, on.places).dump(folded)
    return buffer.getvalue()


def _loads(payloads: list[tuple[int, bytes]]) -> list[object | None]:
    """The folds of these (season, payload) pairs (`_dumps`), the prefixes they are stored on
    read in one query at most; None for one whose prefix was stored again since."""
    heads: list[PrefixKey | None] = []
    for season, payload in payloads:
        if payload.startswith(ON_PREFIX):
            pk, stamp = payload[len(ON_PREFIX) :].split(b"\n", 1)[0].decode().split(" ")
            heads.append((season, int(pk), stamp))
        else:
            heads.append(None)
    held = iter(_held_prefixes([h for h in heads if h is not None]))
    found: list[object | None] = []
    for (_, payload), head in zip(payloads, heads, strict=True):
        if head is None:
            found.append(pickle.loads(payload))  # written by store_fold only
            continue
        on = next(held)
        body = io.BytesIO(payload)
        body.seek(payload.index(b"\n", len(ON_PREFIX)) + 1)
        found.append(None if on is None else _FromPrefix(body, on.parts).load())
    return found


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
