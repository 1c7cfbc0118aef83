"""Words a person reads first, and the rules they rest on.

A message of the services or a help text may cite the rules it applies in brackets ("… the
official chooses or draws it (R5-c, A66)."). The console shows the sentence without them, and
the rules in an expandable "why" after it (templates/manage/_why.html). A *rule id* is a rule
of the catalogue ("R3.2-c", "RA-b"), a reading of flipwell ("A06", "A45.2") or a section of the
rulebook ("§8.5").

The package's modules put the league's facts in words, where the league keeps none (STYLE.md
§17): `turn_rulings` (each kind of ruling about a player's turn), `incidents` (a malfunction's
notices, what a game-ending event owes, a late entrant's forfeits designated), `violations` (a
violation's penalty, a restarted game).
"""

from __future__ import annotations

import re

RULE = r"(?:R\d+(?:\.\d+)*-[a-z]+|RA-[a-z]+|A\d{2}(?:\.\d+)?|§\d+(?:\.\d+)*)"
RULE_ID = re.compile(rf"(?<![\w§]){RULE}(?![\w-])")
"""A rule id anywhere in a text (a test's and the splitter's definition)."""

_BRACKETED = re.compile(r"\s*[(\[]([^()\[\]]*)[)\]]")
_ITEM = re.compile(rf"^(?:rules? )?({RULE})(?::\s*(.*))?$", re.S)


def counted(count: int, noun: str, plural: str = "") -> str:
    """ "1 forfeit", "2 forfeits", "0 forfeits": a count with its noun in the right number
    (`plural` for a noun that takes more than an "s")."""
    return f"{count} {noun if count == 1 else plural or noun + 's'}"


def split_rules(text: str) -> tuple[str, tuple[str, ...]]:
    """The sentence without its bracketed rule ids, and those ids in order, each once:
    "Pick the machine (last place, R5-c, A21): go." -> ("Pick the machine (last place): go.",
    ("R5-c", "A21")). A bracket that held only rule ids goes with the space before it; one
    that also says something keeps its words. A rule id outside brackets stays (write such
    a sentence in plain words)."""
    found: list[str] = []

    def plain(match: re.Match[str]) -> str:
        kept, cited_here = [], []
        for item in re.split(r"[,;]\s*", match.group(1)):
            cited = _ITEM.match(item.strip())
            if cited:
                cited_here.append(cited.group(1))
                if cited.group(2):
                    kept.append(cited.group(2).strip())
            else:
                kept.append(item)
        if not cited_here:
            return match.group(0)  # no rule id in it: an ordinary bracket
        found.extend(cited_here)
        if not kept:
            return ""
        space = match.group(0)[: len(match.group(0)) - len(match.group(0).lstrip())]
        return f"{space}({', '.join(kept)})"

    sentence = _BRACKETED.sub(plain, str(text))
    return sentence, tuple(dict.fromkeys(found))
