"""The league app's models, one module per area; everything is importable from here."""

from flipwell.league.models.audit import AuditEvent
from flipwell.league.models.games import (
    CorrectionRequest,
    CorrectionResponse,
    DiscardedScore,
    Forfeit,
    Game,
    LateJoin,
    MatchAbsence,
    ScoreLine,
    ScoreSubmission,
    TieOrder,
    TieOrderPlace,
)
from flipwell.league.models.incidents import (
    CompensatoryGame,
    CompensatoryRequest,
    GameRestart,
    MachineReplacement,
    Malfunction,
    Ruling,
    VictimRemedy,
    Violation,
)
from flipwell.league.models.invitations import Invitation
from flipwell.league.models.leagues import League, LeagueOfficial
from flipwell.league.models.ledger import LedgerEntry
from flipwell.league.models.machines import (
    MAX_BALLS_PER_GAME,
    AnnouncedProblem,
    Machine,
    MachineDeclaration,
    MachineProblemReport,
    MachineRepair,
    MachineStatusChange,
    MaintenanceNote,
    SpecialRuling,
)
from flipwell.league.models.meets import AnnouncedAbsence, Group, GroupMember, LatenessNotice, Meet
from flipwell.league.models.notices import Notice, NoticeKind, NoticeSubscription
from flipwell.league.models.photos import ScorePhoto
from flipwell.league.models.player_links import PlayerLink
from flipwell.league.models.players import Player, PlayerMerge
from flipwell.league.models.playoffs import (
    PlayoffGame,
    PlayoffLatenessNotice,
    PlayoffMatch,
    PlayoffNight,
    PlayoffNoShow,
    PlayoffResult,
    PlayoffSheet,
    PlayoffSheetAnswer,
    PlayoffSheetLine,
    Qualifier,
    Tiebreaker,
    TiebreakerPlace,
    Withdrawal,
)
from flipwell.league.models.requests import IdempotencyKey
from flipwell.league.models.results import DerivedResult
from flipwell.league.models.seasons import Season, SeasonEntry, Weekday
from flipwell.league.models.signups import SeasonAnswer, SeasonCall, SignUp
from flipwell.league.models.tokens import ApiToken

__all__ = [
    "MAX_BALLS_PER_GAME",
    "AnnouncedAbsence",
    "AnnouncedProblem",
    "ApiToken",
    "AuditEvent",
    "CompensatoryGame",
    "CompensatoryRequest",
    "CorrectionRequest",
    "CorrectionResponse",
    "DerivedResult",
    "DiscardedScore",
    "Forfeit",
    "Game",
    "GameRestart",
    "Group",
    "GroupMember",
    "IdempotencyKey",
    "Invitation",
    "LateJoin",
    "LatenessNotice",
    "League",
    "LeagueOfficial",
    "LedgerEntry",
    "Machine",
    "MachineDeclaration",
    "MachineProblemReport",
    "MachineRepair",
    "MachineReplacement",
    "MachineStatusChange",
    "MaintenanceNote",
    "Malfunction",
    "MatchAbsence",
    "Meet",
    "Notice",
    "NoticeKind",
    "NoticeSubscription",
    "Player",
    "PlayerLink",
    "PlayerMerge",
    "PlayoffGame",
    "PlayoffLatenessNotice",
    "PlayoffMatch",
    "PlayoffNight",
    "PlayoffNoShow",
    "PlayoffResult",
    "PlayoffSheet",
    "PlayoffSheetAnswer",
    "PlayoffSheetLine",
    "Qualifier",
    "Ruling",
    "ScoreLine",
    "ScorePhoto",
    "ScoreSubmission",
    "Season",
    "SeasonAnswer",
    "SeasonCall",
    "SeasonEntry",
    "SignUp",
    "SpecialRuling",
    "TieOrder",
    "TieOrderPlace",
    "Tiebreaker",
    "TiebreakerPlace",
    "VictimRemedy",
    "Violation",
    "Weekday",
    "Withdrawal",
]
