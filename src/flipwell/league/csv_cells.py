"""CSV cells a spreadsheet cannot run: every CSV flipwell writes goes through `csv_text`.

Words:
- *formula start*: a first character that makes a spreadsheet read a cell as a formula
  (``=``, ``+``, ``-``, ``@``) or that some spreadsheets strip before doing so (tab, carriage
  return). A player named ``=HYPERLINK(...)`` would otherwise run as a formula on the
  official's computer when he opens ``standings.csv`` ("CSV injection", OWASP).
- *neutralised* cell: a text cell that begins with a formula start (after any quotes),
  written with a single quote in front (OWASP's rule), so a spreadsheet shows it as text.
  Numbers are never neutralised, neither numeric values nor text that is a plain number
  (``-3``, ``179.5``): a spreadsheet reads those as the number they are, which is harmless.
- *restored* cell: the reverse, for files read back (a roster made from an export): a quote
  followed by a cell that would be neutralised is removed, so ``'=Bob`` comes back as
  ``=Bob`` and exporting it again writes the same ``'=Bob``.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Sequence

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
QUOTE = "'"
_PLAIN_NUMBER = re.compile(r"[+-]?[0-9]+(\.[0-9]+)?")


def neutralise(value: object) -> object:
    """The cell as a spreadsheet should see it: a `_formula_like` text cell gets a leading
    quote; anything else (numbers, plain-number text, other text) is as is."""
    if isinstance(value, str) and _formula_like(value):
        return QUOTE + value
    return value


def restore(text: str) -> str:
    """The text a neutralised cell stood for (other text as is); see the module docstring."""
    if text.startswith(QUOTE) and _formula_like(text[1:]):
        return text[1:]
    return text


def _formula_like(text: str) -> bool:
    """Text beginning with a formula start, after any quotes: ``'=x`` is neutralised too
    (to ``''=x``, shown as ``'=x``), so that `restore` gives back exactly what was written."""
    rest = text.lstrip(QUOTE)
    return rest.startswith(FORMULA_STARTS) and not _PLAIN_NUMBER.fullmatch(rest)


def csv_text(header: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    """A CSV file (``\\n`` line ends) of the header and rows, every cell `neutralise`d."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow([neutralise(cell) for cell in header])
    writer.writerows([neutralise(cell) for cell in row] for row in rows)
    return buffer.getvalue()
