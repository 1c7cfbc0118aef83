"""Who may enter and who may confirm a game's score sheet (§3, R3-a).

Words:
- *sheet*: every group member's machine score of one game, None for a player who did not play
  it (a forfeit, §2.4).
- *enterer*: the player who types the sheet in; *confirmer*: another player of the group who
  checks it and makes it count (R3-a: each player answers for their scores being recorded
  correctly, so the sheet is checked by a second player).
- *forfeited*: players whose forfeit of the game is recorded (absent, late, §2.3, §2.4): they
  are not at the machine for it.
- *absent*: players recorded absent for the rest of the match (R2.4-a): gone from the venue.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from flipwell.rules.checks import check_player, check_unique
from flipwell.rules.errors import about_player
from flipwell.rules.values import PlayerId


def who_may_enter(
    *, group: Sequence[PlayerId], forfeited: Collection[PlayerId] = ()
) -> tuple[PlayerId, ...]:
    """The players who may enter a game's sheet: the group's players who play it (R3-a).

    A player whose forfeit of the game is recorded is not at the machine (R2.4-a, §2.3): the
    sheet is not theirs to enter. Empty when every player forfeits it (a whole group absent):
    nobody plays the game and nobody enters it. Group order is kept.
    """
    members = check_unique(group, what="the group")
    for player in forfeited:
        check_player(player)
    return tuple(p for p in members if p not in forfeited)


def who_may_confirm(
    *,
    group: Sequence[PlayerId],
    entered_by: PlayerId,
    sheet: Mapping[PlayerId, int | None],
    absent: Collection[PlayerId] = (),
) -> tuple[PlayerId, ...]:
    """The players who may confirm a game's entered sheet (R3-a). Group order is kept.

    Another player of the group than its enterer, who played the game (has a score on the
    sheet): a player who forfeited it was not at the machine to check the scores. When no
    other player played it (every other one forfeited), any other player of the group still
    at the venue confirms: a sheet always has someone to confirm it. A player `absent` for
    the rest of the match (R2.4-a) has left: he never confirms, whatever the sheet says of
    him (when nobody else is left, the other players of the group do, as before).
    """
    members = check_unique(group, what="the group")
    check_player(entered_by)
    if entered_by not in members:
        raise about_player("{player} entered the sheet but is not in the group", entered_by)
    gone = set(absent)
    others = [p for p in members if p != entered_by]
    here = [p for p in others if p not in gone]
    played = [p for p in here if sheet.get(p) is not None]
    return tuple(played or here or others)
