"""Compensatory games (§7.3, R7.3-k..p): who may have one, how many balls, its final score, and
the group waiting for it.

Words:
- *compensatory game*: a new game on the same machine for the affected balls, whose displayed
  score is added to the original (R7.3-k..o). A *replay* replaces the whole game instead.
- *major count*: major malfunctions to one player in one game, a turn counted once (A51).
- *open game*: a compensatory game or victim's replay the rest of the group must wait for
  (R7.3-p, R8.2-f).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from flipwell.rules.checks import check_player, check_score
from flipwell.rules.errors import RuleError, about_player
from flipwell.rules.malfunctions import COMPENSATORY_MAJORS, Malfunction
from flipwell.rules.ruleset import FWPL_V1, Ruleset
from flipwell.rules.values import PlayerId

OpenGameKind = Literal["compensatory", "replay"]


@dataclass(frozen=True)
class CompensatoryGame:
    """A granted compensatory game: the player and how many balls he plays (R7.3-k, R7.3-l)."""

    player: PlayerId
    balls: int


@dataclass(frozen=True)
class OpenGame:
    """A compensatory game or a victim's replay still being played (R7.3-p, R8.2-f)."""

    player: PlayerId
    kind: OpenGameKind


def compensatory_score(
    original: int,
    new: int,
    *,
    leading_subtracted: int = 0,
    state_subtracted: int = 0,
    ruleset: Ruleset = FWPL_V1,
) -> int:
    """The final machine score after a compensatory game (§7.3, R7.3-m, R7.3-n, R7.3-o, A33).

    final = original + new − score of the plunged leading balls − incidental state-setting
    points, never below 0 (`ruleset.compensatory_clamp_at_zero`; without the clamp, a
    subtraction beyond the total is refused).
    """
    parts = (
        check_score(original, what="original score"),
        check_score(new, what="compensatory game score"),
        check_score(leading_subtracted, what="leading balls' score"),
        check_score(state_subtracted, what="state-setting points"),
    )
    final = parts[0] + parts[1] - parts[2] - parts[3]
    if final < 0 and not ruleset.compensatory_clamp_at_zero:
        raise RuleError(
            f"the subtracted points ({parts[2] + parts[3]:,}) exceed the original and new "
            f"scores together ({parts[0] + parts[1]:,}) (R7.3-n, R7.3-o)"
        )
    return max(0, final)


def major_count(malfunctions: Sequence[Malfunction], *, player: PlayerId) -> int:
    """Major malfunctions to one player in one game, a turn counted once (R7.3-c, A51)."""
    check_player(player)
    return len({m.turn for m in malfunctions if m.player == player and m.kind == "major"})


def compensatory_entitled(malfunctions: Sequence[Malfunction], *, player: PlayerId) -> bool:
    """Whether a player may have a compensatory game (R7.3-k, A51).

    Two or more majors, or one catastrophic malfunction, to that player in the game; another
    player's malfunctions never count toward his.
    """
    catastrophic = any(m.player == player and m.kind == "catastrophic" for m in malfunctions)
    return catastrophic or major_count(malfunctions, player=player) >= COMPENSATORY_MAJORS


def compensatory_balls(malfunctions: Sequence[Malfunction], *, player: PlayerId) -> int:
    """Balls a compensatory game holds: the player's affected turns (R7.3-l).

    Turns ended early by a major, and turns never launched (recorded as catastrophic, which
    covers collected allowable extra balls but not uncollected or one-handed ones), each once.
    """
    check_player(player)
    return len({m.turn for m in malfunctions if m.player == player})


def request_compensatory_game(
    malfunctions: Sequence[Malfunction],
    *,
    player: PlayerId,
    play_continued: bool,
    next_game_started: bool = False,
    ruleset: Ruleset = FWPL_V1,
) -> CompensatoryGame:
    """Grant a player's request for a compensatory game, or refuse it (R7.3-k, R7.3-l, RA-b).

    play_continued: play went on after the triggering malfunction (the second major or the
    catastrophic one) before the request. RA-b, A31: by default the request must come at the
    trigger, before play continues (`ruleset.compensatory_request_deadline`); the alternative
    accepts it until the group's next game starts.
    """
    check_player(player)
    if not compensatory_entitled(malfunctions, player=player):
        majors = major_count(malfunctions, player=player)
        raise about_player(
            "{player} has {majors} major and no catastrophic malfunction in this game; a "
            "compensatory game needs 2 majors or 1 catastrophic (R7.3-k)",
            player,
            majors=str(majors),
        )
    late = (
        play_continued
        if ruleset.compensatory_request_deadline == "at_trigger"
        else next_game_started
    )
    if late:
        when = (
            "at the triggering malfunction, before play continues"
            if ruleset.compensatory_request_deadline == "at_trigger"
            else "before the group's next game starts"
        )
        raise about_player(
            "{player}'s compensatory game request is too late: it must be made {when} (RA-b, A31)",
            player,
            when=when,
        )
    return CompensatoryGame(player, compensatory_balls(malfunctions, player=player))


def check_next_game_may_start(open_games: Sequence[OpenGame]) -> None:
    """Refuse the group's next game while a compensatory game or replay is open (R7.3-p, R8.2-f)."""
    for game in open_games:
        check_player(game.player)
        if game.kind == "compensatory":
            raise about_player(
                "the group must wait: {player}'s compensatory game is not finished (R7.3-p)",
                game.player,
            )
        if game.kind == "replay":
            raise about_player(
                "the group must wait: {player}'s replayed game is not finished (R8.2-f)",
                game.player,
            )
        raise RuleError(f"unknown open game kind {game.kind!r}; allowed: compensatory, replay")
