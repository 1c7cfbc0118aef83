"""Django forms of the score sheet and the console, one module per resource: they parse and
check the shape of input (a number is a number, a required field is there, a choice is one
offered) and nothing more. Whether a sheet scores, a player may pick, or an override stands is
the services' call; their `ValidationError` messages are put next to the field they name
(`show_service_errors`).

Modules: `fields` (machine scores, money, player selects), `sheet` (a group's score sheet),
`corrections`, `players`, `meets` (seasons and meets), `incidents` (forfeits, malfunctions,
violations), `machines`, `playoffs`, `ifpa` (the IFPA preview), `ledger`, `notices` (a
player's e-mail notices), `rulings` (special rulings), `setup` (a new league, officials, API
tokens). Every form is importable from here.
"""

from flipwell.web.forms.corrections import (
    AnswerForm,
    ConsoleCorrectionForm,
    CorrectionAnswerForm,
    CorrectionRequestForm,
)
from flipwell.web.forms.fields import (
    MAX_SCORE,
    MoneyField,
    PlayerChoices,
    ScoreField,
    parse_machine_score,
    show_service_errors,
)
from flipwell.web.forms.ifpa import IfpaPreviewForm
from flipwell.web.forms.incidents import (
    CompensatoryGameForm,
    CompensatoryRequestForm,
    ForfeitForm,
    GamePlayerForm,
    LateJoinForm,
    MalfunctionForm,
    MatchAbsenceForm,
    NextBallsForm,
    NonCountableForm,
    OfficialMachineForm,
    SlowPlayWarningForm,
    ViolationForm,
)
from flipwell.web.forms.ledger import (
    LEDGER_KINDS,
    LEDGER_REASONS,
    LedgerEntryForm,
    ReverseEntryForm,
)
from flipwell.web.forms.machines import (
    EditMachineForm,
    MachineDeclarationForm,
    MachineForm,
    MachineProblemForm,
    MachinesForm,
    MachineStatusForm,
)
from flipwell.web.forms.meets import (
    CancelMeetForm,
    CloseMeetForm,
    LatenessForm,
    NextSeasonForm,
    RemovePhotosForm,
    RescheduleMeetForm,
    ScheduleMeetForm,
    SeasonForm,
    StartMeetForm,
    WithdrawAnnouncementForm,
    player_choice_form,
)
from flipwell.web.forms.notices import NoticeKindsForm, NoticePreferencesForm
from flipwell.web.forms.players import (
    EditPlayerForm,
    MergePlayersForm,
    PlayersCsvForm,
    RegisterPlayerForm,
    UndoMergeForm,
    csv_problems,
)
from flipwell.web.forms.playoffs import (
    MatchForm,
    NoShowForm,
    OrderForm,
    PlayoffScoresForm,
    QualifyForm,
    StartPlayoffGameForm,
    TiebreakerForm,
    WithdrawalForm,
)
from flipwell.web.forms.rulings import AmendSpecialRulingForm, SpecialRulingForm
from flipwell.web.forms.setup import (
    SCOPE_CHOICES,
    AddOfficialForm,
    IssueTokenForm,
    LinkPlayerForm,
    NewLeagueForm,
    ReadingForm,
    RevokeTokenForm,
    RoleForm,
)
from flipwell.web.forms.sheet import (
    STALE_PAGE,
    ConfirmForm,
    NextMachineForm,
    PhotoForm,
    PlayoffEntryForm,
    PlayoffStartForm,
    ScoreEntryForm,
)

__all__ = [
    "LEDGER_KINDS",
    "LEDGER_REASONS",
    "MAX_SCORE",
    "SCOPE_CHOICES",
    "STALE_PAGE",
    "AddOfficialForm",
    "AmendSpecialRulingForm",
    "AnswerForm",
    "CancelMeetForm",
    "CloseMeetForm",
    "CompensatoryGameForm",
    "CompensatoryRequestForm",
    "ConfirmForm",
    "ConsoleCorrectionForm",
    "CorrectionAnswerForm",
    "CorrectionRequestForm",
    "EditMachineForm",
    "EditPlayerForm",
    "ForfeitForm",
    "GamePlayerForm",
    "IfpaPreviewForm",
    "IssueTokenForm",
    "LateJoinForm",
    "LatenessForm",
    "LedgerEntryForm",
    "LinkPlayerForm",
    "MachineDeclarationForm",
    "MachineForm",
    "MachineProblemForm",
    "MachineStatusForm",
    "MachinesForm",
    "MalfunctionForm",
    "MatchAbsenceForm",
    "MatchForm",
    "MergePlayersForm",
    "MoneyField",
    "NewLeagueForm",
    "NextBallsForm",
    "NextMachineForm",
    "NextSeasonForm",
    "NoShowForm",
    "NonCountableForm",
    "NoticeKindsForm",
    "NoticePreferencesForm",
    "OfficialMachineForm",
    "OrderForm",
    "PhotoForm",
    "PlayerChoices",
    "PlayersCsvForm",
    "PlayoffEntryForm",
    "PlayoffScoresForm",
    "PlayoffStartForm",
    "QualifyForm",
    "ReadingForm",
    "RegisterPlayerForm",
    "RemovePhotosForm",
    "RescheduleMeetForm",
    "ReverseEntryForm",
    "RevokeTokenForm",
    "RoleForm",
    "ScheduleMeetForm",
    "ScoreEntryForm",
    "ScoreField",
    "SeasonForm",
    "SlowPlayWarningForm",
    "SpecialRulingForm",
    "StartMeetForm",
    "StartPlayoffGameForm",
    "TiebreakerForm",
    "UndoMergeForm",
    "ViolationForm",
    "WithdrawAnnouncementForm",
    "WithdrawalForm",
    "csv_problems",
    "parse_machine_score",
    "player_choice_form",
    "show_service_errors",
]
