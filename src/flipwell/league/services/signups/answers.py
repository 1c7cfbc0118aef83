"""A player answers, through their personal link of the last season, whether they play in the
next (see `flipwell.league.models.signups` for the words).

Words: *open to answers* means the question stands and the season built from it, if any, has
no meet started: until its first meet starts a player may change their answer as often as
they like; each answer is kept, the latest counts.
"""

from __future__ import annotations

import datetime

from django.utils import timezone

from flipwell.league import models as m
from flipwell.league.adapters.keys import PLAYED
from flipwell.league.refusals import ConflictError, Refusal
from flipwell.league.services._protocol import Actor, league_write
from flipwell.league.services.player_links import _locked_live


def answer_next_season(
    *, link: m.PlayerLink, answer: str, received_at: datetime.datetime | None = None
) -> m.SeasonAnswer:
    """The player of `link` answers the question about the next season asked of the link's
    season: ``yes``, ``no`` or ``maybe`` (not sure), received at `received_at` (default now).

    The same answer as their latest writes nothing and returns it (a form sent twice). Side
    effects: a SeasonAnswer naming the link and an audit event ``season_call.answered`` (the
    answer and the one it replaces). Raises ValidationError for another answer
    (``unknown_answer``); ConflictError for a revoked link, no question asked of the season
    (``no_season_call``), or the first meet of the season built from it started
    (``season_started``).
    """
    if answer not in m.SeasonAnswer.Answer.values:
        raise Refusal({"answer": "Answer yes, no or not sure."}, code="unknown_answer")
    league = m.League.objects.get(seasons=link.season_id)
    with league_write(
        league=league, actor=Actor.player(), action="answer about the next season"
    ) as write:
        link = _locked_live(link)
        call = _open_call(link)
        latest = latest_answer(call, link.player)
        if latest is not None and latest.answer == answer:
            return latest
        row = m.SeasonAnswer.objects.create(
            call=call,
            player=link.player,
            answer=answer,
            answered_at=received_at or timezone.now(),
            link=link,
        )
        write.event(
            "season_call.answered",
            row,
            {
                "call": call.pk,
                "player": link.player_id,
                "answer": answer,
                "before": latest.answer if latest is not None else None,
            },
        )
    return row


def _open_call(link: m.PlayerLink) -> m.SeasonCall:
    """The question asked of the link's season, locked, while it is open to answers."""
    call = (
        m.SeasonCall.objects.select_for_update(of=("self",))
        .select_related("built")
        .filter(season=link.season_id)
        .first()
    )
    if call is None:
        raise ConflictError(
            f"No question about the season after {link.season.name} is asked yet.",
            code="no_season_call",
        )
    if call.built is not None and call.built.meets.filter(status__in=PLAYED).exists():
        raise ConflictError(
            {
                "answer": f"The first meet of {call.name} has started: your answer no longer "
                "changes. Tell a league official."
            },
            code="season_started",
        )
    return call


def latest_answer(call: m.SeasonCall, player: m.Player) -> m.SeasonAnswer | None:
    """The player's answer that counts: their latest."""
    return (
        m.SeasonAnswer.objects.filter(call=call, player=player)
        .order_by("-answered_at", "-id")
        .first()
    )
