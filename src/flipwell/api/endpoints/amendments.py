"""An official's second thoughts about a league night, with a token of the meet's league and
scope *manage*: withdrawing an announced absence or lateness before the meet starts, or a
player's absence for the rest of his match; making a forfeit non-countable (R2.4-g); removing
a closed meet's photos. Each endpoint looks up what the request names, checks the token,
calls the console's service and renders its answer.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from flipwell.api import queries
from flipwell.api.arguments import PLAYER
from flipwell.api.endpoints.params import GameId, GroupId, MeetId
from flipwell.api.endpoints.public import router
from flipwell.api.endpoints.writes import WRITE
from flipwell.api.errors import ERROR_RESPONSES
from flipwell.api.schemas.amendments import (
    MatchAbsenceWithdrawalIn,
    MatchAbsenceWithdrawalOut,
    NonCountableIn,
    NoticeWithdrawalIn,
    NoticeWithdrawalOut,
    PhotoRemovalIn,
    PhotoRemovalOut,
)
from flipwell.api.schemas.incidents import ForfeitOut
from flipwell.api.writing import official, write
from flipwell.league import services


@router.post(
    "/meets/{meet_id}/notice-withdrawals",
    response={200: NoticeWithdrawalOut, **ERROR_RESPONSES},
    **WRITE,
)
def withdraw_announcement(
    request: HttpRequest, meet_id: MeetId, payload: NoticeWithdrawalIn
) -> Any:
    """Withdraw a player's announced absence or lateness before the meet starts: he is
    expected on time after all (R3.1-d, R2.2-a; scope: manage). 409
    ``meet_already_started`` once the groups are drawn; 422 on ``player`` when he announced
    nothing of the kind."""
    meet = queries.meet(meet_id)
    return write(
        request,
        services.withdraw_announcement,
        payload,
        by=official(meet.season.league, "manage"),
        lookups={"player": PLAYER},
        meet=meet,
    )


@router.post(
    "/groups/{group_id}/absence/withdrawals",
    response={200: MatchAbsenceWithdrawalOut, **ERROR_RESPONSES},
    **WRITE,
)
def withdraw_match_absence(
    request: HttpRequest, group_id: GroupId, payload: MatchAbsenceWithdrawalIn
) -> Any:
    """Withdraw a player's absence for the rest of the match, recorded by mistake: the games
    from the one in play on are his again; confirmed games keep their sheets (R2.4-a; scope:
    manage). 422 on ``player`` when he is not recorded absent, or his whole group is."""
    group = queries.group(group_id)
    return write(
        request,
        services.withdraw_match_absence,
        payload,
        by=official(group.meet.season.league, "manage"),
        lookups={"player": PLAYER},
        group=group,
    )


@router.post(
    "/games/{game_id}/non-countable-forfeits",
    response={201: ForfeitOut, **ERROR_RESPONSES},
    **WRITE,
)
def designate_forfeit_non_countable(
    request: HttpRequest, game_id: GameId, payload: NonCountableIn
) -> Any:
    """Designate a player's forfeit of the game non-countable, saying why: it no longer
    counts toward forfeiting the season (R2.4-g, R2.4-h, R2.5-a; scope: manage). The forfeit
    may have been recorded or entered on the sheet; a ruling records the designation. 422 on
    ``player`` when he did not forfeit the game or it is already non-countable."""
    game = queries.game(game_id)
    return write(
        request,
        services.designate_forfeit_non_countable,
        payload,
        by=official(game.group.meet.season.league, "manage"),
        lookups={"player": PLAYER},
        location=f"/api/v1/games/{game.pk}",
        game=game,
    )


@router.post(
    "/meets/{meet_id}/photos/removal",
    response={200: PhotoRemovalOut, **ERROR_RESPONSES},
    **WRITE,
)
def remove_meet_photos(request: HttpRequest, meet_id: MeetId, payload: PhotoRemovalIn) -> Any:
    """Remove every photo of a closed meet, saying why (scope: manage): their files are
    deleted, a ruling records who, when and why. 422 while the meet is not closed (its
    photos may still settle a score)."""
    meet = queries.meet(meet_id)
    return write(
        request,
        services.remove_meet_photos,
        payload,
        by=official(meet.season.league, "manage"),
        answer=lambda removed: {"meet_id": meet.pk, "removed": removed},
        meet=meet,
    )
