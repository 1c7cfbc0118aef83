"""The meet a player registered in a season joins it at.

Words: a player registered once meets were played *joins* at the *next unplayed meet* (the
first meet not yet started): the meets before it are their late-join forfeits (R2.4-f,
A14.5). A meet that has started cannot be joined: its groups were drawn without him.
"""

from __future__ import annotations

from django.db.models import Max

from flipwell.league.adapters.keys import PLAYED
from flipwell.league.models import Season
from flipwell.league.refusals import ConflictError, Refusal


def next_unplayed_meet(season: Season) -> int:
    """The first meet of `season` not yet started (it may lie beyond the season's last meet).

    Meets start in order (§2), so it is the one after the highest started or closed meet.
    """
    last = season.meets.filter(status__in=PLAYED).aggregate(last=Max("number"))["last"]
    return (last or 0) + 1


def joining_meet(season: Season, joined_at_meet: int | None, *, who: str) -> int:
    """The meet `who` joins `season` at: `joined_at_meet`, by default the next unplayed meet.

    R2.4-f, A14.5: the played meets before it are their late-join forfeits. A meet that has
    started is refused: its groups were drawn without him, and the season fold finds every
    player of a started meet in a group or announced absent (R3.1-e). ValidationError on
    ``joined_at_meet`` for a meet outside the season, a meet that has started, or a season
    whose every meet has started.
    """
    last = season.number_of_meets
    if joined_at_meet is not None and not 1 <= joined_at_meet <= last:
        raise Refusal(
            {
                "joined_at_meet": f"Meet {joined_at_meet} is not in {season.name}, which has "
                f"meets 1 to {last}."
            },
            code="no_such_meet",
        )
    first = next_unplayed_meet(season)
    if first > last:
        raise ConflictError(
            {
                "joined_at_meet": f"Every meet of {season.name} has started (it has {last}): "
                f"no meet is left for {who} to join."
            },
            code="no_meet_left",
        )
    if joined_at_meet is None:
        return first
    if joined_at_meet < first:
        meets = f"meet {first}" if first == last else f"meet {first} to {last}"
        raise Refusal(
            {
                "joined_at_meet": f"Meet {joined_at_meet} of {season.name} has started: {who} "
                f"can join at {meets} (the meets before are their late-join forfeits, R2.4-f)."
            },
            code="joins_started_meet",
        )
    return joined_at_meet
