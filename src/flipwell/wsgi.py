"""The WSGI entry point (``gunicorn flipwell.wsgi``); settings come from the environment.

Each server process loads every URL, view and API schema here, before its first request
(otherwise the first request a worker answers waits about 1.5 s for those imports), computes
what every later request would otherwise compute once on its own time (the code's build
fingerprint that stored folds are keyed by, the SQL of the compiled queries: none of it
connects to the database), and then freezes what it has loaded out of the garbage
collector's sight: those objects live as long as the process, and scanning them made the
collector's pauses part of every request.

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

build()
compile_every_query()
gc.freeze()
