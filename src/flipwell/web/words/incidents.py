"""What an incident says in words: a malfunction's notice (§7.3) to the players it touches,
what a game-ending event owes a player (on the console and in the notice), a late entrant's
forfeits designated (R2.4-g). The league queues a notice's facts
(`flipwell.league.notices.MalfunctionFacts`, `GameEndedFacts`, `LateJoinFacts`); these put
them in words for `flipwell.web.emails`.

Words: *label* is the malfunction's reason as a person reads it ("Stuck ball"); *owed* is
what a game-ending event gives one player
(`flipwell.league.services.malfunctions.game_ending.Owed`).
Plain values in, text out: no query, no decision (the rules decided).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from flipwell.league import models as m
from flipwell.league.notices import GameEndedFacts, LateJoinFacts, MalfunctionFacts

if TYPE_CHECKING:
    from flipwell.league.services.malfunctions.game_ending import Owed


def balls_words(balls: Sequence[int]) -> str:
    """ "ball 2", "balls 2 and 3", "balls 1, 2 and 3"."""
    if len(balls) == 1:
        return f"ball {balls[0]}"
    return f"balls {', '.join(map(str, balls[:-1]))} and {balls[-1]}"


def owed_words(
    *, majors: Sequence[int], catastrophic: Sequence[int], balls: int, slammer: bool
) -> str:
    """What a player is owed in plain words: "major on ball 2, catastrophic on ball 3 → a
    compensatory game of 2 balls" (R7.3-h, R7.3-i, R7.3-k, R7.3-l, R8.4-a)."""
    if slammer:
        return (
            "nothing: they slam tilted the machine on purpose, which is interference: no "
            "compensatory game, and the penalty of a serious violation instead"
        )
    parts = [
        f"{kind} on {balls_words(numbers)}"
        for kind, numbers in (("major", majors), ("catastrophic", catastrophic))
        if numbers
    ]
    if not parts:
        return "nothing: every ball of theirs was played"
    owed = (
        f"a compensatory game of {'1 ball' if balls == 1 else f'{balls} balls'}"
        if balls
        else "no compensatory game (it needs 2 majors or 1 catastrophic)"
    )
    return f"{', '.join(parts)} → {owed}"


def what_owed(owed: Owed) -> str:
    """What a game-ending event gives one player, in plain words (`owed_words`)."""
    return owed_words(
        majors=owed.majors, catastrophic=owed.catastrophic, balls=owed.balls, slammer=owed.slammer
    )


def malfunction_notice(about: MalfunctionFacts) -> tuple[str, list[str]]:
    """The reporting player's notice of their malfunction: what happened, and its details."""
    what = f"a malfunction on your ball {about.ball} at meet {about.meet}"
    kind = m.Malfunction.Kind(about.kind).label
    return what, [
        f"{kind}: {_label(about.reason_code)} (group {about.group}, game {about.game}, "
        f"{about.rule}).",
        "You may now ask for a compensatory game (R7.3-k)." if about.entitled else "",
    ]


def game_ended_notice(about: GameEndedFacts) -> tuple[str, list[str]]:
    """The notice to another player owed a compensatory game by a game-ending event."""
    what = f"{_label(about.reason_code)} ended your game at meet {about.meet}"
    owed = owed_words(
        majors=about.majors,
        catastrophic=about.catastrophic,
        balls=about.balls,
        slammer=about.slammer,
    )
    return what, [
        f"Group {about.group}, game {about.game}: {owed}.",
        "You may now ask for a compensatory game (R7.3-k, R7.3-h).",
    ]


def _label(reason_code: str) -> str:
    return str(m.Malfunction.ReasonCode(reason_code).label)


def late_join_notice(about: LateJoinFacts) -> tuple[str, list[str]]:
    """The notice of an official's designation of a late entrant's forfeits before the meet
    they joined at (R2.4-g, R2.5-a)."""
    return f"your forfeits before you joined {about.season}", [
        f"Your forfeits before meet {about.joined_at_meet} "
        + ("count" if about.countable else "do not count")
        + f" toward the {about.limit} that forfeit a season (R2.4-g, R2.5-a)."
    ]
