"""A group's next machine: who may pick it now, which machines the §5 rules allow and why each
other one is not (read from `flipwell.league.selectors.allowed_machines`)."""

from __future__ import annotations

from typing import Literal

from ninja import Field, Schema

from flipwell.rules import NoPickCode, RefusalCode


class PickerOut(Schema):
    """Read from the selector's `Picker`."""

    kind: Literal["player", "official", "nobody"] = Field(
        ...,
        description="Who may pick now: 'player' (last place of the previous game, R5-c, A21, "
        "A24, A67), 'official' (nobody played the previous game, A66) or 'nobody' (see "
        "`reason`).",
    )
    player_id: int | None = Field(..., description="The player who picks; null otherwise.")
    player_name: str = Field(..., description="His name; empty otherwise.")
    reason: NoPickCode | None = Field(
        ...,
        description="Why nobody may pick now; null when someone may. meet_not_open: the meet "
        "is planned or closed; first_game_drawn: game 1 is drawn at the start (R5-a); "
        "match_complete: the match has its four games (R4-b); game_not_confirmed: the game in "
        "play has no confirmed scores yet (R5-c); waiting_for_compensatory: a compensatory "
        "game is awaited (R7.3-p).",
    )
    text: str = Field(..., description="Why, in plain words (no rule id).")
    rules: list[str] = Field(..., description="The rules behind it (RULES.md ids).")


class MachineOptionOut(Schema):
    """Read from the selector's `MachineOption`."""

    id: int = Field(..., description="The machine's id (send it as machine_id).")
    title: str = Field(..., description="The machine's title.")


class RefusedOptionOut(Schema):
    """Read from the selector's `RefusedOption`."""

    id: int = Field(..., description="The machine's id.")
    title: str = Field(..., description="The machine's title.")
    code: RefusalCode = Field(
        ...,
        description="Why it may not be chosen: unplayable (out of service, R7.3-r); "
        "already_played (the group played it tonight and a machine it has not played is left, "
        "R5-e, R4-b, A22, A53); claimed (another group is already waiting for it, R5-g); "
        "in_use (another group is playing it, not on its final ball, R5-d).",
    )
    reason: str = Field(..., description="Why, in plain words (no rule id).")
    rules: list[str] = Field(..., description="The rules behind it (RULES.md ids).")


class AllowedMachinesOut(Schema):
    """Read from the selector's `AllowedMachines`."""

    group_id: int = Field(..., description="The group's id.")
    group_number: int = Field(..., description="The group's number at its meet.")
    meet_id: int = Field(..., description="The meet's id.")
    game_number: int | None = Field(
        ..., description="The number of the game the machine is for; null once the match is over."
    )
    picker: PickerOut = Field(..., description="Who may pick the next machine now.")
    allowed: list[MachineOptionOut] = Field(
        ...,
        description="The machines the picker may choose (R5-d..g, R4-b, R7.3-r), by title; "
        "empty when nobody may pick. POST /groups/{id}/next-game accepts exactly these.",
    )
    refused: list[RefusedOptionOut] = Field(
        ...,
        description="Every other machine of the league, by title, with why; empty when "
        "nobody may pick.",
    )
    fallback: bool = Field(
        ..., description="Nothing free was left, so machines in use are allowed (R5-f)."
    )
    repeats: bool = Field(
        ...,
        description="An allowed machine was already played by the group tonight: no machine "
        "it has not played is left (A22, A53).",
    )
