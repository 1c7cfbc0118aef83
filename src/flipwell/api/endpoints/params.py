"""Parameters the endpoints share, with their documented limits."""

from __future__ import annotations

from typing import Annotated

from ninja import Path, Query

from flipwell.api.paging import DEFAULT_LIMIT, MAX_LIMIT
from flipwell.api.schemas.common import MAX_ID

SeasonId = Annotated[int, Path(ge=1, le=MAX_ID, description="The season's id.")]
MeetId = Annotated[int, Path(ge=1, le=MAX_ID, description="The meet's id.")]
GameId = Annotated[int, Path(ge=1, le=MAX_ID, description="The game's id.")]
PlayerId = Annotated[int, Path(ge=1, le=MAX_ID, description="The player's id.")]
SubmissionId = Annotated[int, Path(ge=1, le=MAX_ID, description="The score submission's id.")]
PhotoKey = Annotated[
    str,
    Path(
        min_length=1,
        max_length=64,
        pattern=r"^[-a-zA-Z0-9_]+$",
        description="The photo's key (its random name).",
    ),
]
Slug = Annotated[
    str, Path(max_length=60, pattern=r"^[-a-zA-Z0-9_]+$", description="The league's slug.")
]
Cursor = Annotated[
    str | None,
    Query(
        None,
        max_length=40,
        pattern=r"^[A-Za-z0-9_-]*$",
        description="Where the page starts: the 'next' link's cursor; none for the first page.",
    ),
]
Limit = Annotated[
    int, Query(DEFAULT_LIMIT, ge=1, le=MAX_LIMIT, description="How many items per page.")
]
GroupId = Annotated[int, Path(ge=1, le=MAX_ID, description="The meet group's id.")]
MachineId = Annotated[int, Path(ge=1, le=MAX_ID, description="The machine's id.")]
ReportId = Annotated[int, Path(ge=1, le=MAX_ID, description="The problem report's id.")]
CorrectionId = Annotated[int, Path(ge=1, le=MAX_ID, description="The correction request's id.")]
ViolationId = Annotated[int, Path(ge=1, le=MAX_ID, description="The violation's id.")]
EntryId = Annotated[int, Path(ge=1, le=MAX_ID, description="The ledger entry's id.")]
Division = Annotated[
    str,
    Path(max_length=4, pattern=r"^[A-Za-z0-9]+$", description="The playoff division ('A')."),
]
MatchName = Annotated[
    str,
    Path(
        max_length=4,
        pattern=r"^[A-Za-z0-9]+$",
        description="The playoff match: QF1, QF2, ..., SF1, SF2 or F.",
    ),
]
