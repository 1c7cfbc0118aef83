"""Writing a file so that a reader never sees half of it.

Words: an *atomic write* puts the text in a temporary file in the target's folder, flushes it
to disk, then renames it over the target: the target is the old file or the whole new one,
never a mix, even when the process dies half way.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TextIO


def write_atomically(path: Path, write: Callable[[TextIO], None], *, mode: int = 0o644) -> None:
    """Call `write` with a temporary text file, then rename it to `path` with `mode`.

    On any error the temporary file is removed and `path` is left as it was.
    """
    folder = path.parent if str(path.parent) else Path()
    descriptor, temporary = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8", newline="") as file:
            write(file)
            file.flush()
            os.fsync(file.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        raise
