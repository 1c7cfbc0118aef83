"""A test's own copy of rows built once for its module (tests/conftest.py's ``module_rows``)."""

from __future__ import annotations

import copy
from typing import TypeVar

from flipwell.league.derived import caches

T = TypeVar("T")


def own_copy(shared: T) -> T:
    """`shared` (model instances a module-scoped fixture built) deep-copied for one test, as
    Django's ``setUpTestData`` does, with this process's memos emptied.

    The rows are back as the module built them, under the same revision, after each test: a
    page or fold a previous test had this process remember would be served again without its
    view running (a test reading ``response.context`` would find none), and a test must see
    what a fresh build of the rows would show it."""
    forget_memos()
    return copy.deepcopy(shared)


def forget_memos() -> None:
    """Empty this process's memos (pages, folds): the next test starts as on fresh rows."""
    caches.forget()
