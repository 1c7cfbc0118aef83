"""`work`: send the queued notices and queue the reminders (see flipwell.league.notice_worker).

``flipwell work`` runs until stopped (SIGTERM or Ctrl+C end it after the pass in progress),
one pass every ``--interval`` seconds; ``flipwell work --once`` runs one pass and exits (for
cron and tests). Without ``NOTICES_EMAIL`` or ``FLIPWELL_SITE_URL`` it queues nothing, and
sends what is already queued. Any number may run at once, on one host or several: each claims
its own batch of the queue, so no notice is sent by two (*claim* in the worker's module).
"""

from __future__ import annotations

import signal
import threading
from types import FrameType
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser
from django.db import close_old_connections

from flipwell.league.management.commands._common import require_migrated
from flipwell.league.notice_worker import work_once
from flipwell.league.notices import missing_site_address


class Command(BaseCommand):
    help = (
        "Send the queued notices (retrying failed ones) and queue the reminders before each "
        "meet, every --interval seconds until stopped, or once with --once."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--once", action="store_true", help="one pass, then exit")
        parser.add_argument(
            "--interval",
            type=int,
            default=30,
            help="seconds between passes (default 30)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        require_migrated()
        if not settings.NOTICES_EMAIL:
            self.stdout.write("Notices are off (NOTICES_EMAIL): nothing new is queued.")
        elif missing_site_address():
            self.stderr.write(f"Warning: {missing_site_address()}")
        if options["once"]:
            self.stdout.write(str(work_once()))
            return
        interval = max(1, options["interval"])
        stop = threading.Event()

        def stop_after_this_pass(signum: int, frame: FrameType | None) -> None:
            stop.set()

        signal.signal(signal.SIGTERM, stop_after_this_pass)
        signal.signal(signal.SIGINT, stop_after_this_pass)
        self.stdout.write(f"Working the notice queue every {interval} s (Ctrl+C stops).")
        while not stop.is_set():
            close_old_connections()  # a database restart costs one pass, not the worker
            result = work_once()
            if result.reminders or result.sent or result.retried or result.failed:
                self.stdout.write(str(result))
            stop.wait(interval)
        self.stdout.write("Stopped.")
