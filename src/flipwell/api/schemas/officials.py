"""A league's officials and scorekeepers, and the invitations to a role in a league
(`flipwell.league.services.invitations`): what a league official of the league reads and
writes, and what the invited account reads and answers.

An invitation as the league reads it says what was typed (``invited_as``), never whether it
found an account."""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING, Literal

from ninja import Field, Schema

from flipwell.api.schemas.common import MAX_ID, InputSchema, text_field
from flipwell.league import limits
from flipwell.league.enums import OfficialRoleValue as Role

if TYPE_CHECKING:
    from flipwell.league import models as m

Status = Literal["pending", "accepted", "declined", "withdrawn", "expired"]


class OfficialOut(Schema):
    id: int = Field(..., description="The official's id (his role in this league).")
    username: str = Field(..., description="The user name he signs in with.")
    role: Role = Field(..., description="league_official (runs everything) or scorekeeper.")
    player_id: int | None = Field(
        ..., description="His own player record, when he also plays (R1.1-a, A55); else null."
    )
    since: datetime.datetime = Field(..., description="When he got a role in the league.")

    @staticmethod
    def resolve_id(obj: m.LeagueOfficial) -> int:
        return obj.pk

    @staticmethod
    def resolve_username(obj: m.LeagueOfficial) -> str:
        return obj.user.get_username()

    @staticmethod
    def resolve_since(obj: m.LeagueOfficial) -> datetime.datetime:
        return obj.created_at


class OfficialPage(Schema):
    results: list[OfficialOut] = Field(
        ..., description="The league's officials, league officials first, then by user name."
    )
    next: str | None = Field(..., description="URL of the next page; null on the last page.")


class InvitationIn(InputSchema):
    who: str = text_field(
        "The user name or e-mail address (any case) of the account to invite. The answer is "
        "the same whether or not an account has it.",
        min_length=1,
        max_length=limits.INVITEE_LENGTH,
    )
    role: Role = Field(..., description="The role offered: league_official or scorekeeper.")


class RoleIn(InputSchema):
    role: Role = Field(
        ..., description="The official's new role in the league: league_official or scorekeeper."
    )


class OfficialPlayerIn(InputSchema):
    player: int | None = Field(
        ...,
        alias="player_id",
        ge=1,
        le=MAX_ID,
        description="The official's own player record, when he also plays in the league (his "
        "rulings on his own group are flagged, R1.1-a); null unlinks it.",
    )


def _status(obj: m.Invitation) -> str:
    if obj.decision:
        return obj.decision
    return "expired" if obj.expires_at <= datetime.datetime.now(datetime.UTC) else "pending"


class _InvitationFields(Schema):
    """What both sides of an invitation see of it."""

    id: int = Field(..., description="The invitation's id.")
    role: Role = Field(..., description="The role offered.")
    invited_by: str = Field(..., description="The user name of the official who invited.")
    created_at: datetime.datetime = Field(..., description="When it was sent.")
    expires_at: datetime.datetime = Field(..., description="Until when it may be accepted.")
    status: Status = Field(
        ...,
        description="pending, accepted, declined (by the account), withdrawn (by an "
        "official) or expired.",
    )

    @staticmethod
    def resolve_id(obj: m.Invitation) -> int:
        return obj.pk

    @staticmethod
    def resolve_invited_by(obj: m.Invitation) -> str:
        return obj.invited_by.get_username()

    @staticmethod
    def resolve_status(obj: m.Invitation) -> str:
        return _status(obj)


class InvitationOut(_InvitationFields):
    """An invitation as its league's officials see it: what was typed, never the account."""

    invited_as: str = Field(..., description="The user name or e-mail address typed.")


class InvitationPage(Schema):
    results: list[InvitationOut] = Field(
        ..., description="The league's pending invitations, newest first."
    )
    next: str | None = Field(..., description="URL of the next page; null on the last page.")


class MyInvitationOut(_InvitationFields):
    """An invitation as the invited account sees it: which league invites."""

    league: str = Field(..., description="The slug of the league that invites.")
    league_name: str = Field(..., description="Its name.")

    @staticmethod
    def resolve_league(obj: m.Invitation) -> str:
        return obj.league.slug

    @staticmethod
    def resolve_league_name(obj: m.Invitation) -> str:
        return obj.league.name


class MyInvitationPage(Schema):
    results: list[MyInvitationOut] = Field(
        ..., description="The account's pending invitations, newest first."
    )
    next: str | None = Field(..., description="URL of the next page; null on the last page.")


class AcceptedOut(Schema):
    invitation: MyInvitationOut = Field(..., description="The invitation, now accepted.")
    official: OfficialOut = Field(..., description="The account's role in the league now.")
