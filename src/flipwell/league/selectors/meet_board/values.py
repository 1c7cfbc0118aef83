"""What the meet board shows, as values: a meet's groups, their games and each player's game line.

Words:
- *board*, *ranking score*, *game line*: see the package `flipwell.league.selectors.meet_board`.
- *night line*: one player's league points of the night so far: game points, and once the match
  is over the match bonus (R3.3-a, A19).
- *adjustment*: one change the rules made to an entered score, in plain words with its rule.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from flipwell.rules import (
    ScoreChangeKind,
)

GAMES_PER_MATCH = 4


@dataclass(frozen=True)
class CompensatoryParts:
    """A compensatory game's part of a ranking score (R7.3-m..o): its displayed score, and
    the leading and game-state points the LO subtracted from it."""

    new_score: int
    subtracted: int


@dataclass(frozen=True)
class Adjustment:
    """One change the rules made to an entered score: its kind (compensatory, subtracted,
    reduced, zeroed, penalty, forfeited), the signed change where it has one, plain words with
    names, and the rule behind it (shown only in a "why")."""

    kind: ScoreChangeKind
    amount: int | None
    text: str
    rule: str


@dataclass(frozen=True)
class RankingLine:
    """One player's game line (see the module's words): the score entered, the score that
    counts, and its parts when they differ (`changes`, and `adjustments`: every why in words,
    each with its rule)."""

    player: int
    name: str
    entered: int | None
    score: int | None
    """The score that counts (None: no score, a forfeit)."""
    compensatory: CompensatoryParts | None
    adjustments: tuple[str, ...]
    points: int = 0
    """The player's game points for this game, bonus point included (R3.2; 0 for a
    forfeit, R2.4-b)."""
    place: int | None = None
    """His place in the game (1 = first); None when not ranked (a forfeit)."""
    changes: tuple[Adjustment, ...] = ()
    """Each adjustment from the entered score to the one that counts, in order."""

    @property
    def rule_ids(self) -> tuple[str, ...]:
        """The rules behind the changes, each once (the "why")."""
        return tuple(dict.fromkeys(c.rule for c in self.changes))

    @property
    def adjusted(self) -> bool:
        """The ranking score is not the score entered."""
        return self.score != self.entered or bool(self.adjustments)


@dataclass(frozen=True)
class BoardGame:
    """One game of a group: machine, chooser, and once confirmed each player's game line
    (`cells`: what every reader shows) and the finishing order (see the module docstring)."""

    id: int
    number: int
    machine_id: int
    machine: str
    chosen_by: int | None
    confirmed: bool
    entered_scores: Mapping[int, int | None] | None
    """The counted sheet as entered (None until confirmed): a fact the game lines are built
    from, not what a reader shows (`cells` has the score that counts beside it)."""
    finishing_order: tuple[int, ...]
    awaiting_confirmation: bool
    """A score sheet was entered and waits for another player's confirmation (R3-a)."""
    ranking_scores: Mapping[int, int | None] | None = None
    """Player id -> the score the game ranks them by (None: no score); None until confirmed."""
    cells: tuple[RankingLine, ...] = ()
    """Once confirmed: each player's game line, in the group's ladder order."""
    compensatory: Mapping[int, CompensatoryParts] = field(default_factory=dict)
    """Player id -> his compensatory game recorded for this game (R7.3-m), confirmed or not."""


@dataclass(frozen=True)
class NightLine:
    """One player's league points of the night so far: game points, and once the match is
    finished its match bonus (R3.3-a; None before: the bonus is decided by all four games)
    and the player's place in the group's night (`night_places`)."""

    player: int
    name: str
    game_points: int
    match_bonus: int | None
    night_total: int
    place: int | None = None


@dataclass(frozen=True)
class BoardGroup:
    """A group at the meet and where its match stands."""

    id: int
    number: int
    players: tuple[int, ...]
    names: Mapping[int, str]
    games: tuple[BoardGame, ...]
    late: frozenset[int]
    next_picker: int | None
    """Who picks the machine of the next game (R5-c, A21, A24); None while a game is played,
    once the match is over, or when nobody can (nobody played the last game)."""
    play_order: tuple[int, ...]
    """The order of the game being played, or of the next game once its machine is chosen;
    empty once the match is over (no next game, `play_order`)."""
    waiting_for: tuple[int, ...]
    """Players whose compensatory game the group waits for (R7.3-p)."""
    nights: tuple[NightLine, ...] = ()
    """Each player's points of the night, ladder order; empty before a game is confirmed."""
    official_picks: bool = False
    """Nobody played the last (confirmed) game, so the LO chooses or draws the next machine
    (A66)."""

    @property
    def finished(self) -> bool:
        """All four games have confirmed scores."""
        return match_finished(self.games)


def match_finished(games: Sequence[BoardGame]) -> bool:
    return len(games) == GAMES_PER_MATCH and all(g.confirmed for g in games)


@dataclass(frozen=True)
class MeetBoard:
    """A meet's board: its groups and its machines."""

    meet_id: int
    number: int
    status: str
    groups: tuple[BoardGroup, ...]
    machines: Mapping[int, str]
    in_use: Mapping[int, int]
    """Machine id -> the group number playing on it."""
    unplayable: frozenset[int]
