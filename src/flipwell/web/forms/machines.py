"""Forms of the machines: the league's pool, and declarations and announced problems at a meet."""

from __future__ import annotations

from typing import Any

from django import forms

from flipwell.league import enums, limits
from flipwell.league.models.machines import MAX_BALLS_PER_GAME
from flipwell.league.selectors import form_rows
from flipwell.web.forms.fields import (
    LineField,
    PlayerChoices,
    number_input,
    reason_field,
    row_field,
)


def _machine(machines: PlayerChoices) -> forms.TypedChoiceField:
    """A select of the league's machines (`machines`), cleaned into the Machine."""
    return row_field("machine", machines, form_rows.machines(), label="Machine")


class MachineDeclarationForm(forms.Form):
    kind = forms.ChoiceField(label="Declare", choices=enums.DeclarationKind.choices)
    reason = reason_field()

    def __init__(self, *args: Any, machines: PlayerChoices, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["machine"] = _machine(machines)
        self.order_fields(["machine"])


class MachineProblemForm(forms.Form):
    problem = forms.CharField(
        label="Problem announced before play", max_length=limits.PROBLEM_LENGTH
    )

    def __init__(self, *args: Any, machines: PlayerChoices, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["machine"] = _machine(machines)
        self.order_fields(["machine"])


class MachineForm(forms.Form):
    title = LineField(label="Title", max_length=limits.TITLE_LENGTH)
    balls_per_game = forms.IntegerField(
        label="Balls per game",
        min_value=1,
        max_value=MAX_BALLS_PER_GAME,
        initial=3,
        widget=number_input(),
    )
    location = forms.CharField(
        label="Location",
        max_length=120,
        required=False,
        help_text="Where it stands (“back room, left”): tells two of the same title apart.",
    )


class MachinesForm(forms.Form):
    """Several machines at once (create_machines): one title a line."""

    titles = forms.CharField(
        label="Titles, one a line",
        widget=forms.Textarea(attrs={"rows": 6, "autocapitalize": "words"}),
        max_length=limits.TITLE_LENGTH * 50,
        help_text="Each line is a machine in the pool. To add a second copy of a title, add "
        "it alone above, with its location.",
    )
    balls_per_game = forms.IntegerField(
        label="Balls per game (each of them)",
        min_value=1,
        max_value=MAX_BALLS_PER_GAME,
        initial=3,
        widget=number_input(),
    )

    def clean_titles(self) -> list[str]:
        return str(self.cleaned_data["titles"]).splitlines()


class EditMachineForm(MachineForm):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        del self.fields["title"]


class MachineStatusForm(forms.Form):
    """In or out of the pool; the status is the one the machine does not have (hidden)."""

    status = forms.ChoiceField(choices=enums.MachineStatus.choices, widget=forms.HiddenInput)
    reason = reason_field("Why?", max_length=500)


class ProblemReportForm(forms.Form):
    """A player's or the venue staff's report of a problem on one machine (from its QR)."""

    text = forms.CharField(
        label="What is wrong?",
        max_length=1000,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text="Say what happens (“left flipper weak”, “ball stuck in the scoop”).",
    )
    reported_by = forms.CharField(label="Your name (optional)", max_length=80, required=False)


class MachineRepairForm(forms.Form):
    """The official records a machine repaired (record_machine_repair)."""

    note = reason_field("What was done?")

    def __init__(self, *args: Any, machines: PlayerChoices, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["machine"] = _machine(machines)
        self.order_fields(["machine"])


class CloseReportForm(forms.Form):
    """The official closes a problem report without a repair (close_machine_problem_report)."""

    reason = reason_field("Why close it?")

    def __init__(self, *args: Any, reports: PlayerChoices, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["report"] = row_field(
            "report", reports, form_rows.problem_reports(), label="Report"
        )
        self.order_fields(["report"])
