"""A service's refusals, each with a stable code a program can tell apart.

Words:
- a *refusal* is a user's mistake a service will not write: a `Refusal` (the request itself
  is wrong: it must change to succeed) or a `ConflictError` (the league's state forbids it
  now: already done, already closed, not ready yet, or another request won). Both are
  Django ``ValidationError``s, so a console form shows their messages as before, and both
  keep their *code* (Django drops the code of a ValidationError made from a dict of fields).
- a *code* is a snake_case name of the check that refused (``meet_not_today``): the API
  answers it as the error's ``code``, 409 for a `ConflictError`, 422 for a `Refusal`
  (`flipwell.api.errors`). Each code is listed in `CODES` with its status and one line
  saying what it means; the OpenAPI document lists, for each operation, the codes of the
  services it calls (`flipwell.api.refusal_codes`).

To refuse in a service::

    raise Refusal({"machine": f"{title} is not allowed ..."}, code="machine_not_allowed")
    raise ConflictError(f"Meet {n} is closed.", code="meet_already_closed")
    with rules_edge("machine", code="machine_not_allowed"):  # a RuleError becomes a Refusal
        ...

and add the code to `CODES` (tests/api/test_refusal_codes.py fails until it is there, and
says what to add). A plain ``ValidationError`` from a service is a mistake the test refuses;
elsewhere (a model's ``full_clean``, a validator) the API answers it with the code ``invalid``.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any, NamedTuple

from django.core.exceptions import ValidationError


class Refusal(ValidationError):  # noqa: N818 (a refusal is an answer, not a failure)
    """The request itself is wrong (422): its `code` names the check that refused it.

    `message` is what a ValidationError takes: a text (about the request as a whole) or a
    dict of field -> text(s). `players`: the ids of the players it is about, when its field
    is a list of lines naming players (a sheet's ``scores``): the API then keys it on those
    lines' `part` (``scores.2.player``), a form on the list."""

    status = 422

    def __init__(
        self,
        message: Any,
        code: str,
        params: Any = None,
        *,
        players: Collection[int] = (),
        part: str = "player",
    ) -> None:
        super().__init__(message, code, params)
        self.refusal = code
        self.players = frozenset(players)
        self.part = part


class ConflictError(Refusal):
    """The league's state forbids the request now (409): it was already done (a meet already
    started or closed, an absence already recorded), it is not ready yet (an unfinished meet,
    a game not confirmed), or another request won (two confirmations, a reused key)."""

    status = 409

    @property
    def conflict(self) -> str:
        """The code (its older name)."""
        return self.refusal


class RateLimitedError(Refusal):
    """Too many requests like this one came lately (a limit per game, per machine and
    address): 429, and it may be sent again after `retry_after` seconds (the API's
    ``Retry-After``)."""

    status = 429

    def __init__(self, message: Any, code: str, params: Any = None, *, retry_after: int) -> None:
        super().__init__(message, code, params)
        self.retry_after = max(1, retry_after)

    @property
    def limit(self) -> str:
        """The code (the limit's name)."""
        return self.refusal


class Code(NamedTuple):
    status: int
    meaning: str


def _codes(status: int, meanings: dict[str, str]) -> dict[str, Code]:
    return {code: Code(status, meaning) for code, meaning in meanings.items()}


CONFLICTS = _codes(
    409,
    {
        "absence_already_recorded": "The player's absence is already recorded.",
        "already_answered": "The player already answered this correction.",
        "already_signed_up": "The newcomer has signed up for the next season already.",
        "another_meet_open": "Another meet of the season is open: close it first.",
        "compensatory_already_granted": "The player's compensatory game is already granted.",
        "compensatory_game_already_recorded": "The player's compensatory game is already recorded.",
        "compensatory_game_waiting": "A compensatory game of the group is to be played first.",
        "correction_already_decided": "The correction is already accepted or refused.",
        "correction_pending": "The game already has a correction waiting for answers.",
        "forfeit_already_non_countable": "The forfeit is already non-countable.",
        "forfeit_already_recorded": "The player's forfeit of this game is already recorded.",
        "game_already_confirmed": "The game's scores are confirmed: it is no longer in progress.",
        "game_in_progress": "A game of the match is being played: record its result first.",
        "game_not_confirmed": "The game has no confirmed scores yet.",
        "game_not_in_play": "The playoff game is not in play any more.",
        "game_photos_full": "The game has all the photos it may have.",
        "idempotency_key_reused": "The idempotency key was already used for another request.",
        "invitation_decided": "The invitation was already accepted, declined or withdrawn.",
        "invitation_expired": "The invitation expired: the official may send a new one.",
        "last_league_official": "The last league official of a league stays one.",
        "late_join_already_recorded": "The player's late arrival in this game is already recorded.",
        "lateness_already_recorded": "The player's lateness notice is already recorded.",
        "link_already_revoked": "The personal link is already revoked.",
        "link_revoked": "The personal link no longer works.",
        "machine_already_declared": "The machine is already declared so at this meet.",
        "machine_already_in_status": "The machine already has that status.",
        "match_already_started": "The playoff match has started.",
        "match_complete": "The group has played all its games.",
        "match_not_ready": "The playoff match cannot start a game now.",
        "match_players_unknown": "The playoff match's players are not known yet.",
        "meet_already_closed": "The meet is closed.",
        "meet_already_scheduled": "The meet is already scheduled.",
        "meet_already_started": "The meet has started.",
        "meet_not_closed": "The meet is not closed yet.",
        "meet_not_started": "The meet has not started.",
        "meet_not_today": "The meet's day has not come: it starts on its date, not before.",
        "meet_open": "A meet is open tonight: wait until it is closed.",
        "meet_photos_full": "The meet's photos take all the room allowed per meet.",
        "meet_start_passed": "The meet's start time has passed: tell a league official instead.",
        "meet_unfinished": "The meet's games are not all played (an override reason closes it).",
        "meets_scheduled": "Meets past the new number of meets are scheduled: cancel them first.",
        "merge_already_undone": "The merge was already undone.",
        "newer_season": "A newer season of the league exists: ask about the season after it.",
        "no_discarded_score": "The game has no discarded score to replay.",
        "no_email_address": "The player has no e-mail address for notices.",
        "no_game_in_progress": "The playoff match has no game in progress.",
        "no_meet_left": "Every meet of the season has started: none is left to join.",
        "no_playoff_night": "The season has no playoff night yet.",
        "no_season_call": "No question about the next season is asked yet.",
        "no_show_already_recorded": "The player is already a no-show in this match.",
        "no_tiebreaker_needed": "The playoff match needs no tiebreaker.",
        "overdraft": "The account does not hold that much.",
        "player_already_entered": "The player is already entered in the season.",
        "player_already_merged": "The player is already merged into another.",
        "player_already_withdrawn": "The player has already withdrawn from the playoffs.",
        "playoffs_already_started": "The playoff night has started: its bracket is fixed.",
        "playoffs_closed": "The playoff night is closed: its bracket and places are final.",
        "playoffs_not_complete": "The playoffs are not complete: no post-finals results yet.",
        "playoffs_not_over": "The playoffs are not over.",
        "recorded_as_order": "The official recorded this game as a finishing order.",
        "remedy_already_recorded": "The victim's remedy is already recorded.",
        "report_already_closed": "The machine problem report is already closed.",
        "reversal_refused": "The ledger entry is already reversed, or is a reversal.",
        "role_already_held": "The account already holds that role in the league.",
        "ruling_already_own": "The special ruling is already one of this league's.",
        "score_already_confirmed": "The player has a confirmed score in this game.",
        "scores_already_discarded": "The player's score is already discarded.",
        "scores_discarded": "The game's scores were discarded: record the replay.",
        "season_already_built": "The next season is built from this question already.",
        "season_already_public": "The season is already shown to the public.",
        "season_begun": "The league's newest season has begun: its readings are fixed.",
        "season_not_over": "The regular season is not over.",
        "season_started": "A meet of the season has started.",
        "signups_closed": "The league's sign-ups for the next season are closed.",
        "stale_version": "A newer version of the sheet replaced this one.",
        "token_already_revoked": "The API token is already revoked.",
        "waiting_for_late_player": "The match waits for a player who said they would be late.",
        "whole_group_absent": "The group was recorded absent as a whole.",
    },
)
"""The codes of `ConflictError`s (409), alphabetical."""
REFUSALS = _codes(
    422,
    {
        "absent_for_the_match": "The player is absent for the rest of the match.",
        "already_on_roster": "The newcomer played in the last season: they answer on their link.",
        "ambiguous_name": "Several players have this name and no IFPA number: give it.",
        "ball_out_of_range": "The ball is not one of the game's balls.",
        "ball_price_required": "The price of the buy-in ball is needed.",
        "bracket_refused": "The playoff bracket's rules refuse this record.",
        "chooser_required": "Say who chose the replacement, or let the official designate one.",
        "compensatory_not_granted": "The player was not granted a compensatory game in this game.",
        "compensatory_not_owed": "The rules grant no compensatory game here.",
        "control_character": "A line holds a control character (a NUL, an escape): type it again.",
        "correction_refused": "The rules of corrections refuse it.",
        "cursor_of_another_list": "The cursor belongs to another list (or other filters).",
        "cursor_unknown": "The cursor is not one the API gave: use the 'next' link as it is.",
        "cut_reason_required": "An override of the playoff cut needs a reason.",
        "date_after_today": "The date given is after today: a meet starts on its day.",
        "date_needs_reason": "The date is off the season's schedule: give a date_reason.",
        "date_refused": "The date breaks the season's schedule rules.",
        "date_required": "The meet is not scheduled yet: give its date.",
        "designation_refused": "The rules refuse this forfeit designation.",
        "different_ifpa_numbers": "The two players have different IFPA numbers.",
        "discard_players_required": "Name the players whose scores are discarded.",
        "email_required": "Give an e-mail address.",
        "email_too_long": "The e-mail address is too long.",
        "extra_balls_not_allowed": "Extra balls are given only for an event that ends the game.",
        "extra_balls_refused": "The extra balls given are not possible.",
        "forfeit_not_correctable": "The player forfeited the game: there is no score to correct.",
        "forfeited_player": "The player forfeited the game: leave their score empty.",
        "from_game_out_of_range": "The first game forfeited is not one that can be.",
        "game_of_another_group": "The game is not one of the player's group.",
        "game_price_required": "The price of the replayed game is needed.",
        "games_completed_out_of_range": "The number of completed games is not possible.",
        "idempotency_key_required": "Give the request an idempotency key.",
        "ifpa_number_taken": "The IFPA number belongs to another player.",
        "invalid_amount": "An amount is not a whole number of 0 or more.",
        "invalid_balls_per_game": "Balls per game is out of range.",
        "invalid_choice": "A value is not one of those allowed.",
        "invalid_email": "The e-mail address is not valid.",
        "invalid_forfeit_reason": "The rules refuse this reason for a forfeit.",
        "invalid_grouping": "The override groups are not a valid grouping.",
        "invalid_ifpa_figures": "The IFPA figures are not valid.",
        "invalid_ledger_entry": "The ledger entry breaks the ledger's rules.",
        "invalid_machine": "A machine's field is not valid.",
        "invalid_password": "The password is too weak.",
        "invalid_player": "A player's field is not valid.",
        "invalid_price": "The price is not valid.",
        "invalid_ranks": "Lines of the IFPA ranks file are not valid.",
        "invalid_ruleset": "A reading of the rules is not valid.",
        "invalid_score": "A score is not a whole number of 0 or more.",
        "invalid_season_file": "The season file is not valid.",
        "invalid_seed": "The seed is out of range.",
        "invalid_setting_value": "The value is not allowed for this reading.",
        "invalid_signup": "A field of the sign-up is missing or not valid.",
        "invalid_special_ruling": "The special ruling is not valid.",
        "invalid_titles": "Machine titles are taken or repeated.",
        "invalid_username": "The user name is not valid.",
        "invitee_missing": "Type the user name or e-mail address of the account to invite.",
        "invitee_too_long": "The user name or e-mail address is too long.",
        "join_refused": "The rules refuse the late player joining this game.",
        "joins_started_meet": "The meet to join at has started: join at a later one.",
        "kept_player_merged": "The player to keep is merged into another: merge into that one.",
        "leagues_scope_required": "A token of no league needs the leagues scope.",
        "machine_drawn": "Game 1 of a playoff match is on a drawn machine: choose none.",
        "machine_exists": "The league already has this machine there.",
        "machine_not_allowed": "The rules of machine choice do not allow this machine now.",
        "machine_not_in_league": "The machine is not one of this league's.",
        "machine_required": "Say which machine.",
        "malfunction_not_recordable": "The malfunction ruling cannot be recorded.",
        "malfunction_refused": "The rules refuse the malfunction as reported.",
        "meet_of_another_season": "The meet is not one of this season's.",
        "meet_out_of_sequence": "Another meet is the next to play.",
        "merged_player_has_merges": "Players are merged into this one: merge the other way.",
        "name_required": "Give a name.",
        "name_too_long": "The name is too long.",
        "next_balls_refused": "The next balls given are not possible.",
        "no_change": "The scores given are those recorded: nothing to correct.",
        "no_completed_score": "The player has no completed score on this game.",
        "no_grouping": "No grouping fits the players present: give override groups.",
        "no_late_join_forfeits": "The player joined at the first meet: no late-join forfeits.",
        "no_machine_left": "No machine is left to play or draw.",
        "no_such_meet": "The season has no meet of that number.",
        "no_such_tie": "The players are not one open tie.",
        "no_weekday": "The league night is not a day of the week.",
        "not_a_forfeit": "The player did not forfeit this game.",
        "not_absent": "The player is not recorded absent.",
        "not_an_image": "The file is not a photo flipwell can read.",
        "not_asked": "The player did not play this game.",
        "not_entered": "The player is not entered in the season.",
        "not_in_game": "The player is not in this game.",
        "not_in_group": "The player is not in the group.",
        "not_in_match": "The player does not play in this match.",
        "not_in_meet": "The player is in no group of this meet.",
        "not_joined_yet": "The player joins the season at a later meet.",
        "not_late": "The player already played tonight: not late.",
        "not_played": "The player did not play this game.",
        "not_the_picker": "Another player picks (or confirms) here.",
        "nothing_announced": "The player announced nothing to withdraw.",
        "notice_after_start": "The notice time is after the start.",
        "notice_in_future": "The notice time is in the future.",
        "notice_refused": "The rules refuse the notice's time.",
        "official_chooses": "Nobody played the previous game: the official chooses the machine.",
        "older_season": "Only a season newer than the public one can be published.",
        "order_or_scores": "Give the finishing order or the machine scores, one of them.",
        "override_groups_required": "An override reason needs override groups.",
        "override_reason_required": "The meet is closed: a change needs an override reason.",
        "own_entry": "The player who entered the sheet does not confirm it.",
        "photo_too_large": "The photo is too large.",
        "play_order_refused": "The rules refuse the group's play order.",
        "player_linked_elsewhere": "The player is linked to another official.",
        "player_not_in_league": "The player has no season in this league.",
        "player_picks": "A player picks the machine: the official does not choose it.",
        "players_required": "Choose the players.",
        "problem_required": "Say what the problem is.",
        "qualification_refused": "The rules refuse the playoff qualification.",
        "reason_required": "Say why: a reason is needed.",
        "remedy_refused": "The rules refuse this remedy.",
        "replay_players_mismatch": "Give the replay scores of exactly the players replaying.",
        "rules_refused": "The rules refuse this write.",
        "same_date": "The meet is already on that date.",
        "same_player": "The two players are the same.",
        "same_season_entries": "Both players are entered in one season: two people.",
        "scopes_required": "Give at least one scope.",
        "scores_missing": "Every player of the group needs a score or none.",
        "scores_refused": "The rules cannot score this sheet.",
        "season_facts_refused": "The season's facts with this write are refused by the rules.",
        "season_forfeited": "The player forfeited the season.",
        "season_name_taken": "The league has a season of that name.",
        "season_of_another_league": "The season is not one of this league's.",
        "season_required": "Say which season.",
        "seriousness_refused": "The seriousness ruling does not fit the violation.",
        "sheet_is_correction": "A correction's sheet is decided by answers, not confirmed.",
        "signup_not_accepted": "Only the accepted sign-ups of the question can be entered.",
        "slammer_not_allowed": "Only a slam tilt has a slammer.",
        "slug_taken": "Another league has this address.",
        "start_in_the_past": "The next season's first date is past.",
        "start_off_league_night": "The next season's first date is not on its league night.",
        "text_required": "Say what is wrong.",
        "text_too_long": "The text is too long.",
        "tie_order_recorded": "The tie's one-ball playoff is recorded in another order.",
        "tiebreaker_machine_refused": "No machine can be drawn for the tiebreaker.",
        "titles_required": "Give machine titles, one a line.",
        "unknown_answer": "Answer yes, no or maybe (not sure).",
        "unknown_division": "No playoff division of that name.",
        "unknown_entry_kind": "No ledger entry kind of that name.",
        "unknown_id": "No such thing with that id.",
        "unknown_ifpa_figure": "No IFPA figure of that name.",
        "unknown_match": "No playoff match of that name.",
        "unknown_notice_kind": "No notice kind of that name.",
        "unknown_role": "No role of that name.",
        "unknown_ruling_kind": "No ruling kind of that name.",
        "unknown_scope": "No token scope of that name.",
        "unknown_setting": "No reading of that name.",
        "unknown_status": "No machine status of that name.",
        "username_required": "Give the user name.",
        "username_taken": "An account of that name exists.",
        "victim_is_violator": "The violator is not a victim.",
        "victim_not_in_group": "The victim did not play in the violator's group.",
        "violation_refused": "The rules refuse the violation as reported.",
        "whole_group_from_game": "A whole group absent forfeits from its first unconfirmed game.",
    },
)
"""The codes of `Refusal`s (422), alphabetical."""
RATE_LIMITS = _codes(
    429,
    {
        "too_many_photos": "Too many photos sent to this game were refused in the last hour.",
        "too_many_reports": "Too many problem reports about this machine came from this "
        "address in the last hour.",
        "too_many_signups": "Too many sign-ups to this league from this address in the last hour.",
    },
)
"""The codes of `RateLimitedError`s (429), alphabetical."""
CODES: dict[str, Code] = {**CONFLICTS, **REFUSALS, **RATE_LIMITS}
"""Every code a service refuses with: its status and what it means."""
