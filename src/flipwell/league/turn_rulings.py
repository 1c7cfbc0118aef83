"""The kinds of an official's ruling about one player's turn in one game: one entry each.

A *turn ruling* is a `Ruling` naming a player and a game: the official's call about that
player's turn, with who, when and why (R1.1-b). It changes no score. Each kind is one
`TurnRulingKind` in `KINDS`, and everything else follows from it: the service
(`record_turn_ruling`), the console's form on a meet's Violations page, the API's write
(``POST /games/{id}/<path>``), the player's pages, the player's notice and the audit event
(``ruling.<kind>``). A new kind is a rules function that refuses a ruling that cannot be
(`flipwell.rules.turns.turn_ruling` does the common part) and an entry here.
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
    name: what people call it ("Slow-play warning").
    path: the API's path under a game (``/games/{id}/<path>``).
    decide: the rules function: the ruling, or a RuleError when the player has no turn.
    rules: the rules it applies (the rules module's constant, as `decide` cites them).
    when: the console's help, to the official: when to record it.
    ruled: what it ruled, on the player's pages ("play did not begin promptly, ...").
    told: what the player's notice says happened, addressed to them.
    """

    kind: str
    name: str
    path: str
    decide: Callable[[Turn], TurnRuling]
    rules: tuple[str, ...]
    when: str
    ruled: str
    told: str

    def subject(self, game: m.Game, player: m.Player) -> str:
        """The ruling's subject in the officials' list of rulings."""
        meet = game.group.meet
        return (
            f"{self.name}: {player}, meet {meet.number} group {game.group.number} "
            f"game {game.number}"
        )

    def notice(self, game: m.Game) -> tuple[str, list[str]]:
        """The player's notice: what, and what it did."""
        what = f"a {self.name.lower()} at meet {game.group.meet.number}"
        return what, [
            f"In game {game.number} of group {game.group.number} ({game.machine.title}), "
            f"{self.told}",
            "It changes no score: the game counts as the machine showed it.",
        ]


SLOW_PLAY_WARNING = TurnRulingKind(
    kind="slow_play_warning",
    name="Slow-play warning",
    path="slow-play-warnings",
    decide=slow_play_warning,
    rules=SLOW_PLAY_RULES,
    when="When a player does not begin play promptly, you may plunge their ball: they may "
    "not play it.",
    ruled="play did not begin promptly, so the official plunged the ball and it was not played",
    told="play did not begin promptly when it was your turn: the official plunged your ball, "
    "and it was not played.",
)

DISTRACTION_RULING = TurnRulingKind(
    kind="distraction_ruling",
    name="Distraction ruling",
    path="distraction-rulings",
    decide=distraction_ruling,
    rules=DISTRACTION_RULES,
    when="When a player asks for an allowance after a distraction (a bump, a noise, a "
    "customer who played their ball), record that it was normal play: no allowance is made.",
    ruled="the official ruled what happened a distraction: normal play, no allowance",
    told="you asked for an allowance after a distraction: the official ruled it normal play, "
    "and no allowance is made.",
)

KINDS: dict[str, TurnRulingKind] = {
    entry.kind: entry for entry in (SLOW_PLAY_WARNING, DISTRACTION_RULING)
}
"""Every kind of turn ruling, by its `kind`, in the order the console offers them."""
