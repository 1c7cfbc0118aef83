"""What a person reads of each kind of turn ruling (`flipwell.league.turn_rulings`): the
console's help, the player's pages, the player's notice.

Words:
- *when*: the console's help, to the official: when to record it.
- *ruled*: what it ruled, on the player's pages ("play did not begin promptly, ...").
- *told*: what the player's notice says happened, addressed to them.

The league keeps each kind's facts (its code, its name as the record keeps it, its rules);
every kind of `KINDS` has its words here, or this module fails at import.
"""

from __future__ import annotations

from dataclasses import dataclass

from flipwell.league.notices import TurnRulingFacts
from flipwell.league.turn_rulings import KINDS, TurnRulingKind


@dataclass(frozen=True)
class TurnRulingWords:
    """One kind of turn ruling (`entry`) with its words (see the module docstring)."""

    entry: TurnRulingKind
    when: str
    ruled: str
    told: str

    @property
    def kind(self) -> str:
        return self.entry.kind

    @property
    def name(self) -> str:
        """What people call it ("Slow-play warning")."""
        return self.entry.name

    @property
    def rules(self) -> tuple[str, ...]:
        return self.entry.rules


_SAID = (
    TurnRulingWords(
        KINDS["slow_play_warning"],
        when="When a player does not begin play promptly, you may plunge their ball: they may "
        "not play it.",
        ruled="play did not begin promptly, so the official plunged the ball and it was not played",
        told="play did not begin promptly when it was your turn: the official plunged your "
        "ball, and it was not played.",
    ),
    TurnRulingWords(
        KINDS["distraction_ruling"],
        when="When a player asks for an allowance after a distraction (a bump, a noise, a "
        "customer who played their ball), record that it was normal play: no allowance is "
        "made.",
        ruled="the official ruled what happened a distraction: normal play, no allowance",
        told="you asked for an allowance after a distraction: the official ruled it normal "
        "play, and no allowance is made.",
    ),
)

WORDS: dict[str, TurnRulingWords] = {said.kind: said for said in _SAID}
"""Every kind of turn ruling with its words, by its `kind`, in the order of `KINDS`."""

if list(WORDS) != list(KINDS):
    raise RuntimeError(
        "Every kind of turn ruling has its words here, in the order of "
        f"flipwell.league.turn_rulings.KINDS: {list(KINDS)}, not {list(WORDS)}."
    )


def turn_ruling_notice(about: TurnRulingFacts) -> tuple[str, list[str]]:
    """The player's notice of a turn ruling: what, and what it did."""
    said = WORDS[about.kind]
    what = f"a {said.name.lower()} at meet {about.meet}"
    return what, [
        f"In game {about.game} of group {about.group} ({about.machine}), {said.told}",
        "It changes no score: the game counts as the machine showed it.",
    ]
