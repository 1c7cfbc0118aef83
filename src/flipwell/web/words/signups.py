"""The question about the next season in words, as the personal link, the public sign-up
form, the console and the e-mail put it (`flipwell.league.models.signups`).

Words: the *question* is "Playing in <season>?"; its *details* say the league night, the
first date and the dues ("Thursdays from Thu 7 Jan 2027; dues 40.00.").
"""

from __future__ import annotations

import datetime

from flipwell.league import models as m
from flipwell.web.formatting import money

ANSWERS = {"yes": "Yes", "no": "No", "maybe": "Not sure"}
"""Each answer as the buttons and the tables say it."""
ANSWERED = {
    "yes": "you play",
    "no": "you do not play",
    "maybe": "you are not sure yet",
}
"""Each answer as the player's page tells it back."""


def question(name: str) -> str:
    """ "Playing in Summer 2026?" """
    return f"Playing in {name}?"


def day(date: datetime.date) -> str:
    """ "Thu 7 Jan 2027" """
    return f"{date:%a} {date.day} {date:%b %Y}"


def details(*, weekday: int, starts_on: datetime.date, dues_cents: int) -> str:
    """The league night, first date and dues in one sentence."""
    night = m.Weekday(weekday).label
    dues = f"dues {money(dues_cents)}" if dues_cents else "no dues"
    return f"{night}s from {day(starts_on)}; {dues}."


def call_details(call: m.SeasonCall) -> str:
    """`details` of a question."""
    return details(weekday=call.weekday, starts_on=call.starts_on, dues_cents=call.dues_cents)
