"""The league app's models, one module per area; everything is importable from here."""

from flipwell.league.models.audit import AuditEvent
from flipwell.league.models.games import (
    CorrectionRequest,
    CorrectionResponse,
    Forfeit,
    Game,
    LateJoin,
    ScoreLine,
    ScoreSubmission,
    TieOrder,
    TieOrderPlace,
)
from flipwell.league.models.incidents import (
    CompensatoryGame,
    CompensatoryRequest,
    Malfunction,
    Ruling,
    Violation,
)
from flipwell.league.models.leagues import League, LeagueOfficial
from flipwell.league.models.ledger import LedgerEntry
from flipwell.league.models.machines import (
    MAX_BALLS_PER_GAME,
    AnnouncedProblem,
    Machine,
    MachineDeclaration,
    MaintenanceNote,
    SpecialRuling,
)
from flipwell.league.models.meets import AnnouncedAbsence, Group, GroupMember, LatenessNotice, Meet
from flipwell.league.models.players import Player
from flipwell.league.models.playoffs import (
    PlayoffGame,
    PlayoffMatch,
    PlayoffNight,
    PlayoffNoShow,
    PlayoffResult,
    Qualifier,
    Tiebreaker,
    TiebreakerPlace,
    Withdrawal,
)
from flipwell.league.models.seasons import Season, SeasonEntry, Weekday

__all__ = [
    "MAX_BALLS_PER_GAME",
    "AnnouncedAbsence",
    "AnnouncedProblem",
    "AuditEvent",
    "CompensatoryGame",
    "CompensatoryRequest",
    "CorrectionRequest",
    "CorrectionResponse",
    "Forfeit",
    "Game",
    "Group",
    "GroupMember",
    "LateJoin",
    "LatenessNotice",
    "League",
    "LeagueOfficial",
    "LedgerEntry",
    "Machine",
    "MachineDeclaration",
    "MaintenanceNote",
    "Malfunction",
    "Meet",
    "Player",
    "PlayoffGame",
    "PlayoffMatch",
    "PlayoffNight",
    "PlayoffNoShow",
    "PlayoffResult",
    "Qualifier",
    "Ruling",
    "ScoreLine",
    "ScoreSubmission",
    "Season",
    "SeasonEntry",
    "SpecialRuling",
    "TieOrder",
    "TieOrderPlace",
    "Tiebreaker",
    "TiebreakerPlace",
    "Violation",
    "Weekday",
    "Withdrawal",
]
