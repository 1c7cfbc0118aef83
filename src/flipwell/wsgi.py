"""The WSGI entry point (``gunicorn flipwell.wsgi``); settings come from the environment.

Each server process loads every URL, view and API schema here, before its first request
(otherwise the first request a worker answers waits about 1.5 s for those imports), computes
what every later request would otherwise compute once on its own time (the code's build
fingerprint that stored folds are keyed by, the SQL of the compiled queries: none of it
connects to the database), and then freezes what it has loaded out of the garbage
collector's sight: those objects live as long as the process, and scanning them made the
collector's pauses part of every request. The collector then runs less often than Python's
default (`YOUNG_COLLECTION_THRESHOLD`).

The live streams (``/live/...``) are handed from gunicorn's thread to this process's stream
hub once their head is answered (`flipwell.serving.live.hand_off`).
"""

import gc
import os

from django.core.wsgi import get_wsgi_application
from django.urls import get_resolver

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "flipwell.settings")

from flipwell.serving.live import hand_off

application = hand_off(get_wsgi_application())
get_resolver().url_patterns  # noqa: B018  # imports every URL module, view and API schema

from flipwell.league.derived.caches import build  # noqa: E402
from flipwell.league.derived.compiled import compile_every_query  # noqa: E402  # after django.setup()

YOUNG_COLLECTION_THRESHOLD = 20_000
"""Allocations (net) before the collector looks at the youngest objects; Python's default is
700. A worker rendering templates and folds allocates that many in a fraction of a
millisecond, so with the default, every tenth look at the middle generation became a full
collection of everything the process keeps (its folds, pages and parts): one every 45 s or
so per worker in a 10-league `bench/bench_nights.py` night, each 59 ms (up to 90 ms) during
which every thread of the worker, and its live streams' hub, stood still. With 20,000 that
night had no full collection at all, and the server's CPU per write fell from 59 to 54 ms
(the write p99 140 to 125 ms; one night each, docs/scaling.md [Z]). Garbage cycles wait a
little longer to be freed: the workers' peak memory stayed at 178-180 MB."""

build()
compile_every_query()
gc.freeze()
gc.set_threshold(YOUNG_COLLECTION_THRESHOLD, *gc.get_threshold()[1:])
