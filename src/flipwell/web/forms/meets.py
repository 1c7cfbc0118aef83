"""Forms of seasons and meets: a new season, the next season from one, a season cut short,
schedule, reschedule, cancel, start and close a meet, a meet's attendance. Each cleans into its
service's keyword arguments (players as rows; a reason left empty as None where the service
reads None as no reason), bar the season or meet and the actor the view adds."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Any
from zoneinfo import ZoneInfo

from django import forms

from flipwell.league import limits
from flipwell.league import models as m
from flipwell.league.selectors import form_rows, lookups
from flipwell.web.forms.fields import (
    HiddenRowField,
    MoneyField,
    PlayerChoices,
    date_input,
    player_row_field,
    reason_field,
)


class SeasonForm(forms.Form):
    name = forms.CharField(max_length=120)
    weekday = forms.TypedChoiceField(choices=m.Weekday.choices, coerce=int)
    start_time = forms.TimeField(widget=forms.TimeInput(attrs={"type": "time"}))
    number_of_meets = forms.IntegerField(
        min_value=limits.NUMBER_OF_MEETS.minimum,
        max_value=limits.NUMBER_OF_MEETS.maximum,
        help_text="The IFPA endorses a league season of at least 6 meets "
        "(https://www.ifpapinball.com/definitions/).",
    )
    dues_cents = MoneyField(label="Dues", initial="0.00")


class NextSeasonForm(forms.Form):
    """The next season from this one: its name, its league night, who is carried (every
    player ticked at first, or those who answered yes when they were asked; untick those who
    leave) and which accepted sign-ups join (`newcomers`, offered only when there are some).
    Cleans the ticks into ``leave_out``, the players not carried, and ``newcomers``, the
    sign-ups ticked."""

    name = forms.CharField(label="Name of the next season", max_length=120)
    weekday = forms.TypedChoiceField(label="League night", choices=m.Weekday.choices, coerce=int)
    carried = forms.TypedMultipleChoiceField(
        label="Players carried (untick those who leave)",
        coerce=int,
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    newcomers = forms.TypedMultipleChoiceField(
        label="Newcomers whose sign-up you accepted",
        coerce=int,
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(
        self,
        *args: Any,
        players: PlayerChoices,
        signups: PlayerChoices = (),
        carried_label: str = "",
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        carried = self.fields["carried"]
        assert isinstance(carried, forms.TypedMultipleChoiceField)
        carried.choices = list(players)
        carried.label = carried_label or carried.label
        carried.error_messages["invalid_choice"] = (
            "Only the players of this season can be carried: reload the page and tick again."
        )
        self.players = [pk for pk, _ in players]
        newcomers = self.fields["newcomers"]
        assert isinstance(newcomers, forms.TypedMultipleChoiceField)
        newcomers.choices = list(signups)
        newcomers.error_messages["invalid_choice"] = (
            "Only the accepted sign-ups can join: reload the page and tick again."
        )
        if not signups:
            del self.fields["newcomers"]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if "carried" in data:
            carried = set(data.pop("carried"))
            left = [pk for pk in self.players if pk not in carried]
            data["leave_out"] = form_rows.players_in_order(left)
        if "newcomers" in data:
            data["newcomers"] = form_rows.sign_ups_in_order(data.pop("newcomers"))
        return data


class ScheduleMeetForm(forms.Form):
    number = forms.IntegerField(
        min_value=limits.MEET_NUMBER.minimum, max_value=limits.MEET_NUMBER.maximum
    )
    date = forms.DateField(widget=date_input())
    date_reason = reason_field(
        "Why this date? (only for a date outside the season, out of order or off the league day)",
        required=False,
        empty_value=None,
    )


class RescheduleMeetForm(forms.Form):
    """Move a meet not yet started to another date, saying why (R2-a)."""

    date = forms.DateField(label="New date", widget=date_input())
    reason = reason_field("Why is it moved?")


class CancelMeetForm(forms.Form):
    """Cancel a meet not yet started, saying why: that night is not played."""

    reason = reason_field("Why is it cancelled?")


class CutSeasonForm(forms.Form):
    """A season cut short (A68): its new number of meets and why; the same fields carry the
    preview's confirmation."""

    number_of_meets = forms.IntegerField(
        label="Number of meets",
        min_value=limits.NUMBER_OF_MEETS.minimum,
        max_value=limits.NUMBER_OF_MEETS.maximum,
    )
    reason = reason_field("Why is the season cut short?")


def player_choice_form(players: PlayerChoices, label: str = "Player") -> type[forms.Form]:
    """A form with one player select, cleaned into the Player."""
    return type("PlayerForm", (forms.Form,), {"player": player_row_field(players, label)})


class LatenessForm(forms.Form):
    """A lateness notice: who will be late, and when the official was told (R2.2-a); cleans
    the time told into ``at``, the moment on the meet's day."""

    told_at = forms.TimeField(
        label="Told at",
        required=False,
        widget=forms.TimeInput(attrs={"type": "time"}),
        help_text="When you were told, on the meet's day (league time). Empty: now.",
    )

    def __init__(self, *args: Any, meet: m.Meet, players: PlayerChoices, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.meet = meet
        self.fields = {"player": player_row_field(players, "Player"), **self.fields}

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if "told_at" in data:
            data["at"] = self._told(data.pop("told_at"))
        return data

    def _told(self, told_at: datetime.time | None) -> datetime.datetime | None:
        """The moment the official was told: `told_at` on the meet's date in the league's
        time zone, or None (now)."""
        if told_at is None:
            return None
        zone = ZoneInfo(self.meet.season.league.time_zone)
        return datetime.datetime.combine(self.meet.date, told_at, tzinfo=zone)


class StartMeetForm(forms.Form):
    """Start the meet: the ladder's groups, or the official's groups with their reason.
    Cleans the group of each player into ``override_groups`` (None: the ladder's)."""

    date = forms.DateField(required=False, widget=date_input())
    date_reason = reason_field(
        "Why this date? (only for a date outside the season, out of order or off the league day)",
        required=False,
        empty_value=None,
    )
    seed = forms.IntegerField(
        label="Number for the draw (optional)",
        required=False,
        min_value=limits.SEED.minimum,
        max_value=limits.SEED.maximum,
        help_text="Leave empty for a random draw; the same number draws the same groups again.",
    )
    override_reason = reason_field(
        "Why these groups instead of the ladder's?", required=False, empty_value=None
    )

    def __init__(
        self, *args: Any, players: PlayerChoices, groups: Sequence[int], count: int, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.players = list(players)
        choices = [(str(n), f"Group {n}") for n in range(1, count + 1)]
        for (pid, name), group in zip(self.players, groups, strict=True):
            self.fields[f"group_{pid}"] = forms.TypedChoiceField(
                label=name, choices=choices, coerce=int, initial=str(group)
            )
        self.ladder_groups = list(groups)

    def group_fields(self) -> list[forms.BoundField]:
        return [self[f"group_{pid}"] for pid, _ in self.players]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.errors:
            return data
        chosen = [data.pop(f"group_{pid}") for pid, _ in self.players]
        data["override_groups"] = self._override_groups(chosen)
        return data

    def _override_groups(self, chosen: list[int]) -> list[list[m.Player]] | None:
        """The official's groups (players in ladder order), or None when unchanged."""
        if chosen == self.ladder_groups:
            return None
        rows = lookups.players_by_id(pid for pid, _ in self.players)
        groups: dict[int, list[m.Player]] = {}
        for (pid, _), group in zip(self.players, chosen, strict=True):
            groups.setdefault(group, []).append(rows[pid])
        return [groups[n] for n in sorted(groups)]


class CloseMeetForm(forms.Form):
    override_reason = reason_field(
        "Close it anyway: why? (only when unfinished)", required=False, empty_value=None
    )


class RemovePhotosForm(forms.Form):
    """Remove every photo of a closed meet (after the season, say): why."""

    reason = reason_field("Why are they removed?")


class WithdrawAnnouncementForm(forms.Form):
    """Withdraw one announcement of the attendance list: whose is hidden."""

    player = HiddenRowField("player", form_rows.players())
