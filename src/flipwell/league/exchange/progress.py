"""A progress bar for long work, drawn only where a person watches.

Words: the *stream* is where the bar is drawn (the command's standard error). On a terminal the
bar redraws in place (``\\r``) and ends with a newline; anywhere else (a pipe, a log file, a test)
the reporter writes nothing at all, so output stays clean for machines.
"""

from __future__ import annotations

import sys
from types import TracebackType
from typing import Protocol


class Stream(Protocol):
    """What the reporter needs of a stream (a file object such as sys.stderr)."""

    def write(self, text: str, /) -> object: ...

    def flush(self) -> object: ...

    def isatty(self) -> bool: ...


class Progress:
    """Counts steps of one piece of work toward `total` and draws a bar on a terminal.

    Use as a context manager: ``with Progress("Backing up", total=n) as bar: bar.advance()``.
    """

    def __init__(
        self, label: str, *, total: int, stream: Stream | None = None, width: int = 30
    ) -> None:
        self.label = label
        self.total = max(total, 0)
        self.done = 0
        self.width = width
        self._stream = sys.stderr if stream is None else stream
        self._drawing = _is_terminal(self._stream)
        self._last_filled = -1

    def __enter__(self) -> Progress:
        self._draw(force=True)
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def advance(self, steps: int = 1) -> None:
        """Count `steps` more steps done (never beyond the total)."""
        self.done = min(self.done + steps, self.total)
        self._draw()

    def close(self) -> None:
        """End the bar's line (once); nothing when no bar is drawn."""
        if self._drawing:
            self._draw(force=True)
            self._stream.write("\n")
            self._stream.flush()
            self._drawing = False

    def render(self) -> str:
        """The bar as text, e.g. ``Backing up [#######.......]  50/100``."""
        filled = self._filled()
        bar = "#" * filled + "." * (self.width - filled)
        digits = len(str(self.total))
        return f"{self.label} [{bar}] {self.done:>{digits}}/{self.total}"

    def _filled(self) -> int:
        if self.total == 0:
            return self.width
        return self.width * self.done // self.total

    def _draw(self, *, force: bool = False) -> None:
        if not self._drawing:
            return
        filled = self._filled()
        # Redraw when the bar grows (or at the ends): at most `width` redraws, however long.
        if force or filled != self._last_filled or self.done == self.total:
            self._last_filled = filled
            self._stream.write("\r" + self.render())
            self._stream.flush()


def _is_terminal(stream: Stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # a closed or unusual stream: draw nothing
        return False
