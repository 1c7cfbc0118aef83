"""Newcomers sign up for the next season from the league's public form; the official accepts
or refuses each; the accepted are entered when the season is built (see
`flipwell.league.models.signups` for the words).

Words:
- *the roster's rules*: a sign-up names someone new to the last season (its players answer on
  their personal link), once per question, with an IFPA number that is not another person's,
  and a name the league can tell apart (as a roster line, `players.recognition`).
- *address hash*: a keyed hash of the sender's client address (the web layer makes it): one
  address's sign-ups to one league are counted in the shared cache
  (`flipwell.league.rate_limits`), at most `SIGNUPS_PER_HOUR` an hour.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.utils import timezone

from flipwell.league import limits
from flipwell.league import models as m
from flipwell.league.players_csv import PlayerRow
from flipwell.league.rate_limits import count, seconds_left
from flipwell.league.refusals import ConflictError, RateLimitedError, Refusal
from flipwell.league.services._edge import require_reason
from flipwell.league.services._protocol import Actor, Write, league_write, official_write
from flipwell.league.services.players.recognition import already_entered
from flipwell.league.services.players.roster_import import _KnownPlayers
from flipwell.league.services.signups.calls import refuse_built
from flipwell.league.validators import clean_lines, line_key

if TYPE_CHECKING:
    from django.contrib.auth.models import User

SIGNUPS_PER_HOUR = 10
"""Sign-ups one address may send one league in an hour (the form is public)."""
WINDOW = 3600
EMAIL_LENGTH = 254


def sign_up(
    *,
    league: m.League,
    first_name: str,
    last_name: str,
    email: str,
    ifpa_number: int | None = None,
    address_hash: str = "",
) -> m.SignUp:
    """A newcomer signs up for the next season of `league` from its public form, open while
    an official has opened its sign-ups (`set_signups_open`).

    The same sign-up sent again (a double tap) returns the one kept. Side effects: a SignUp
    and an audit event ``signup.received`` (no actor; the address stays out of it). Raises
    ValidationError, keyed by field, for a name or address missing, too long or not one, an
    IFPA number out of range or another person's, a player of the last season (they answer
    on their personal link) or a name the league cannot tell apart; ConflictError when the
    sign-ups are closed (``signups_closed``) or the newcomer has signed up already
    (``already_signed_up``); RateLimitedError ``too_many_signups``.
    """
    row = _checked_fields(first_name, last_name, email, ifpa_number)
    with league_write(
        league=league, actor=Actor.player(), action="sign up for the next season"
    ) as write:
        call = _open_call(league)
        sent = _sent_again(call, row, email.strip())
        if sent is not None:
            return sent
        _check_rate(league, address_hash)
        _check_roster(call, row)
        signup = m.SignUp(
            call=call,
            first_name=row.first_name,
            last_name=row.last_name,
            email=email.strip(),
            ifpa_number=row.ifpa_number,
            address_hash=address_hash,
        )
        signup.full_clean()
        signup.save()
        shown = {"first_name": row.first_name, "last_name": row.last_name}
        write.event("signup.received", signup, {**shown, "ifpa_number": row.ifpa_number})
    return signup


def _checked_fields(
    first_name: str, last_name: str, email: str, ifpa_number: int | None
) -> PlayerRow:
    """The sign-up's name and number as a roster line, each field checked with what is
    wrong with it (all at once)."""
    errors: dict[str, str] = {}
    named = clean_lines(first_name=first_name, last_name=last_name)
    for field, what in (("first_name", "first name"), ("last_name", "last name")):
        if not named[field]:
            errors[field] = f"Give your {what}."
        elif len(named[field]) > limits.NAME_LENGTH:
            errors[field] = f"A {what} has at most {limits.NAME_LENGTH} characters."
    address = email.strip()
    try:
        validate_email(address)
    except ValidationError:
        errors["email"] = (
            f"{address!r} is not an e-mail address (like name@example.org)."
            if address
            else "Give your e-mail address: the league official answers there."
        )
    if len(address) > EMAIL_LENGTH:
        errors["email"] = "This e-mail address is too long."
    bound = limits.IFPA
    if ifpa_number is not None and not bound.minimum <= ifpa_number <= bound.maximum:
        errors["ifpa_number"] = "An IFPA number is a whole number from 1 (as on your IFPA page)."
    if errors:
        raise Refusal(errors, code="invalid_signup")
    return PlayerRow(
        line=1,
        first_name=named["first_name"],
        last_name=named["last_name"],
        ifpa_number=ifpa_number,
        ifpa_rank=None,
    )


def _open_call(league: m.League) -> m.SeasonCall:
    """The league's question whose sign-ups are open, locked; ConflictError when none is."""
    call = (
        m.SeasonCall.objects.select_for_update()
        .select_related("season")
        .filter(season__league=league, signups_open=True, built__isnull=True)
        .order_by("-asked_at", "-id")
        .first()
    )
    if call is None:
        raise ConflictError(
            f"Sign-ups for {league.name} are closed: ask a league official.",
            code="signups_closed",
        )
    return call


def _sent_again(call: m.SeasonCall, row: PlayerRow, email: str) -> m.SignUp | None:
    """The sign-up kept for this name, address and number, unless refused."""
    return (
        m.SignUp.objects.filter(
            call=call,
            first_name__iexact=row.first_name,
            last_name__iexact=row.last_name,
            email__iexact=email,
            ifpa_number=row.ifpa_number,
        )
        .exclude(decision=m.SignUp.Decision.REFUSED)
        .first()
    )


def _check_rate(league: m.League, address_hash: str) -> None:
    """Refuse the sign-up of an address that sent `SIGNUPS_PER_HOUR` to `league` this hour."""
    if not address_hash:
        return
    if count("signup", league.pk, address_hash, window=WINDOW) > SIGNUPS_PER_HOUR:
        raise RateLimitedError(
            {"last_name": "Too many sign-ups from here in the last hour: try again later."},
            code="too_many_signups",
            retry_after=seconds_left(WINDOW),
        )


def _check_roster(call: m.SeasonCall, row: PlayerRow) -> None:
    """The roster's rules (module words), on the sign-up's line."""
    name = (line_key(row.first_name), line_key(row.last_name))
    last = call.season
    for entry in m.SeasonEntry.objects.filter(season=last).select_related("player"):
        player = entry.player
        same_name = (line_key(player.first_name), line_key(player.last_name)) == name
        if same_name or (row.ifpa_number is not None and player.ifpa_number == row.ifpa_number):
            field = "last_name" if same_name else "ifpa_number"
            raise Refusal(
                {
                    field: f"{player} played in {last.name}: answer on your personal link, "
                    "or ask a league official for it."
                },
                code="already_on_roster",
            )
    for other in call.signups.exclude(decision=m.SignUp.Decision.REFUSED):
        same_name = (line_key(other.first_name), line_key(other.last_name)) == name
        if same_name or (row.ifpa_number is not None and other.ifpa_number == row.ifpa_number):
            raise ConflictError(
                {
                    "last_name" if same_name else "ifpa_number": f"{other.first_name} "
                    f"{other.last_name} has signed up for {call.name} already: the league "
                    "official answers by e-mail."
                },
                code="already_signed_up",
            )
    _KnownPlayers([row], last.league).find_or_plan(row)  # a number or a name taken


def accept_signup(*, signup: m.SignUp, actor: User) -> m.SignUp:
    """The official accepts a newcomer's sign-up: they are entered in the next season when it
    is built (ticked first on its page). Accepting one accepted writes nothing; a refused one
    may be accepted after all until the season is built.

    Side effects: the decision (who, when) and an audit event ``signup.accepted``. Raises
    PermissionDenied unless `actor` is a league official of the league; ConflictError
    ``season_already_built`` once the season is built from the question.
    """
    return _decide(signup, m.SignUp.Decision.ACCEPTED, "", actor)


def refuse_signup(*, signup: m.SignUp, reason: str, actor: User) -> m.SignUp:
    """The official refuses a newcomer's sign-up, saying why (kept with who and when).
    Refusing one refused writes nothing; an accepted one may be refused until the season is
    built.

    Side effects: the decision and an audit event ``signup.refused`` with the reason. Raises
    PermissionDenied unless `actor` is a league official of the league; ValidationError
    without a reason; ConflictError ``season_already_built``.
    """
    return _decide(signup, m.SignUp.Decision.REFUSED, reason, actor)


def _decide(signup: m.SignUp, decision: str, reason: str, actor: User) -> m.SignUp:
    league = m.League.objects.get(seasons__call__signups=signup)
    with official_write(league=league, actor=actor, action="answer a sign-up") as write:
        signup = m.SignUp.objects.select_for_update().select_related("call").get(pk=signup.pk)
        why = (
            require_reason(reason, field="reason", what="Refusing a sign-up")
            if decision == m.SignUp.Decision.REFUSED
            else ""
        )
        if signup.decision == decision:
            return signup
        refuse_built(signup.call)
        before = signup.decision or None
        signup.decision, signup.reason = decision, why
        signup.decided_at, signup.decided_by = timezone.now(), actor
        signup.save(update_fields=["decision", "reason", "decided_at", "decided_by"])
        data = {"call": signup.call_id, "before": before, "reason": why}
        write.event(f"signup.{decision}", signup, data)
    return signup


def enter_newcomers(
    write: Write, *, call: m.SeasonCall, season: m.Season, newcomers: Iterable[m.SignUp]
) -> list[m.SeasonEntry]:
    """Enter the accepted sign-ups `newcomers` of `call` in `season`, the season built from
    it, at meet 1 unranked until the official refreshes the ranks (R3.1-b), recognised as
    roster lines are (`players.recognition`), inside the building official's `write`.

    Side effects: the new Players, the SeasonEntries, and an audit event
    ``signups.entered``. ValidationError for a sign-up not accepted or of another question,
    or one that names a player already entered.
    """
    chosen = {signup.pk for signup in newcomers}
    if not chosen:
        return []
    rows = list(
        m.SignUp.objects.filter(pk__in=chosen, call=call, decision=m.SignUp.Decision.ACCEPTED)
    )
    if len(rows) != len(chosen):
        raise Refusal(
            {"newcomers": f"Only the sign-ups accepted for {call.name} can be entered."},
            code="signup_not_accepted",
        )
    lines = [
        PlayerRow(line=n, first_name=s.first_name, last_name=s.last_name,
                  ifpa_number=s.ifpa_number, ifpa_rank=None)
        for n, s in enumerate(rows, start=1)
    ]  # fmt: skip
    known = _KnownPlayers(lines, season.league)
    entered = set(season.entries.values_list("player_id", flat=True))
    entries: list[m.SeasonEntry] = []
    for line in lines:
        player = known.find_or_plan(line)
        if player.pk in entered or any(e.player is player for e in entries):
            raise already_entered(player, season)
        entries.append(m.SeasonEntry(season=season, player=player, joined_at_meet=1))
    m.Player.objects.bulk_create([e.player for e in entries if e.player.pk is None])
    m.SeasonEntry.objects.bulk_create(entries)
    data = {"signups": [s.pk for s in rows], "entries": [e.pk for e in entries]}
    write.event("signups.entered", season, data)
    return entries
