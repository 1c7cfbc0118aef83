"""Waiting in tests on what happens, never for a fixed time: a condition polled until it holds
(or a deadline passes), and whether a thread is inside a given function now (blocked on its
lock, or polling), read off the thread's stack.

Words:
- *deadline*: how long a wait may last before the test fails; the test is as fast as the
  event it waits for, the deadline only bounds a broken run.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable

POLL_SECONDS = 0.002


def until(condition: Callable[[], bool], seconds: float = 5.0) -> bool:
    """Whether `condition` held before `seconds` passed (polled every 2 ms)."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(POLL_SECONDS)
    return True


def inside(thread: threading.Thread, function: str) -> bool:
    """Whether `thread` is running (or blocked) inside a function named `function` now."""
    frame = sys._current_frames().get(thread.ident or -1)
    while frame is not None:
        if frame.f_code.co_name == function:
            return True
        frame = frame.f_back
    return False
