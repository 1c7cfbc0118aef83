"""One `Ruleset` setting's reading, the way the official who may change it reads it.

Words: a *reading* is one setting's explanation: the rule IDs of RULES.md it reads
(``R2.5-a``), the rulebook sections, the INTERPRETATIONS.md entries (``A14.1``; none for a plain
number of the rulebook the league may change), the entry's title and its text (the question and
flipwell's default).

The text, as INTERPRETATIONS.md words it, names settings in code (``Setting playoff_cut_rule =
"table_round_up"``); its *plain text* leaves those out for a person, who reads the setting's
value in words beside it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

SETTING_IN_CODE = re.compile(
    r"\s*\bSettings? [a-z][a-z0-9_]* ?=.*?(?:\.(?=\s|$)|$)"  # a sentence naming settings
    r"|\s*\([a-z][a-z0-9_]* = [^()]*\)",  # or a bracket naming one
    re.S,
)


@dataclass(frozen=True)
class Reading:
    """One `Ruleset` setting as the official reads it."""

    interpretations: tuple[str, ...]
    rules: tuple[str, ...]
    sections: tuple[str, ...]
    title: str
    text: str

    @property
    def plain_text(self) -> str:
        """The text without the sentences (or brackets) that name settings in code."""
        return SETTING_IN_CODE.sub("", self.text).strip()
