"""The notices' e-mails in words: the league queues a notice's facts
(`flipwell.league.notices.NoticeFacts`), and this module writes its subject and body, and the
addresses it links to (`WRITER`, which the web app registers when Django starts).

Words (see also `flipwell.league.notices`):
- *body*: the template ``email/notice_<kind>.txt`` rendered with the notice's words, ending
  with the footer's link to the player's preferences for that league's notices.
- *preferences link*: ``/notices/<token>/`` (`preferences_url`), the token the league signs
  (`flipwell.league.notice_links.preferences_token`); also the e-mail's ``List-Unsubscribe``.
- *absence link*: the one-tap link of a reminder (R3.1-d): the player's personal link's page
  at the meet (`absence_link`).
- *ruling's words*: a ruling's notice comes as facts of its kind (`RulingAbout`), which
  `flipwell.web.words` puts in words (`ruling_said`).
- *why line*: a notice is plain text, so it has no fold for the rules its sentences rest on
  (as the pages' "why", templates/public/_why.html): each sentence is written without its
  bracketed rule ids (the ``plain`` filter), and the rules they cite go on one line of their
  own at the end, before the footer: ``Why: rules R7.3-h, R7.3-k.`` No other line of a notice
  names a rule. The words' sentences (a ruling's `details`) keep citing their rules in
  brackets; the templates take them apart.

Every address starts with ``settings.SITE_URL``, never with the ``Host`` a request named.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from django.conf import settings
from django.template.loader import render_to_string
from django.urls import reverse

from flipwell.league import models as m
from flipwell.league.notice_links import preferences_token
from flipwell.league.notices import (
    GameEndedFacts,
    GroupFacts,
    LateJoinFacts,
    MalfunctionFacts,
    NightFacts,
    NoticeFacts,
    NoticeWriter,
    PenaltyFacts,
    ReminderFacts,
    RestartFacts,
    RulingAbout,
    SeasonCallFacts,
    TurnRulingFacts,
    Written,
)
from flipwell.rules import fmt
from flipwell.web.templatetags.flipwell_numbers import ordinal
from flipwell.web.words import signups as signup_words
from flipwell.web.words.incidents import game_ended_notice, late_join_notice, malfunction_notice
from flipwell.web.words.turn_rulings import turn_ruling_notice
from flipwell.web.words.violations import penalty_notice, restart_notice

NIGHT_WORDS = {
    "absent_announced": "You were absent (announced), so your group was drawn without you.",
    "absent_unannounced": "You were absent without announcing it: your games were forfeits.",
    "in_progress": "Your night was still in progress when the meet closed.",
}


def count_of(number: int | Fraction, word: str, plural: str | None = None) -> str:
    """``1 point``, ``2 points``, ``19.75 points``: the number and its word, plural-correct."""
    return f"{fmt(number)} {word if number == 1 else plural or word + 's'}"


def names_list(names: Sequence[str]) -> str:
    """``Ann``, ``Ann and Ben``, ``Ann, Ben and Cat``."""
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"


def preferences_url(league_id: int, player_id: int) -> str:
    """The absolute address of a player's preferences (and unsubscribe) page for the notices
    of one league."""
    path = reverse("web:notice_preferences", args=[preferences_token(league_id, player_id)])
    return f"{settings.SITE_URL}{path}"


def absence_link(token: str, meet_number: int) -> str:
    """The one-tap absence link of a reminder: the page of the personal link with `token` at
    meet `meet_number`, absolute."""
    return f"{settings.SITE_URL}{reverse('web:me', args=[token])}#meet-{meet_number}"


def write_notice(facts: NoticeFacts) -> Written:
    """The notice's subject and body (see the module docstring)."""
    subject, words = _words(facts)
    context = {
        "player": facts.player,
        "league": facts.league,
        "season": facts.season,
        "meet": facts.meet,
        **words,
        "preferences_url": preferences_url(facts.league.pk, facts.player.pk),
    }
    # The question before a new season is a reminder of its own: no meet is set yet.
    template = "season_call" if isinstance(facts.about, SeasonCallFacts) else facts.kind
    body = render_to_string(f"email/notice_{template}.txt", context).strip() + "\n"
    return Written(subject=subject, body=body)


def _words(facts: NoticeFacts) -> tuple[str, dict[str, Any]]:
    """The subject, and the words of the body's template, of the notice's kind of facts."""
    match facts.about:
        case GroupFacts() as about:
            return _group_words(facts, about)
        case NightFacts() as about:
            return _night_words(facts, about)
        case ReminderFacts() as about:
            return _reminder_words(facts, about)
        case SeasonCallFacts() as about:
            return _season_call_words(facts, about)
        case (
            TurnRulingFacts()
            | MalfunctionFacts()
            | GameEndedFacts()
            | LateJoinFacts()
            | PenaltyFacts()
            | RestartFacts()
        ) as about:
            return _ruling_words(facts, about)


def _meet(facts: NoticeFacts) -> m.Meet:
    if facts.meet is None:
        raise ValueError(f"a {facts.kind} notice is about a meet")
    return facts.meet


def _group_words(facts: NoticeFacts, about: GroupFacts) -> tuple[str, dict[str, Any]]:
    me = str(facts.player)
    return f"{facts.league}: your group at meet {_meet(facts).number}", {
        "group": about.group,
        "position": about.position,
        "players": list(about.players),
        "others": names_list([name for name in about.players if name != me]),
        "machine": about.machine,
    }


def _night_words(facts: NoticeFacts, about: NightFacts) -> tuple[str, dict[str, Any]]:
    night, meet = about.night, _meet(facts)
    return f"{facts.league}: your night at meet {meet.number}", {
        "game_points": count_of(sum(night.game_points), "game point"),
        "games": ", ".join(str(p) for p in night.game_points),
        "match_bonus": count_of(night.match_bonus, "match bonus point"),
        "credit": count_of(night.credit, "point") if night.credit else "",
        "league_points": count_of(night.league_points, "league point"),
        "absent": NIGHT_WORDS.get(night.status, ""),
        "forfeits": count_of(night.forfeits, "forfeit") if night.forfeits else "",
        "place": ordinal(about.place),
        "of": about.of,
        "meets": count_of(meet.number, "meet"),
        "season_points": count_of(about.season_points, "league point"),
    }


def _reminder_words(facts: NoticeFacts, about: ReminderFacts) -> tuple[str, dict[str, Any]]:
    start, meet = about.start, _meet(facts)
    day = f"{start:%A} {start.day} {start:%B}"
    token = about.absence_token
    return f"{facts.league}: meet {meet.number} on {day}", {
        "when": f"{day} at {start:%H:%M}",
        "absence_link": absence_link(token, meet.number) if token else None,
    }


def _season_call_words(facts: NoticeFacts, about: SeasonCallFacts) -> tuple[str, dict[str, Any]]:
    asked = signup_words.question(about.name)
    return f"{facts.league}: {asked}", {
        "question": asked,
        "details": signup_words.details(
            weekday=about.weekday, starts_on=about.starts_on, dues_cents=about.dues_cents
        ),
        "answer_link": f"{settings.SITE_URL}{reverse('web:me', args=[about.link_token])}#next",
    }


def _ruling_words(facts: NoticeFacts, about: RulingAbout) -> tuple[str, dict[str, Any]]:
    what, details = ruling_said(about)
    return f"{facts.league}: {what}", {
        "what": what,
        "details": [line for line in details if line],
        "reason": about.reason,
    }


def ruling_said(about: RulingAbout) -> tuple[str, Sequence[str]]:
    """A ruling's notice in words: what (a few words, the subject's) and its details (one
    sentence each; an empty one is left out)."""
    match about:
        case TurnRulingFacts():
            return turn_ruling_notice(about)
        case MalfunctionFacts():
            return malfunction_notice(about)
        case GameEndedFacts():
            return game_ended_notice(about)
        case LateJoinFacts():
            return late_join_notice(about)
        case PenaltyFacts():
            return penalty_notice(about)
        case RestartFacts():
            return restart_notice(about)


WRITER = NoticeWriter(write=write_notice, preferences_url=preferences_url)
"""What the web app registers for the league to write its notices with."""
