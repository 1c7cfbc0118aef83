"""Services: one use case per function, the only code that writes league data.

Each service takes keyword-only, typed arguments and writes through the one write protocol
(``_protocol``: `league_write`, `official_write` for an official), whoever acts (an official,
a scorekeeper, a player through a sheet or a link, an account, an API token): one
transaction, in the order lock, check, facts, rulings, refold, audit, notices (a test fails on
a service that opens its own ``transaction.atomic``). A user's mistake raises a `Refusal` (the
request is wrong) or a `ConflictError` (the league's state forbids it now), both Django
``ValidationError``s, naming the field and what is allowed, with a stable ``code=`` naming the
check, listed in `flipwell.league.refusals.CODES` (see that module; a test walks every
refusal here); nothing is then written. Every number they show is computed by
`flipwell.rules` from the stored facts. A write that can change a number names its season:
the protocol folds it once at the end (`season_changed` in ``_edge``), so a write whose facts
the rules reject rolls back instead of breaking the season's pages; a write that cannot change
a number names none and folds nothing. Read helpers live in `flipwell.league.selectors`.

=====================  ===========================================================
leagues, seasons       create_league, change_ruleset_setting, change_ifpa_figure, create_season,
                       change_season_schedule, start_next_season, publish_season,
                       refresh_ifpa_ranks, import_season_file;
                       season_length: cut_season (a season cut short, A68)
players                register_player, import_players_csv, edit_player
identity               check_merge_players, merge_players, undo_player_merge
meets/                 schedule: schedule_meet, reschedule_meet, cancel_meet;
                       announcements: announce_absence, announce_lateness,
                       withdraw_announcement; start: start_meet; close: close_meet
meet_machines/         next_machine: choose_next_machine, official_chooses_next_machine;
                       declarations: announce_machine_problem, declare_machine_unplayable,
                       declare_machine_repaired; replacement: replace_machine
machine_care           report_machine_problem (public), close_machine_problem_report,
                       record_machine_repair
match_absences         record_match_absence, withdraw_match_absence
scores/                entry: submit_scores; confirmation: confirm_scores;
                       (sheet_checks, sheet_points: what they share)
corrections/           request: request_correction; answer: respond_to_correction;
                       (proposal: the proposed sheet and its claims)
photos                 attach_photo, remove_meet_photos
forfeits               record_forfeit, designate_forfeit_non_countable, record_late_join,
                       designate_late_join_forfeits
malfunctions/          report: report_malfunction (game_ending: preview_game_ending
                       first for a reason that ends the game); compensatory:
                       request_compensatory_game, record_compensatory_game;
                       discarded_scores: record_positive_malfunction_replay,
                       record_replay_scores
violations/            penalties: record_violation; remedies: record_victim_remedy;
                       restarts: record_game_restart
turn_rulings           record_turn_ruling (a slow-play warning, ...: the kinds are
                       flipwell.league.turn_rulings.KINDS)
playoffs               qualify_for_playoffs, record_seed_playoff, record_withdrawal,
                       close_playoff_night
playoff_matches        start_playoff_game, record_playoff_game, record_playoff_tiebreaker,
                       record_playoff_lateness_notice, record_no_show
playoff_sheets/        game_start: start_playoff_game_on_sheet; entry:
                       submit_playoff_scores; confirmation: confirm_playoff_scores;
                       corrections: request_playoff_correction, answer_playoff_correction
                       (a match's sheet: no actor, its link; match_sheet: what they share)
ledger                 record_ledger_entry, reverse_ledger_entry
special rulings        load_appendix_a, add_special_ruling, amend_special_ruling,
                       copy_special_ruling
notices                set_notice_preferences, choose_notices_by_link, unsubscribe_by_link
setup                  create_league_opener, (may_create_league, league_openers: selectors.setup)
                       open_league, create_machine, create_machines, update_machine,
                       set_machine_status, change_official_role, remove_official,
                       link_official_player
invitations            invite_official, withdraw_invitation, accept_invitation,
                       decline_invitation
tokens                 issue_api_token, revoke_api_token
player_links           issue_player_link, issue_player_links, revoke_player_link,
                       set_player_link_email,
                       announce_absence_by_link, announce_lateness_by_link,
                       withdraw_announcement_by_link
signups/               calls: ask_next_season, set_signups_open; answers:
                       answer_next_season (a player's link); newcomers: sign_up
                       (public), accept_signup, refuse_signup (entered by
                       start_next_season)
=====================  ===========================================================
"""

from flipwell.league.refusals import ConflictError, RateLimitedError, Refusal
from flipwell.league.services.corrections.answer import respond_to_correction
from flipwell.league.services.corrections.request import request_correction
from flipwell.league.services.forfeits import (
    designate_forfeit_non_countable,
    designate_late_join_forfeits,
    record_forfeit,
    record_late_join,
)
from flipwell.league.services.identity import (
    check_merge_players,
    merge_players,
    undo_player_merge,
)
from flipwell.league.services.invitations import (
    accept_invitation,
    decline_invitation,
    invite_official,
    withdraw_invitation,
)
from flipwell.league.services.leagues import (
    change_ifpa_figure,
    change_ruleset_setting,
    create_league,
)
from flipwell.league.services.ledger import record_ledger_entry, reverse_ledger_entry
from flipwell.league.services.machine_care import (
    close_machine_problem_report,
    record_machine_repair,
    report_machine_problem,
)
from flipwell.league.services.malfunctions.compensatory import (
    record_compensatory_game,
    request_compensatory_game,
)
from flipwell.league.services.malfunctions.discarded_scores import (
    record_positive_malfunction_replay,
    record_replay_scores,
)
from flipwell.league.services.malfunctions.game_ending import preview_game_ending
from flipwell.league.services.malfunctions.report import report_malfunction
from flipwell.league.services.match_absences import (
    record_match_absence,
    withdraw_match_absence,
)
from flipwell.league.services.meet_machines.declarations import (
    announce_machine_problem,
    declare_machine_repaired,
    declare_machine_unplayable,
)
from flipwell.league.services.meet_machines.next_machine import (
    choose_next_machine,
    official_chooses_next_machine,
)
from flipwell.league.services.meet_machines.replacement import replace_machine
from flipwell.league.services.meets.announcements import (
    announce_absence,
    announce_lateness,
    withdraw_announcement,
)
from flipwell.league.services.meets.close import close_meet
from flipwell.league.services.meets.schedule import cancel_meet, reschedule_meet, schedule_meet
from flipwell.league.services.meets.start import start_meet
from flipwell.league.services.notices import (
    choose_notices_by_link,
    set_notice_preferences,
    unsubscribe_by_link,
)
from flipwell.league.services.photos import attach_photo, remove_meet_photos
from flipwell.league.services.player_links import (
    announce_absence_by_link,
    announce_lateness_by_link,
    issue_player_link,
    issue_player_links,
    revoke_player_link,
    set_player_link_email,
    withdraw_announcement_by_link,
)
from flipwell.league.services.players.editing import edit_player
from flipwell.league.services.players.registration import register_player
from flipwell.league.services.players.roster_import import ImportResult, import_players_csv
from flipwell.league.services.playoff_matches.games import (
    record_playoff_game,
    start_playoff_game,
)
from flipwell.league.services.playoff_matches.missing_players import (
    record_no_show,
    record_playoff_lateness_notice,
)
from flipwell.league.services.playoff_matches.tiebreakers import record_playoff_tiebreaker
from flipwell.league.services.playoff_sheets.confirmation import confirm_playoff_scores
from flipwell.league.services.playoff_sheets.corrections import (
    answer_playoff_correction,
    request_playoff_correction,
)
from flipwell.league.services.playoff_sheets.entry import submit_playoff_scores
from flipwell.league.services.playoff_sheets.game_start import start_playoff_game_on_sheet
from flipwell.league.services.playoffs import (
    close_playoff_night,
    qualify_for_playoffs,
    record_seed_playoff,
    record_withdrawal,
)
from flipwell.league.services.scores.confirmation import confirm_scores
from flipwell.league.services.scores.entry import submit_scores
from flipwell.league.services.season_files import import_season_file
from flipwell.league.services.season_length import CutSeason, cut_season
from flipwell.league.services.seasons import (
    RankRefresh,
    change_season_schedule,
    create_season,
    publish_season,
    refresh_ifpa_ranks,
    start_next_season,
)
from flipwell.league.services.setup.league_openers import (
    create_league_opener,
    open_league,
)
from flipwell.league.services.setup.machine_pool import (
    create_machine,
    create_machines,
    set_machine_status,
    update_machine,
)
from flipwell.league.services.setup.officials import (
    change_official_role,
    link_official_player,
    remove_official,
)
from flipwell.league.services.signups.answers import answer_next_season
from flipwell.league.services.signups.calls import ask_next_season, set_signups_open
from flipwell.league.services.signups.newcomers import accept_signup, refuse_signup, sign_up
from flipwell.league.services.special_rulings import (
    add_special_ruling,
    amend_special_ruling,
    copy_special_ruling,
    load_appendix_a,
)
from flipwell.league.services.tokens import (
    issue_api_token,
    revoke_api_token,
)
from flipwell.league.services.turn_rulings import record_turn_ruling
from flipwell.league.services.violations.penalties import record_violation
from flipwell.league.services.violations.remedies import record_victim_remedy
from flipwell.league.services.violations.restarts import record_game_restart

__all__ = [
    "ConflictError",
    "CutSeason",
    "ImportResult",
    "RankRefresh",
    "RateLimitedError",
    "Refusal",
    "accept_invitation",
    "accept_signup",
    "add_special_ruling",
    "amend_special_ruling",
    "announce_absence",
    "announce_absence_by_link",
    "announce_lateness",
    "announce_lateness_by_link",
    "announce_machine_problem",
    "answer_next_season",
    "answer_playoff_correction",
    "ask_next_season",
    "attach_photo",
    "cancel_meet",
    "change_ifpa_figure",
    "change_official_role",
    "change_ruleset_setting",
    "change_season_schedule",
    "check_merge_players",
    "choose_next_machine",
    "choose_notices_by_link",
    "close_machine_problem_report",
    "close_meet",
    "close_playoff_night",
    "confirm_playoff_scores",
    "confirm_scores",
    "copy_special_ruling",
    "create_league",
    "create_league_opener",
    "create_machine",
    "create_machines",
    "create_season",
    "cut_season",
    "declare_machine_repaired",
    "declare_machine_unplayable",
    "decline_invitation",
    "designate_forfeit_non_countable",
    "designate_late_join_forfeits",
    "edit_player",
    "import_players_csv",
    "import_season_file",
    "invite_official",
    "issue_api_token",
    "issue_player_link",
    "issue_player_links",
    "link_official_player",
    "load_appendix_a",
    "merge_players",
    "official_chooses_next_machine",
    "open_league",
    "preview_game_ending",
    "publish_season",
    "qualify_for_playoffs",
    "record_compensatory_game",
    "record_forfeit",
    "record_game_restart",
    "record_late_join",
    "record_ledger_entry",
    "record_machine_repair",
    "record_match_absence",
    "record_no_show",
    "record_playoff_game",
    "record_playoff_lateness_notice",
    "record_playoff_tiebreaker",
    "record_positive_malfunction_replay",
    "record_replay_scores",
    "record_seed_playoff",
    "record_turn_ruling",
    "record_victim_remedy",
    "record_violation",
    "record_withdrawal",
    "refresh_ifpa_ranks",
    "refuse_signup",
    "register_player",
    "remove_meet_photos",
    "remove_official",
    "replace_machine",
    "report_machine_problem",
    "report_malfunction",
    "request_compensatory_game",
    "request_correction",
    "request_playoff_correction",
    "reschedule_meet",
    "respond_to_correction",
    "reverse_ledger_entry",
    "revoke_api_token",
    "revoke_player_link",
    "schedule_meet",
    "set_machine_status",
    "set_notice_preferences",
    "set_player_link_email",
    "set_signups_open",
    "sign_up",
    "start_meet",
    "start_next_season",
    "start_playoff_game",
    "start_playoff_game_on_sheet",
    "submit_playoff_scores",
    "submit_scores",
    "undo_player_merge",
    "unsubscribe_by_link",
    "update_machine",
    "withdraw_announcement",
    "withdraw_announcement_by_link",
    "withdraw_invitation",
    "withdraw_match_absence",
]
