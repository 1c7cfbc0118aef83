"""What the question about the next season shows: the console's next-season page (who
answered what, who signed up), the player's personal link (their answer) and the league's
public sign-up form (see `flipwell.league.models.signups` for the words).

Words: a player's *answer* is their latest (None: not answered yet); *changes* counts the
answers they gave before it.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from flipwell.league import models as m
from flipwell.league.adapters.keys import PLAYED


@dataclass(frozen=True)
class AnswerRow:
    """One player of the last season and their answer that counts."""

    player: m.Player
    answer: str | None
    answered_at: datetime.datetime | None
    changes: int


@dataclass(frozen=True)
class CallPage:
    """The question as the console shows it: every player of the last season with their
    answer (by name), the sign-ups (oldest first) and how many gave each answer."""

    call: m.SeasonCall
    answers: tuple[AnswerRow, ...]
    signups: tuple[m.SignUp, ...]
    counts: dict[str, int]
    """How many answered yes, no, maybe; ``none``: not yet."""

    @property
    def yeses(self) -> list[int]:
        """The ids of the players who answered yes."""
        return [row.player.pk for row in self.answers if row.answer == "yes"]

    @property
    def accepted(self) -> list[m.SignUp]:
        """The sign-ups the official accepted."""
        return [s for s in self.signups if s.decision == m.SignUp.Decision.ACCEPTED]


def season_call(season: m.Season) -> m.SeasonCall | None:
    """The question asked of `season`'s players about the next season, if any."""
    return m.SeasonCall.objects.select_related("season", "built").filter(season=season).first()


def call_page(call: m.SeasonCall) -> CallPage:
    """The console's view of `call` (three queries)."""
    entries = m.SeasonEntry.objects.filter(season=call.season_id).select_related("player")
    players = sorted((e.player for e in entries), key=lambda p: (p.last_name, p.first_name, p.pk))
    latest, before = _latest_answers(call)
    rows = tuple(
        AnswerRow(
            player=player,
            answer=latest[player.pk].answer if player.pk in latest else None,
            answered_at=latest[player.pk].answered_at if player.pk in latest else None,
            changes=before.get(player.pk, 0),
        )
        for player in players
    )
    counts = dict.fromkeys((*m.SeasonAnswer.Answer.values, "none"), 0)
    for row in rows:
        counts[row.answer or "none"] += 1
    signups = tuple(call.signups.select_related("decided_by").order_by("received_at", "pk"))
    return CallPage(call=call, answers=rows, signups=signups, counts=counts)


def _latest_answers(call: m.SeasonCall) -> tuple[dict[int, m.SeasonAnswer], dict[int, int]]:
    """Each player's latest answer to `call`, and how many they gave before it (one query)."""
    latest: dict[int, m.SeasonAnswer] = {}
    before: dict[int, int] = {}
    for answer in m.SeasonAnswer.objects.filter(call=call).order_by("answered_at", "pk"):
        if answer.player_id in latest:
            before[answer.player_id] = before.get(answer.player_id, 0) + 1
        latest[answer.player_id] = answer
    return latest, before


@dataclass(frozen=True)
class LinkQuestion:
    """The question as a player's personal link shows it: the call, their answer (None: not
    yet) and when they gave it, and whether they may still answer or change it."""

    call: m.SeasonCall
    answer: str | None
    answered_at: datetime.datetime | None
    may_answer: bool


def link_question(link: m.PlayerLink) -> LinkQuestion | None:
    """The question asked of the link's season, with the link's player's answer; None when
    none is asked."""
    call = season_call(link.season)
    if call is None:
        return None
    latest = (
        m.SeasonAnswer.objects.filter(call=call, player=link.player_id)
        .order_by("-answered_at", "-pk")
        .first()
    )
    started = call.built is not None and call.built.meets.filter(status__in=PLAYED).exists()
    return LinkQuestion(
        call=call,
        answer=latest.answer if latest is not None else None,
        answered_at=latest.answered_at if latest is not None else None,
        may_answer=not started,
    )


def open_signups(league: m.League) -> m.SeasonCall | None:
    """The league's question whose public sign-up form is open, if any."""
    return (
        m.SeasonCall.objects.select_related("season")
        .filter(season__league=league, signups_open=True, built__isnull=True)
        .order_by("-asked_at", "-pk")
        .first()
    )


def league_signup(league: m.League, signup_id: int) -> m.SignUp | None:
    """The sign-up with id `signup_id` if it is one of `league`'s (another league's: None)."""
    return m.SignUp.objects.filter(pk=signup_id, call__season__league=league).first()
