"""Forms of seasons and meets: a new season, the next season from one, schedule, reschedule,
cancel, start and close a meet."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Any
from zoneinfo import ZoneInfo

from django import forms

from flipwell.league import limits
from flipwell.league import models as m
from flipwell.web.forms.fields import (
    MoneyField,
    PlayerChoices,
    date_input,
    player_field,
    reason_field,
)


class SeasonForm(forms.Form):
    name = forms.CharField(max_length=120)
    weekday = forms.TypedChoiceField(choices=m.Weekday.choices, coerce=int)
    start_time = forms.TimeField(widget=forms.TimeInput(attrs={"type": "time"}))
    number_of_meets = forms.IntegerField(
        min_value=limits.NUMBER_OF_MEETS.minimum, max_value=limits.NUMBER_OF_MEETS.maximum
    )
    dues_cents = MoneyField(label="Dues", initial="0.00")


class NextSeasonForm(forms.Form):
    """The next season from this one: its name, its league night, and who is carried (every
    player ticked at first; untick those who leave)."""

    name = forms.CharField(label="Name of the next season", max_length=120)
    weekday = forms.TypedChoiceField(label="League night", choices=m.Weekday.choices, coerce=int)
    carried = forms.TypedMultipleChoiceField(
        label="Players carried (untick those who leave)",
        coerce=int,
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, *args: Any, players: PlayerChoices, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        carried = self.fields["carried"]
        assert isinstance(carried, forms.TypedMultipleChoiceField)
        carried.choices = list(players)
        carried.error_messages["invalid_choice"] = (
            "Only the players of this season can be carried: reload the page and tick again."
        )


class ScheduleMeetForm(forms.Form):
    number = forms.IntegerField(
        min_value=limits.MEET_NUMBER.minimum, max_value=limits.MEET_NUMBER.maximum
    )
    date = forms.DateField(widget=date_input())
    date_reason = reason_field(
        "Why this date? (only for a date outside the season, out of order or off the league day)",
        required=False,
    )


class RescheduleMeetForm(forms.Form):
    """Move a meet not yet started to another date, saying why (R2-a)."""

    date = forms.DateField(label="New date", widget=date_input())
    reason = reason_field("Why is it moved?")


class CancelMeetForm(forms.Form):
    """Cancel a meet not yet started, saying why: that night is not played."""

    reason = reason_field("Why is it cancelled?")


def player_choice_form(players: PlayerChoices, label: str = "Player") -> type[forms.Form]:
    """A form with one player select."""
    return type("PlayerForm", (forms.Form,), {"player": player_field(players, label)})


class LatenessForm(forms.Form):
    """A lateness notice: who will be late, and when the official was told (R2.2-a)."""

    told_at = forms.TimeField(
        label="Told at",
        required=False,
        widget=forms.TimeInput(attrs={"type": "time"}),
        help_text="When you were told, on the meet's day (league time). Empty: now.",
    )

    def __init__(self, *args: Any, players: PlayerChoices, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields = {"player": player_field(players, "Player"), **self.fields}

    def told(self, meet: m.Meet) -> datetime.datetime | None:
        """The moment the official was told: `told_at` on the meet's date in the league's
        time zone, or None (now)."""
        told_at: datetime.time | None = self.cleaned_data["told_at"]
        if told_at is None:
            return None
        zone = ZoneInfo(meet.season.league.time_zone)
        return datetime.datetime.combine(meet.date, told_at, tzinfo=zone)


class StartMeetForm(forms.Form):
    """Start the meet: the ladder's groups, or the official's groups with his reason."""

    date = forms.DateField(required=False, widget=date_input())
    date_reason = reason_field(
        "Why this date? (only for a date outside the season, out of order or off the league day)",
        required=False,
    )
    seed = forms.IntegerField(
        label="Number for the draw (optional)",
        required=False,
        min_value=limits.SEED.minimum,
        max_value=limits.SEED.maximum,
        help_text="Leave empty for a random draw; the same number draws the same groups again.",
    )
    override_reason = reason_field("Why these groups instead of the ladder's?", required=False)

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

    def override_groups(self) -> list[list[int]] | None:
        """The official's groups (players in ladder order), or None when unchanged."""
        chosen = [self.cleaned_data[f"group_{pid}"] for pid, _ in self.players]
        if chosen == self.ladder_groups:
            return None
        groups: dict[int, list[int]] = {}
        for (pid, _), group in zip(self.players, chosen, strict=True):
            groups.setdefault(group, []).append(pid)
        return [groups[n] for n in sorted(groups)]


class CloseMeetForm(forms.Form):
    override_reason = reason_field("Close it anyway: why? (only when unfinished)", required=False)


class WithdrawAnnouncementForm(forms.Form):
    """Withdraw one announcement of the attendance list: whose is hidden."""

    player = forms.IntegerField(widget=forms.HiddenInput, min_value=1)
