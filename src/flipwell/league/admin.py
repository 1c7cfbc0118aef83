"""Django admin registration: every fact is visible; the ledger and audit log are read-only.

The admin is the officials' fallback tool, not the product's interface; it writes rows without
going through services, so it is for inspection and repair by staff only. Every change made
here gives every league and season a new revision (`RevisingAdmin`): a repair may touch any
fact, so no stored fold or page may outlive it.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from flipwell.league import models as m
from flipwell.league.services._edge import every_league_changed

SIMPLE_MODELS: list[type[Any]] = [
    m.LeagueOfficial,
    m.Invitation,
    m.SeasonEntry,
    m.MachineDeclaration,
    m.SpecialRuling,
    m.MaintenanceNote,
    m.AnnouncedAbsence,
    m.LatenessNotice,
    m.GroupMember,
    m.ScoreLine,
    m.TieOrder,
    m.TieOrderPlace,
    m.Forfeit,
    m.LateJoin,
    m.MatchAbsence,
    m.Malfunction,
    m.CompensatoryGame,
    m.Violation,
    m.Ruling,
    m.PlayoffNight,
    m.Qualifier,
    m.Withdrawal,
    m.PlayoffMatch,
    m.PlayoffGame,
    m.PlayoffResult,
    m.Tiebreaker,
    m.TiebreakerPlace,
    m.PlayoffNoShow,
    m.PlayoffSheet,
    m.PlayoffSheetLine,
    m.PlayoffSheetAnswer,
    m.AnnouncedProblem,
    m.CompensatoryRequest,
    m.CorrectionRequest,
    m.CorrectionResponse,
    m.DiscardedScore,
    m.MachineReplacement,
    m.VictimRemedy,
    m.GameRestart,
    m.PlayoffLatenessNotice,
    m.SeasonCall,
    m.SeasonAnswer,
    m.SignUp,
]


class RevisingAdmin(admin.ModelAdmin[Any]):
    """A model admin whose saves and deletions give every league and season a new revision."""

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        every_league_changed()

    def delete_model(self, request: HttpRequest, obj: Any) -> None:
        super().delete_model(request, obj)
        every_league_changed()

    def delete_queryset(self, request: HttpRequest, queryset: Any) -> None:
        super().delete_queryset(request, queryset)
        every_league_changed()

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        super().save_related(request, form, formsets, change)
        every_league_changed()


@admin.register(m.League)
class LeagueAdmin(RevisingAdmin):
    list_display = ["name", "slug", "venue", "time_zone"]
    prepopulated_fields = {"slug": ["name"]}
    search_fields = ["name", "slug"]


@admin.register(m.Player)
class PlayerAdmin(RevisingAdmin):
    list_display = ["last_name", "first_name", "ifpa_number", "merged_into"]
    search_fields = ["last_name", "first_name", "ifpa_number"]
    # A merge is recorded (who, when, why) and undone in the console, never set here.
    readonly_fields = ["merged_into"]


@admin.register(m.Season)
class SeasonAdmin(RevisingAdmin):
    list_display = ["name", "league", "weekday", "start_time", "number_of_meets", "dues_cents"]
    list_filter = ["league"]
    # A season's readings are its league's when it is created, kept from then on (R2-a); the
    # console changes them with the league's before the season begins, never here.
    readonly_fields = ["ruleset_overrides"]

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        if not change:
            obj.ruleset_overrides = dict(obj.league.ruleset_overrides)
        super().save_model(request, obj, form, change)


@admin.register(m.Machine)
class MachineAdmin(RevisingAdmin):
    list_display = ["title", "league", "balls_per_game", "status", "location"]
    list_filter = ["league", "status"]


@admin.register(m.Meet)
class MeetAdmin(RevisingAdmin):
    list_display = ["season", "number", "date", "status"]
    list_filter = ["status"]


@admin.register(m.Group)
class GroupAdmin(RevisingAdmin):
    list_display = ["meet", "number"]


@admin.register(m.Game)
class GameAdmin(RevisingAdmin):
    list_display = ["group", "number", "machine", "chosen_by"]


@admin.register(m.ScoreSubmission)
class ScoreSubmissionAdmin(RevisingAdmin):
    list_display = ["game", "version", "entered_by", "confirmed_by", "created_at"]


class AppendOnlyAdmin(RevisingAdmin):
    """Rows that are only ever inserted by services: shown, never edited or deleted here."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(m.LedgerEntry)
class LedgerEntryAdmin(AppendOnlyAdmin):
    list_display = ["created_at", "league", "account", "kind", "amount_cents", "player"]
    list_filter = ["league", "account", "kind"]


@admin.register(m.AuditEvent)
class AuditEventAdmin(AppendOnlyAdmin):
    list_display = ["created_at", "league", "actor", "action", "object_type", "object_id"]
    list_filter = ["action"]


@admin.register(m.ScorePhoto)
class ScorePhotoAdmin(AppendOnlyAdmin):
    """Score photos, read only: attached at the sheet or the API, removed by an official in
    the console (`remove_meet_photos`, recorded); the image itself is served there only."""

    list_display = ["created_at", "game", "uploaded_by", "bytes", "removed_at", "removed_by"]
    exclude = ["key", "idempotency_key", "idempotency_scope"]


@admin.register(m.PlayerMerge)
class PlayerMergeAdmin(AppendOnlyAdmin):
    """Shown for inspection; merges are made and undone in the console (with audit events)."""

    list_display = ["merged_at", "merged", "kept", "merged_by", "undone_at", "undone_by"]


@admin.register(m.ApiToken)
class ApiTokenAdmin(AppendOnlyAdmin):
    """Shown for inspection; tokens are issued and revoked in the console (with an audit event)."""

    list_display = ["league", "name", "prefix", "issued_by", "created_at", "revoked_at"]
    list_filter = ["league"]
    exclude = ["token_hash"]


@admin.register(m.PlayerLink)
class PlayerLinkAdmin(AppendOnlyAdmin):
    """Shown for inspection; links are issued and revoked in the console's roster (with an
    audit event). The key (the link's secret) and the player's email are left out."""

    list_display = ["season", "player", "created_by", "created_at", "revoked_at"]
    list_filter = ["season"]
    exclude = ["key", "email"]


@admin.register(m.DerivedResult)
class DerivedResultAdmin(AppendOnlyAdmin):
    """Stored folds, shown for inspection; computed again whenever they are missing."""

    list_display = ["scope", "revision", "computed_at"]
    exclude = ["payload"]


@admin.register(m.IdempotencyKey)
class IdempotencyKeyAdmin(AppendOnlyAdmin):
    """Writes' idempotency keys and their stored answers, shown for inspection; they expire
    after IDEMPOTENCY_KEY_HOURS."""

    list_display = ["scope", "sender", "key", "status", "created_at"]
    list_filter = ["scope"]
    exclude = ["body"]


@admin.register(m.Notice)
class NoticeAdmin(AppendOnlyAdmin):
    """The e-mail queue, shown for inspection; `flipwell work` sends and retries it."""

    list_display = ["league", "player", "kind", "state", "attempts", "created_at", "sent_at"]
    list_filter = ["state", "kind", "league"]


@admin.register(m.NoticeSubscription)
class NoticeSubscriptionAdmin(RevisingAdmin):
    """A player's address and chosen notices (the console and the player's link set them)."""

    list_display = [
        "player",
        "league",
        "email",
        "groups",
        "results",
        "reminder",
        "ruling",
        "unsubscribed_at",
    ]


for model in SIMPLE_MODELS:
    admin.site.register(model, RevisingAdmin)


@admin.register(m.MachineStatusChange)
class MachineStatusChangeAdmin(AppendOnlyAdmin):
    """A machine's status changes (who, when, why), read only: made in the console."""

    list_display = ["created_at", "machine", "previous", "status", "official"]
    list_filter = ["status"]


@admin.register(m.MachineRepair)
class MachineRepairAdmin(AppendOnlyAdmin):
    """A machine's repairs, read only: recorded in the console or the API."""

    list_display = ["created_at", "machine", "meet", "official"]


@admin.register(m.MachineProblemReport)
class MachineProblemReportAdmin(AppendOnlyAdmin):
    """Problems reported from a machine's QR code, read only: closed in the console (who,
    when, why). The address is kept only as a keyed hash, and not shown."""

    list_display = ["reported_at", "machine", "reported_by", "closed_at", "closed_by"]
    exclude = ["address_hash"]
