"""What an incident says in words, in the sentences of a ruling's notice that the services
write: a malfunction's (§7.3), to the players it touches, and what a game-ending event owes a
player; a late entrant's forfeits designated (R2.4-g).

Words: *label* is the malfunction's reason as a person reads it ("Stuck ball"); *owed* is
what a game-ending event gives one player
(`flipwell.league.services.malfunctions.game_ending.Owed`).
Plain values in, text out: no query, no decision (the rules decided).
"""

from __future__ import annotations

from collections.abc import Sequence

from flipwell.league import models as m


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


def malfunction_notice(
    malfunction: m.Malfunction, *, rule: str, entitled: bool
) -> tuple[str, list[str]]:
    """The reporting player's notice of their malfunction: what happened, and its details."""
    game = malfunction.game
    what = f"a malfunction on your ball {malfunction.ball} at meet {game.group.meet.number}"
    return what, [
        f"{malfunction.get_kind_display()}: {_label(malfunction)} (group {game.group.number}, "
        f"game {game.number}, {rule}).",
        "You may now ask for a compensatory game (R7.3-k)." if entitled else "",
    ]


def game_ended_notice(malfunction: m.Malfunction, *, owed: str) -> tuple[str, list[str]]:
    """The notice to another player owed a compensatory game by a game-ending event."""
    game = malfunction.game
    what = f"{_label(malfunction)} ended your game at meet {game.group.meet.number}"
    return what, [
        f"Group {game.group.number}, game {game.number}: {owed}.",
        "You may now ask for a compensatory game (R7.3-k, R7.3-h).",
    ]


def _label(malfunction: m.Malfunction) -> str:
    return str(m.Malfunction.ReasonCode(malfunction.reason_code).label)


def late_join_forfeits_detail(joined_at_meet: int, *, countable: bool, limit: int) -> str:
    """The notice's sentence for an official's designation of a late entrant's forfeits before
    meet `joined_at_meet` (R2.4-g, R2.5-a); `limit` is the season's forfeit limit."""
    return (
        f"Your forfeits before meet {joined_at_meet} "
        + ("count" if countable else "do not count")
        + f" toward the {limit} that forfeit a season (R2.4-g, R2.5-a)."
    )
