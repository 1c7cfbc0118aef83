"""The JSON shapes of the API: every request body and response, each field described.

Words:
- *league points* are exact fractions in flipwell (a §2.4 credit can be a third of a point).
  The API gives them as JSON numbers: exact when a decimal can write them (``179.5``), else
  rounded to 6 places; the ``*_exact`` field beside each always holds the exact value as a
  fraction string (``"359/2"``, ``"214"``).
- *machine scores* are JSON integers, never floats, whatever their size.
- a *page* is one slice of a list: ``results`` and ``next``, the URL of the next slice (null
  on the last), so a list is never cut silently.
- an *input schema* (`InputSchema`, every request body) is strict: a field it does not know
  is refused, a number must be a JSON number (``true`` and ``"5"`` are not ``5``, ``5.0`` is
  not an integer), a yes/no must be ``true`` or ``false``; dates and moments are ISO 8601
  strings, as JSON has no date. A list of scores names each player once.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Annotated, Literal, Protocol, TypeVar

from ninja import Field, Schema
from pydantic import AfterValidator, ConfigDict

from flipwell.league.validators import MAX_MACHINE_SCORE

MAX_ID = 2**63 - 1
"""Ids are 64-bit database keys: a larger number names nothing (and is refused, not 500)."""
NO_NUL = r"^[^\x00]*$"
"""Text fields refuse the NUL character, which no database text column stores."""
EXACT = r"^-?[0-9]+(/[0-9]+)?$"

RaceStatus = Literal["clinched", "alive", "eliminated"]


# --- errors ---------------------------------------------------------------------------------


class ErrorBody(Schema):
    code: str = Field(
        ...,
        description="What went wrong, for programs: invalid_input, invalid, conflict, "
        "not_authenticated, forbidden, not_found, malformed, too_large, "
        "unsupported_media_type, server_error.",
    )
    message: str = Field(..., description="What went wrong, for people.")
    fields: dict[str, list[str]] = Field(
        ...,
        description="Field (dotted path into the request, or 'line N, column' for a CSV) -> "
        "its messages; empty when no one field is to blame.",
    )


class ErrorOut(Schema):
    error: ErrorBody = Field(..., description="The error: code, message and field messages.")


# --- shared pieces --------------------------------------------------------------------------


class PlayerRefOut(Schema):
    id: int = Field(..., description="The player's id.")
    name: str = Field(..., description="First and last name.")


class PointsMixin(Schema):
    league_points: float = Field(
        ...,
        description="League points as a number: exact when a decimal can write them, else "
        "rounded to 6 places (see league_points_exact).",
    )
    league_points_exact: str = Field(
        ..., pattern=EXACT, description="League points exactly, as a fraction ('359/2')."
    )


# --- leagues, seasons, players, meets -------------------------------------------------------


class LeagueOut(Schema):
    slug: str = Field(..., description="The league's short name, used in its URLs.")
    name: str = Field(..., description="The league's name.")
    venue: str = Field(..., description="Where it plays (may be empty).")
    time_zone: str = Field(..., description="The league's IANA time zone.")


class LeaguePage(Schema):
    results: list[LeagueOut] = Field(..., description="This page's leagues, by id.")
    next: str | None = Field(..., description="URL of the next page; null on the last page.")


class SeasonOut(Schema):
    id: int = Field(..., description="The season's id.")
    league: str = Field(..., description="The league's slug.")
    name: str = Field(..., description="The season's name, unique in its league.")
    weekday: int = Field(..., ge=0, le=6, description="Day of its meets, Monday = 0 (R2-a).")
    start_time: str = Field(
        ...,
        pattern=r"^[0-2][0-9]:[0-5][0-9]:[0-5][0-9]$",
        description="Start time of its meets, HH:MM:SS in the league's time zone.",
    )
    number_of_meets: int = Field(..., description="Regular meets in the season.")
    dues_cents: int = Field(..., description="Dues per player, in cents (R9-a).")


class SeasonPage(Schema):
    results: list[SeasonOut] = Field(..., description="This page's seasons, by id.")
    next: str | None = Field(..., description="URL of the next page; null on the last page.")


class EntryOut(Schema):
    player_id: int = Field(..., description="The player's id.")
    first_name: str = Field(..., description="First name.")
    last_name: str = Field(..., description="Last name.")
    ifpa_number: int | None = Field(..., description="IFPA number; null when he has none.")
    ifpa_rank_at_start: int | None = Field(
        ..., description="IFPA rank when the season started (week-1 seeding); null: unranked."
    )
    joined_at_meet: int = Field(..., description="The meet he joined at (1: from the start).")


class EntryPage(Schema):
    results: list[EntryOut] = Field(..., description="This page's entries, by entry id.")
    next: str | None = Field(..., description="URL of the next page; null on the last page.")


class MeetOut(Schema):
    id: int = Field(..., description="The meet's id.")
    season_id: int = Field(..., description="Its season's id.")
    number: int = Field(..., description="Its number in the season, from 1.")
    date: datetime.date = Field(..., description="The meet's date.")
    status: Literal["planned", "open", "closed"] = Field(
        ..., description="planned, open (being played) or closed."
    )
    started_at: datetime.datetime | None = Field(..., description="When the LO started it.")


class MeetPage(Schema):
    results: list[MeetOut] = Field(..., description="This page's meets, by id.")
    next: str | None = Field(..., description="URL of the next page; null on the last page.")


# --- the meet board and games ---------------------------------------------------------------


class ScoreOut(Schema):
    player_id: int = Field(..., description="The player's id.")
    machine_score: int | None = Field(
        ..., description="His machine score (an integer of any size); null: no score (forfeit)."
    )


class BoardGameOut(Schema):
    id: int = Field(..., description="The game's id.")
    number: int = Field(..., description="Its number in the match, from 1.")
    machine_id: int = Field(..., description="The machine's id.")
    machine: str = Field(..., description="The machine's title.")
    chosen_by: int | None = Field(..., description="Who chose the machine; null: drawn (R5-a).")
    confirmed: bool = Field(..., description="Its score sheet is confirmed (R3-a).")
    awaiting_confirmation: bool = Field(
        ..., description="A sheet was entered and waits for another player's confirmation."
    )
    scores: list[ScoreOut] | None = Field(
        ..., description="The confirmed scores; null until confirmed."
    )
    finishing_order: list[int] = Field(
        ..., description="Player ids, first place first (from the rules); empty until scored."
    )


class BoardGroupOut(Schema):
    id: int = Field(..., description="The group's id.")
    number: int = Field(..., description="Its number at the meet, 1 = top of the ladder.")
    players: list[PlayerRefOut] = Field(..., description="Its players in ladder order.")
    games: list[BoardGameOut] = Field(..., description="Its games so far.")
    late: list[int] = Field(..., description="Players who arrived after play began (§2.3).")
    next_picker: int | None = Field(
        ..., description="Who picks the next machine (R5-c); null when nobody picks now."
    )
    play_order: list[int] = Field(..., description="Play order of the current or next game.")
    waiting_for: list[int] = Field(
        ..., description="Players whose compensatory game the group waits for (R7.3-p)."
    )


class BoardMachineOut(Schema):
    id: int = Field(..., description="The machine's id.")
    title: str = Field(..., description="The machine's title.")
    in_use_by_group: int | None = Field(
        ..., description="The group number playing on it; null when free."
    )
    unplayable: bool = Field(..., description="Declared unplayable at this meet or out of order.")


class MeetBoardOut(Schema):
    id: int = Field(..., description="The meet's id.")
    number: int = Field(..., description="Its number in the season.")
    status: Literal["planned", "open", "closed"] = Field(..., description="The meet's status.")
    groups: list[BoardGroupOut] = Field(..., description="Its groups, top of the ladder first.")
    machines: list[BoardMachineOut] = Field(..., description="The league's machines tonight.")


class SubmissionOut(Schema):
    id: int = Field(..., description="The submission's id (confirm it by this id).")
    game_id: int = Field(..., description="The game's id.")
    version: int = Field(..., description="Version of the game's sheet, from 1.")
    entered_by: int = Field(..., description="The player who entered it.")
    confirmed_by: int | None = Field(..., description="The player who confirmed it; null: not.")
    confirmed_at: datetime.datetime | None = Field(..., description="When it was confirmed.")
    is_correction: bool = Field(..., description="A correction's sheet (§3), not an entry.")
    scores: list[ScoreOut] = Field(..., description="Every group member's machine score.")


class GameOut(Schema):
    id: int = Field(..., description="The game's id.")
    meet_id: int = Field(..., description="The meet's id.")
    group_number: int = Field(..., description="The group's number at the meet.")
    number: int = Field(..., description="The game's number in the match.")
    machine_id: int = Field(..., description="The machine's id.")
    machine: str = Field(..., description="The machine's title.")
    players: list[PlayerRefOut] = Field(..., description="The group's players, ladder order.")
    submissions: list[SubmissionOut] = Field(..., description="Every version of its sheet.")


# --- standings, history, ladder -------------------------------------------------------------


class StandingLineOut(PointsMixin):
    rank: int = Field(..., description="Place in the standings, 1 = best.")
    player: PlayerRefOut = Field(..., description="The player.")
    games_played: int = Field(..., description="Games played.")
    forfeits: int = Field(..., description="Forfeits (§2.4).")
    countable_forfeits: int = Field(..., description="Forfeits counting toward §2.5.")
    season_forfeited_at: int | None = Field(
        ..., description="The meet his season was forfeited at (R2.5-a); null: it was not."
    )
    credit_used_at: int | None = Field(
        ..., description="The meet his all-night credit was used at (R2.4-d); null: unused."
    )
    offenses: int = Field(..., description="Serious violations (§8.5).")
    eligible: bool = Field(..., description="May still enter the playoffs (A05, A37).")
    race_status: RaceStatus | None = Field(
        ..., description="Playoff race: clinched, alive or eliminated; null: no race (§6.1)."
    )
    points_to_clinch: int | None = Field(
        ..., description="League points he still needs to clinch a playoff place; null: n/a."
    )
    points_after_meet: list[float] = Field(
        ..., description="Running total after each meet (numbers, as league_points)."
    )
    points_after_meet_exact: list[str] = Field(
        ..., description="The same running totals exactly, as fractions."
    )


class StandingsOut(Schema):
    season_id: int = Field(..., description="The season's id.")
    meets_played: int = Field(..., description="Meets played (open or closed).")
    meets_left: int = Field(..., description="Regular meets not yet closed.")
    playoff_qualifiers: int | None = Field(
        ..., description="How many eligible players qualify (A05, §6.1); null below 6 players."
    )
    lines: list[StandingLineOut] = Field(..., description="Every player, best first.")


class HistoryScoreOut(Schema):
    player: PlayerRefOut = Field(..., description="A player of the group.")
    machine_score: int | None = Field(..., description="His machine score; null: no score.")


class HistoryGameOut(Schema):
    number: int = Field(..., description="The game's number in the match.")
    machine: str = Field(..., description="The machine, as the rules name it.")
    scores: list[HistoryScoreOut] = Field(..., description="Everyone's score in the game.")
    place: int | None = Field(..., description="His place; null when he did not finish.")
    points: int = Field(..., description="His game points (R3.2).")
    forfeited: bool = Field(..., description="He forfeited the game (§2.4).")
    explanation: list[str] = Field(..., description="Why he got these points, rule cited.")


class HistoryMeetOut(PointsMixin):
    meet: int = Field(..., description="The meet's number.")
    status: str = Field(..., description="His night: played, absent, in progress, ...")
    group: list[PlayerRefOut] = Field(..., description="His group.")
    games: list[HistoryGameOut] = Field(..., description="His games, every point explained.")
    match_bonus: int = Field(..., description="His match bonus points (R3.3).")
    match_bonus_explanation: list[str] = Field(..., description="Why, rule cited.")
    credit: float = Field(..., description="His §2.4 credit (a number, as league_points).")
    credit_exact: str = Field(..., pattern=EXACT, description="The credit exactly.")
    penalty_games: list[int] = Field(..., description="Games his §8.5 penalties fell on.")
    violations: list[str] = Field(..., description="Violations recorded at this meet.")
    total_after: float = Field(..., description="His season total after this meet.")
    total_after_exact: str = Field(..., pattern=EXACT, description="The total exactly.")


class PlayerHistoryOut(PointsMixin):
    player: PlayerRefOut = Field(..., description="The player.")
    meets: list[HistoryMeetOut] = Field(..., description="Every meet of his season.")


class LadderLineOut(PointsMixin):
    position: int = Field(..., description="Ladder position, 1 = top of group 1.")
    player: PlayerRefOut = Field(..., description="The player.")


class LadderOut(Schema):
    meet_number: int = Field(..., description="The next meet's number.")
    ladder: list[LadderLineOut] = Field(..., description="The ladder, top first (R4.3-c).")
    announced_absent: list[PlayerRefOut] = Field(..., description="Announced absentees.")
    groups: list[list[LadderLineOut]] = Field(..., description="The groups (R4.2-a).")
    problem: str = Field(..., description="Why no groups could be formed; empty when shown.")


# --- playoffs -------------------------------------------------------------------------------


class SeedOut(Schema):
    seed: int = Field(..., description="The seed, 1 = highest.")
    player: PlayerRefOut | None = Field(..., description="Who holds it; null: a bye.")


class PlayedGameOut(Schema):
    number: int = Field(..., description="The game's number in the match.")
    machine: str = Field(..., description="The machine's title.")
    order: list[PlayerRefOut] = Field(..., description="Finishing order, winner first.")


class GameInProgressOut(Schema):
    game_id: int = Field(..., description="The playoff game's id.")
    number: int = Field(..., description="Its number in the match.")
    machine_id: int = Field(..., description="The machine's id.")
    machine: str = Field(..., description="The machine's title.")


class TotalOut(Schema):
    player: PlayerRefOut = Field(..., description="A player of the match.")
    points: int = Field(..., description="His match points so far.")


class PlaceOut(Schema):
    place: int = Field(..., description="Final place in the division.")
    player: PlayerRefOut = Field(..., description="The player.")


class PlayoffMatchOut(Schema):
    match: str = Field(..., description="QF1, QF2, SF1, SF2 or F.")
    round: str = Field(..., description="quarterfinal, semifinal or final.")
    status: str = Field(..., description="Where the match stands.")
    needed: str = Field(..., description="What it still needs, in words.")
    players: list[PlayerRefOut] = Field(..., description="Who plays it.")
    no_shows: list[PlayerRefOut] = Field(..., description="Who did not show (R6.6-c).")
    games: list[PlayedGameOut] = Field(..., description="Its recorded games.")
    game_in_progress: GameInProgressOut | None = Field(..., description="A started game.")
    next_game: int | None = Field(..., description="The next game's number; null: none.")
    play_order: list[PlayerRefOut] = Field(..., description="Play order of the next game.")
    machine_chooser: PlayerRefOut | None = Field(
        ..., description="Who picks the next machine (R6.4-c); null: drawn at random."
    )
    totals: list[TotalOut] = Field(..., description="Match points so far.")
    tied: list[list[PlayerRefOut]] = Field(..., description="Ties waiting for a tiebreaker.")
    advancing: list[PlayerRefOut] = Field(..., description="Who advances.")
    eliminated: list[PlayerRefOut] = Field(..., description="Who is out.")
    placing: list[PlayerRefOut] = Field(..., description="The final's order, when complete.")


class DivisionOut(Schema):
    name: str = Field(..., description="The division's name.")
    bracket: int = Field(..., description="Bracket size.")
    seeds: list[SeedOut] = Field(..., description="Every seed and who holds it.")
    matches: list[PlayoffMatchOut] = Field(..., description="Its matches.")
    complete: bool = Field(..., description="Its final is complete.")
    places: list[PlaceOut] = Field(..., description="Final places once complete.")


class PlayoffsOut(Schema):
    season_id: int = Field(..., description="The season's id.")
    date: datetime.date | None = Field(..., description="The playoff night; null: not planned.")
    status: str = Field(..., description="The playoff night's status.")
    ties: list[str] = Field(..., description="Qualification ties waiting for a playoff.")
    divisions: list[DivisionOut] = Field(..., description="Each division's bracket.")


# --- machines, special rulings, treasury ----------------------------------------------------


class SheetLineOut(Schema):
    at: datetime.datetime = Field(..., description="When it was recorded.")
    what: Literal["malfunction", "declaration", "note"] = Field(..., description="Its kind.")
    text: str = Field(..., description="What happened.")
    meet: int | None = Field(..., description="The meet's number; null: outside a meet.")


class MachineOut(Schema):
    id: int = Field(..., description="The machine's id.")
    title: str = Field(..., description="The machine's title.")
    status: Literal["playable", "unplayable"] = Field(..., description="Standing status.")
    malfunctions: int = Field(..., description="Malfunctions recorded on it in league play.")
    maintenance: list[SheetLineOut] = Field(
        ..., description="Its maintenance sheet, oldest first (R7.3-u)."
    )


class MachinePage(Schema):
    results: list[MachineOut] = Field(..., description="This page's machines, by title.")
    next: str | None = Field(..., description="URL of the next page; null on the last page.")


class SpecialRulingOut(Schema):
    ruling_id: str = Field(..., description="Title and number ('Ghostbusters #1').")
    machine: str = Field(..., description="The machine title it is about.")
    kind: str = Field(
        ...,
        description="not_a_malfunction, major_malfunction, positive_malfunction or "
        "not_an_extra_ball (RA-a).",
    )
    text: str = Field(..., description="The ruling.")
    reproduction: str = Field(..., description="How to reproduce it (RA-e).")
    cause_and_effect: str = Field(..., description="Its cause and effect (RA-e).")
    version: int = Field(..., description="Version; the highest is in force.")


class SpecialRulingPage(Schema):
    results: list[SpecialRulingOut] = Field(..., description="This page's rulings.")
    next: str | None = Field(..., description="URL of the next page; null on the last page.")


class LedgerLineOut(Schema):
    id: int = Field(..., description="The entry's id.")
    on: datetime.date = Field(..., description="The day it was recorded (league time).")
    kind: str = Field(..., description="The rules' entry kind (dues_paid, kitty_in, ...).")
    account: Literal["dues", "kitty", "treasury"] = Field(..., description="The account.")
    amount_cents: int = Field(..., description="Signed cents on its account.")
    player: PlayerRefOut | None = Field(..., description="The player; null: none.")
    reason: str = Field(..., description="Reason code; empty when the kind needs none.")
    note: str = Field(..., description="The official's note.")
    reverses: int | None = Field(..., description="The entry this one reverses.")
    reversed_by: int | None = Field(..., description="The entry that reversed this one.")
    season_id: int | None = Field(..., description="The season it belongs to.")


class TreasuryOut(Schema):
    dues_cents: int = Field(..., description="Dues account balance, cents.")
    kitty_cents: int = Field(..., description="Kitty balance, cents.")
    treasury_cents: int = Field(..., description="Treasury account balance, cents.")
    total_cents: int = Field(..., description="The league's holdings (R9-e), cents.")
    entries: list[LedgerLineOut] = Field(..., description="Every entry, oldest first.")


# --- write requests and their answers -------------------------------------------------------


class InputSchema(Schema):
    """A request body: unknown fields refused, no type coerced (see the module docstring).

    A date or moment field says ``strict=False`` (JSON carries it as a string).
    """

    model_config = ConfigDict(extra="forbid", strict=True)


class _HasPlayer(Protocol):
    @property
    def player(self) -> int: ...


HasPlayer = TypeVar("HasPlayer", bound=_HasPlayer)


def each_player_once(scores: Sequence[HasPlayer]) -> Sequence[HasPlayer]:
    """Refuse a list of scores that names a player twice (else the last would silently win)."""
    seen: set[int] = set()
    for score in scores:
        if score.player in seen:
            raise ValueError(
                f"player {score.player} is listed more than once; give each player's score once"
            )
        seen.add(score.player)
    return scores


class ScoreIn(InputSchema):
    player: int = Field(..., ge=1, le=MAX_ID, description="A group member's player id.")
    machine_score: int | None = Field(
        ...,
        ge=0,
        le=MAX_MACHINE_SCORE,
        description="His machine score; null if he did not play the game (a forfeit).",
    )


class SubmitScoresIn(InputSchema):
    entered_by: int = Field(..., ge=1, le=MAX_ID, description="The player who enters the sheet.")
    scores: Annotated[list[ScoreIn], AfterValidator(each_player_once)] = Field(
        ..., max_length=8, description="Every group member's score, each player once."
    )
    tie_order: list[list[int]] = Field(
        default_factory=list,
        max_length=4,
        description="For tied scores, the one-ball playoff's order, winner first (R3.2-i).",
    )
    idempotency_key: str = Field(
        ...,
        min_length=1,
        max_length=100,
        pattern=NO_NUL,
        description="Chosen by the client for this sheet; a retry with the same key and sheet "
        "returns the stored entry, the same key with another sheet is a 409.",
    )
    note: str = Field("", max_length=1000, pattern=NO_NUL, description="A note on the sheet.")
    seen_version: int | None = Field(
        None,
        ge=0,
        le=MAX_ID,
        description="The latest version of the game's sheet the client saw (0: none yet); when "
        "another version was stored meanwhile the entry is a 409 and nothing is written. Null: "
        "not checked.",
    )


class SubmittedOut(Schema):
    submission: SubmissionOut = Field(..., description="The stored sheet.")
    points: dict[str, int] = Field(..., description="Player id -> game points (R3.2).")
    replayed: bool = Field(..., description="A retry: nothing new was written.")


class ConfirmIn(InputSchema):
    confirmed_by: int = Field(
        ..., ge=1, le=MAX_ID, description="Another player of the group who confirms (R3-a)."
    )


class StartMeetIn(InputSchema):
    number: int = Field(..., ge=1, le=1000, description="The meet's number in the season.")
    date: datetime.date | None = Field(
        None, strict=False, description="Its date; needed when the meet was not scheduled."
    )
    seed: int | None = Field(
        None, ge=0, le=MAX_ID, description="The first-machine draw seed; random when null."
    )


class StartedOut(Schema):
    meet: MeetOut = Field(..., description="The started meet.")
    warnings: list[str] = Field(..., description="The draw's warnings (A16, A61).")


class CloseMeetIn(InputSchema):
    override_reason: str | None = Field(
        None,
        max_length=2000,
        pattern=NO_NUL,
        description="Close it unfinished anyway (A52), saying why; a Ruling records it.",
    )


class ClosedOut(Schema):
    meet: MeetOut = Field(..., description="The closed meet.")
    season_forfeits: list[int] = Field(..., description="Players whose season ended here.")


class ForfeitIn(InputSchema):
    player: int = Field(..., ge=1, le=MAX_ID, description="The player who forfeits the game.")
    countable: bool = Field(True, description="Counts toward §2.5 (an LO may say not).")
    reason: Literal["absent", "late", "other"] = Field("absent", description="Why.")
    note: str = Field("", max_length=2000, pattern=NO_NUL, description="Why, in words.")


class ForfeitOut(Schema):
    id: int = Field(..., description="The forfeit's id.")
    game_id: int = Field(..., description="The game's id.")
    player_id: int = Field(..., description="The player's id.")
    countable: bool = Field(..., description="Counts toward §2.5.")
    reason: str = Field(..., description="absent, late or other.")


class LedgerIn(InputSchema):
    kind: Literal[
        "dues_paid",
        "kitty_in",
        "kitty_spend",
        "transfer_to_treasury",
        "treasury_expense",
        "interference_charge",
        "restart_charge",
    ] = Field(..., description="The kind of movement (§9).")
    account: Literal["dues", "kitty", "treasury"] = Field(..., description="The account.")
    amount_cents: int = Field(..., ge=1, le=10**12, description="Positive cents.")
    season_id: int | None = Field(
        None, ge=1, le=MAX_ID, description="The season (needed for dues_paid)."
    )
    player_id: int | None = Field(None, ge=1, le=MAX_ID, description="The player concerned.")
    reason: str = Field("", max_length=20, pattern=NO_NUL, description="The reason code.")
    note: str = Field("", max_length=2000, pattern=NO_NUL, description="A note.")


class LedgerEntryOut(Schema):
    id: int = Field(..., description="The entry's id.")
    account: str = Field(..., description="The account.")
    kind: str = Field(..., description="The stored kind (payment, charge, ...).")
    amount_cents: int = Field(..., description="Signed cents on its account.")


class RegisterIn(InputSchema):
    first_name: str = Field(
        ..., min_length=1, max_length=80, pattern=NO_NUL, description="First name."
    )
    last_name: str = Field(
        ..., min_length=1, max_length=80, pattern=NO_NUL, description="Last name."
    )
    ifpa_number: int | None = Field(None, ge=1, le=2**31 - 1, description="IFPA number.")
    ifpa_rank: int | None = Field(
        None, ge=1, le=2**31 - 1, description="IFPA rank at the season's start (R3.1-b)."
    )
    joined_at_meet: int | None = Field(
        None,
        ge=1,
        le=1000,
        description="The meet he joins at; omitted or null: the next meet not yet started "
        "(the meets before are his late-join forfeits, R2.4-f).",
    )


class ImportedOut(Schema):
    entries: list[EntryOut] = Field(..., description="The players entered, in file order.")
    created_players: list[int] = Field(..., description="Ids of players new to flipwell.")


class ImportIn(InputSchema):
    csv: str = Field(
        ...,
        max_length=1_000_000,
        pattern=NO_NUL,
        description="The roster CSV text: header first_name,last_name,ifpa_number,ifpa_rank.",
    )
