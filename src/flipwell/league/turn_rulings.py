"""The kinds of an official's ruling about one player's turn in one game: one entry each.

A *turn ruling* is a `Ruling` naming a player and a game: the official's call about that
player's turn, with who, when and why (R1.1-b). It changes no score. Each kind is one
`TurnRulingKind` in `KINDS`, and everything else follows from it: the service
(`record_turn_ruling`), the console's form on a meet's Violations page, the API's write
(``POST /games/{id}/<path>``), the player's pages, the player's notice and the audit event
(``ruling.<kind>``). A new kind is a rules function that refuses a ruling that cannot be
(`flipwell.rules.turns.turn_ruling` does the common part), an entry here, and its words in
`flipwell.web.words.turn_rulings` (which fails at import on a kind it has no words for).

An entry holds the kind's facts only: its code, its name as the record keeps it, its rules.
What a person reads of it (the console's help, the player's pages, the notice) is the web's
(STYLE.md §17): the notice is queued as facts (`flipwell.league.notices.TurnRulingFacts`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from flipwell.league import models as m
from flipwell.rules import (
    DISTRACTION_RULES,
    SLOW_PLAY_RULES,
    Turn,
    TurnRuling,
    distraction_ruling,
    slow_play_warning,
)


@dataclass(frozen=True)
class TurnRulingKind:
    """One kind of turn ruling.

    kind: stored as `Ruling.kind`; the audit event is ``ruling.<kind>``.
    name: the kind's name as the record keeps it (the recorded ruling's `subject`, a
    refusal's words), as a model's choices keep their labels.
    path: the API's path under a game (``/games/{id}/<path>``).
    decide: the rules function: the ruling, or a RuleError when the player has no turn.
    rules: the rules it applies (the rules module's constant, as `decide` cites them).
    """

    kind: str
    name: str
    path: str
    decide: Callable[[Turn], TurnRuling]
    rules: tuple[str, ...]

    def subject(self, game: m.Game, player: m.Player) -> str:
        """The recorded ruling's subject (`Ruling.subject`, a fact of the record): the kind,
        whom and which game."""
        meet = game.group.meet
        return (
            f"{self.name}: {player}, meet {meet.number} group {game.group.number} "
            f"game {game.number}"
        )


SLOW_PLAY_WARNING = TurnRulingKind(
    kind="slow_play_warning",
    name="Slow-play warning",
    path="slow-play-warnings",
    decide=slow_play_warning,
    rules=SLOW_PLAY_RULES,
)

DISTRACTION_RULING = TurnRulingKind(
    kind="distraction_ruling",
    name="Distraction ruling",
    path="distraction-rulings",
    decide=distraction_ruling,
    rules=DISTRACTION_RULES,
)

KINDS: dict[str, TurnRulingKind] = {
    entry.kind: entry for entry in (SLOW_PLAY_WARNING, DISTRACTION_RULING)
}
"""Every kind of turn ruling, by its `kind`, in the order the console offers them."""
