"""Setting a league up: who may open one, its machine pool, and its officials.

Words:
- *machine pool*: the league's machines with status *playable* (in the pool: a game may be
  played on it). A machine *out of the pool* has status *unplayable*: away for repairs, or
  retired. Taking a machine out never touches the games already played on it (a fact stays
  a fact, R7.3-u); putting it back is the same decision in reverse. Either way it is an LO
  decision with a reason, recorded as a `Ruling` (R1.1-b).
- *official*: a user with a role in the league (`LeagueOfficial`): league official (LO) or
  scorekeeper. A league always keeps at least one LO: the last one can be neither removed nor
  demoted (a superuser is an LO everywhere but holds no row, so he does not count). An
  account gets a role only by accepting an invitation
  (`flipwell.league.services.invitations`); here an official's role is changed or removed.
- *involved official*: an official linked to his own player record, so a ruling on a group
  he plays in is flagged (R1.1-a, A55).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone

from flipwell.league import enums
from flipwell.league import models as m
from flipwell.league.audit import record_event
from flipwell.league.limits import TITLE_LENGTH
from flipwell.league.models.machines import MAX_BALLS_PER_GAME
from flipwell.league.refusals import ConflictError, Refusal
from flipwell.league.selectors.setup import may_create_league, open_league_permission
from flipwell.league.services._edge import (
    league_changed,
    record_ruling,
    require_official,
    require_reason,
)
from flipwell.league.services._protocol import official_write
from flipwell.league.services.leagues import create_league, require_slug_free
from flipwell.league.validators import clean_lines, clean_slug, line_key

if TYPE_CHECKING:
    from django.contrib.auth.models import User

LO = m.LeagueOfficial.Role.LEAGUE_OFFICIAL
ROLES = {role.value: role.label.lower() for role in m.LeagueOfficial.Role}
STATUS_WORDS = {
    m.Machine.Status.PLAYABLE: "in the pool (playable)",
    m.Machine.Status.UNPLAYABLE: "out of the pool (away for repairs, or retired)",
}


# --- leagues ---------------------------------------------------------------------------------


def create_league_opener(*, username: str, password: str) -> User:
    """Create an account that may open leagues (a fresh installation's first official).

    Side effects, in one transaction: a User with `password` and `OPEN_LEAGUE_PERMISSION`,
    an audit event ``official.created``. Raises ValidationError (keyed by field, nothing
    written) for a blank, malformed or taken username, or a password Django's password
    validators refuse (their messages say why).
    """
    user_model = get_user_model()
    name = username.strip()
    user = user_model(username=name)
    try:
        user.full_clean(exclude=["password"])
    except ValidationError as error:
        raise Refusal(
            {"username": error.message_dict.get("username", [])}, code="invalid_username"
        ) from error
    try:
        validate_password(password, user)
    except ValidationError as error:
        raise Refusal({"password": error.messages}, code="invalid_password") from error
    with transaction.atomic():
        if user_model._default_manager.filter(username=name).exists():
            raise Refusal(
                {"username": f"An account named “{name}” already exists."}, code="username_taken"
            )
        user.set_password(password)
        user.save()
        user.user_permissions.add(open_league_permission())
        record_event(
            action="official.created",
            obj=user,
            league=None,
            actor=None,
            data={"username": name, "may_open_leagues": True},
        )
    return user


def open_league(
    *, name: str, slug: str, venue: str = "", time_zone: str = "UTC", actor: User
) -> m.League:
    """Create a league through `create_league`, its creator becoming its league official.

    Side effects: those of `create_league`. Raises PermissionDenied unless `may_create_league`
    allows `actor`; ValidationError (keyed by field, nothing written) for a blank name, a taken
    or malformed slug or an unknown time zone.
    """
    with transaction.atomic():
        if not may_create_league(actor):
            raise PermissionDenied(
                "Only a staff member may open a new league: ask your flipwell administrator."
            )
        if not clean_lines(name=name)["name"]:
            raise Refusal({"name": "Name the league."}, code="name_required")
        require_slug_free(clean_slug(slug))
        return create_league(
            name=name, slug=slug, venue=venue, time_zone=time_zone, created_by=actor
        )


# --- machines --------------------------------------------------------------------------------


def _clean_machine(machine: m.Machine) -> None:
    """Model validation, with the messages an official understands, keyed by field."""
    try:
        machine.full_clean(exclude=["league"])
    except ValidationError as error:
        messages = error.message_dict
        if "balls_per_game" in messages:
            messages["balls_per_game"] = [
                f"Balls per game is from 1 to {MAX_BALLS_PER_GAME} (usually 3 or 5)."
            ]
        raise Refusal(messages, code="invalid_machine") from error


def _same_machine_exists(machine: m.Machine) -> bool:
    others = m.Machine.objects.filter(
        league_id=machine.league_id,
        title__iexact=machine.title,
        location__iexact=machine.location,
    )
    return others.exclude(pk=machine.pk).exists() if machine.pk else others.exists()


def create_machine(
    *, league: m.League, title: str, balls_per_game: int, location: str = "", actor: User
) -> m.Machine:
    """Add a machine to the league's pool (playable).

    Side effects: inserts the Machine and an audit event ``machine.created``. Raises
    PermissionDenied unless `actor` is an LO of `league`; ValidationError (keyed by field,
    nothing written) for a blank title, balls per game outside 1..10, or a machine of the same
    title at the same location already in the league (give it a location to tell them apart).
    """
    with transaction.atomic():
        league_changed(league)
        require_official(actor=actor, league=league, action="add machines")
        machine = m.Machine(
            league=league,
            balls_per_game=balls_per_game,
            **clean_lines(title=title, location=location),
        )
        _clean_machine(machine)
        if _same_machine_exists(machine):
            raise Refusal(
                {
                    "title": f"{league} already has {machine.title}"
                    + (f" at {machine.location}" if machine.location else "")
                    + ": give the new one a location that tells them apart."
                },
                code="machine_exists",
            )
        machine.save()
        record_event(
            action="machine.created",
            obj=machine,
            league=league,
            actor=actor,
            data={
                "title": machine.title,
                "balls_per_game": machine.balls_per_game,
                "location": machine.location,
            },
        )
    return machine


def create_machines(
    *, league: m.League, titles: Sequence[str], balls_per_game: int, actor: User
) -> list[m.Machine]:
    """Add several machines to the league's pool at once, one per title (a line each on the
    console's machine pool; empty titles are passed over), all with `balls_per_game`.

    Side effects, in one transaction: the Machines and one audit event ``machine.created``
    each, as `create_machine` writes. Raises PermissionDenied unless `actor` is an LO of
    `league`; ValidationError (nothing written) keyed "titles" with one message per refused
    line ("Line 3: …": too long a title, a title the league has wherever it stands, the same
    title twice), or
    keyed "balls_per_game" when that is out of range.
    """
    with transaction.atomic():
        league_changed(league)
        require_official(actor=actor, league=league, action="add machines")
        if not 1 <= balls_per_game <= MAX_BALLS_PER_GAME:
            raise Refusal(
                {"balls_per_game": f"Balls per game is from 1 to {MAX_BALLS_PER_GAME}."},
                code="invalid_balls_per_game",
            )
        lines = [(n, t) for n, t in _title_lines(titles) if t]
        if not lines:
            raise Refusal({"titles": "Write one machine title a line."}, code="titles_required")
        taken = {  # a title the league has, wherever it stands: a copy needs its location
            line_key(title): where
            for title, where in m.Machine.objects.filter(league=league).values_list(
                "title", "location"
            )
        }
        refused, seen = [], set[str]()
        for number, title in lines:
            why = _refused_title(title, taken=taken, seen=seen)
            if why:
                refused.append(f"Line {number} (“{title[:40]}”): {why}")
            seen.add(line_key(title))
        if refused:
            raise Refusal({"titles": refused}, code="invalid_titles")
        made = m.Machine.objects.bulk_create(
            [m.Machine(league=league, title=t, balls_per_game=balls_per_game) for _, t in lines]
        )
        for machine in made:
            record_event(
                action="machine.created",
                obj=machine,
                league=league,
                actor=actor,
                data={"title": machine.title, "balls_per_game": balls_per_game, "location": ""},
            )
    return made


def _title_lines(titles: Sequence[str]) -> list[tuple[int, str]]:
    """Each line's number and title as stored (`clean_line`); ValidationError on "titles"
    naming the line that holds a control character."""
    lines = []
    for number, title in enumerate(titles, start=1):
        try:
            lines.append((number, clean_lines(title=title)["title"]))
        except ValidationError as error:
            problem = " ".join(error.messages)
            raise Refusal(
                {"titles": f"Line {number}: {problem}"}, code="control_character"
            ) from error
    return lines


def _refused_title(title: str, *, taken: dict[str, str], seen: set[str]) -> str:
    """Why one line of `create_machines` cannot be a new machine, or ""."""
    if len(title) > TITLE_LENGTH:
        return f"a title has at most {TITLE_LENGTH} characters."
    if line_key(title) in taken:
        where = taken[line_key(title)]
        return (
            f"the league has it already{f' ({where})' if where else ''}: add another copy "
            "alone, with its location."
        )
    if line_key(title) in seen:
        return "written twice (add the second copy alone, with its location)."
    return ""


def update_machine(
    *,
    machine: m.Machine,
    location: str | None = None,
    balls_per_game: int | None = None,
    actor: User,
) -> m.Machine:
    """Change a machine's location and/or balls per game (None: unchanged).

    Side effects: updates the Machine and writes an audit event ``machine.updated`` with the
    old and new values (nothing when nothing changes). Raises PermissionDenied unless `actor`
    is an LO of the machine's league; ValidationError (keyed by field) for balls per game
    outside 1..10 or a location that makes it a twin of another machine of the same title.
    """
    with transaction.atomic():
        league_changed(machine.league_id)
        machine = m.Machine.objects.select_for_update().select_related("league").get(pk=machine.pk)
        require_official(actor=actor, league=machine.league, action="change machines")
        before = {"location": machine.location, "balls_per_game": machine.balls_per_game}
        if location is not None:
            machine.location = clean_lines(location=location)["location"]
        if balls_per_game is not None:
            machine.balls_per_game = balls_per_game
        after = {"location": machine.location, "balls_per_game": machine.balls_per_game}
        if after == before:
            return machine
        _clean_machine(machine)
        if _same_machine_exists(machine):
            raise Refusal(
                {"location": f"Another {machine.title} is already at this location."},
                code="machine_exists",
            )
        machine.save(update_fields=["location", "balls_per_game"])
        record_event(
            action="machine.updated",
            obj=machine,
            league=machine.league,
            actor=actor,
            data={"before": before, "after": after},
        )
    return machine


def set_machine_status(*, machine: m.Machine, status: str, reason: str, actor: User) -> m.Ruling:
    """Put a machine in the league's pool (playable) or take it out (unplayable: repairs or
    retired), with the LO's reason. Games already played on it keep it.

    Side effects: updates Machine.status, inserts a Ruling ``machine_status``, a
    MachineStatusChange and an audit event ``machine.status_changed``. Raises
    PermissionDenied unless `actor` is an LO of the machine's league; ValidationError (keyed
    by field, nothing written) for an unknown status, no reason, or the status it already
    has.
    """
    with transaction.atomic():
        league_changed(machine.league_id)
        machine = m.Machine.objects.select_for_update().select_related("league").get(pk=machine.pk)
        require_official(actor=actor, league=machine.league, action="change a machine's status")
        if status not in m.Machine.Status.values:
            allowed = ", ".join(m.Machine.Status.values)
            raise Refusal(
                {"status": f"Unknown status “{status}”; allowed: {allowed}."}, code="unknown_status"
            )
        wanted = m.Machine.Status(status)
        if machine.status == wanted:
            raise ConflictError(
                {"status": f"{machine.title} is already {STATUS_WORDS[wanted]}."},
                code="machine_already_in_status",
            )
        why = require_reason(reason, field="reason", what="Changing a machine's status")
        return change_machine_status(machine, wanted, reason=why, actor=actor)


def change_machine_status(
    machine: m.Machine, wanted: enums.MachineStatus, *, reason: str, actor: User
) -> m.Ruling:
    """Store `machine` (locked by the caller, its status not `wanted`) with status `wanted`:
    the official's Ruling ``machine_status``, the MachineStatusChange its history reads
    (R7.3-q, R7.3-u) and the audit event ``machine.status_changed``."""
    before = machine.status
    machine.status = wanted
    machine.save(update_fields=["status"])
    ruling = record_ruling(
        league=machine.league,
        official=actor,
        kind="machine_status",
        subject=f"{machine.title} {STATUS_WORDS[wanted]}",
        reason=reason,
    )
    m.MachineStatusChange.objects.create(
        machine=machine,
        previous=before,
        status=wanted,
        reason=reason,
        official=actor,
        ruling=ruling,
        created_at=ruling.created_at,
    )
    record_event(
        action="machine.status_changed",
        obj=machine,
        league=machine.league,
        actor=actor,
        data={"from": before, "to": wanted.value, "reason": reason, "ruling": ruling.pk},
    )
    return ruling


# --- officials -------------------------------------------------------------------------------


def _role(role: str) -> m.LeagueOfficial.Role:
    if role not in ROLES:
        raise Refusal(
            {"role": f"Unknown role “{role}”; allowed: {', '.join(ROLES.values())}."},
            code="unknown_role",
        )
    return m.LeagueOfficial.Role(role)


def _check_player(league: m.League, player: m.Player, *, exclude: int | None = None) -> None:
    """The player must have played in the league and not be linked to another official."""
    if not m.SeasonEntry.objects.filter(season__league=league, player=player).exists():
        raise Refusal(
            {"player": f"{player} has no season in {league}."}, code="player_not_in_league"
        )
    taken = m.LeagueOfficial.objects.filter(league=league, player=player)
    if exclude is not None:
        taken = taken.exclude(pk=exclude)
    other = taken.select_related("user").first()
    if other is not None:
        raise Refusal(
            {"player": f"{player} is already linked to official {other.user.get_username()}."},
            code="player_linked_elsewhere",
        )


def _lo_rows(league: m.League) -> list[int]:
    """The ids of the league's LO rows, locked (two demotions cannot both see two LOs)."""
    return list(
        m.LeagueOfficial.objects.select_for_update()
        .filter(league=league, role=LO)
        .values_list("pk", flat=True)
    )


def _refuse_last_lo(official: m.LeagueOfficial, *, doing: str, field: str | None) -> None:
    if official.role == LO and _lo_rows(official.league) == [official.pk]:
        message = (
            f"{official.user.get_username()} is the last league official of {official.league}: "
            f"add another league official before you {doing}."
        )
        raise ConflictError({field: message} if field else message, code="last_league_official")


def change_official_role(*, official: m.LeagueOfficial, role: str, actor: User) -> m.LeagueOfficial:
    """Give an official of the league another role (he holds one there already, so he is
    asked nothing; a new official is invited: `flipwell.league.services.invitations`).

    Side effects: his role changed; an audit event ``official.role_changed``; a new league
    revision. Raises PermissionDenied unless `actor` is a league official of his league;
    ValidationError for an unknown role, the role he has, or demoting the last LO.
    """
    wanted = _role(role)
    with official_write(league=official.league, actor=actor, action="change officials' roles"):
        league_changed(official.league)
        locked = (
            m.LeagueOfficial.objects.select_for_update()
            .select_related("user", "league")
            .get(pk=official.pk)
        )
        return _change_role(locked, wanted, actor=actor)


def _change_role(
    official: m.LeagueOfficial, wanted: m.LeagueOfficial.Role, *, actor: User
) -> m.LeagueOfficial:
    name = official.user.get_username()
    if official.role == wanted:
        raise ConflictError(
            {"username": f"{name} is already a {ROLES[wanted]} of {official.league}."},
            code="role_already_held",
        )
    _refuse_last_lo(official, doing=f"make {name} a {ROLES[wanted]}", field="role")
    before = official.role
    official.role = wanted
    official.save(update_fields=["role"])
    record_event(
        action="official.role_changed",
        obj=official,
        league=official.league,
        actor=actor,
        data={"username": name, "from": before, "to": wanted.value},
    )
    return official


def remove_official(*, official: m.LeagueOfficial, actor: User) -> None:
    """Take away an official's role in his league (his account and past rulings stay), and
    revoke the API tokens he issued for it: a token acts as him, so it dies with his role.

    Side effects: deletes the LeagueOfficial; sets revoked_at and revoked_by on his live API
    tokens of the league; writes an audit event ``official.removed`` (about the league, with
    his user name, role and the prefixes of the tokens revoked). Raises PermissionDenied
    unless `actor` is an LO of the official's league; ValidationError when he is its last LO.
    """
    with transaction.atomic():
        league_changed(official.league_id)
        official = (
            m.LeagueOfficial.objects.select_for_update()
            .select_related("user", "league")
            .get(pk=official.pk)
        )
        league = official.league
        require_official(actor=actor, league=league, action="remove officials")
        name = official.user.get_username()
        _refuse_last_lo(official, doing=f"remove {name}", field=None)
        data = {
            "official": official.pk,
            "username": name,
            "role": official.role,
            "player": official.player_id,
            "revoked_tokens": _revoke_tokens(official, actor=actor),
        }
        official.delete()
        record_event(action="official.removed", obj=league, league=league, actor=actor, data=data)


def _revoke_tokens(official: m.LeagueOfficial, *, actor: User) -> list[str]:
    """Revoke the live API tokens `official` issued for his league; their prefixes (2 queries)."""
    tokens = m.ApiToken.objects.filter(league=official.league, issued_by_id=official.user_id)
    now = timezone.now()
    tokens.filter(revoked_at__isnull=True).update(revoked_at=now, revoked_by=actor)
    return list(
        tokens.filter(revoked_at=now, revoked_by=actor)
        .order_by("pk")
        .values_list("prefix", flat=True)
    )


def _link(official: m.LeagueOfficial, player: m.Player | None, *, actor: User) -> m.LeagueOfficial:
    if player is not None:
        _check_player(official.league, player, exclude=official.pk)
    before = official.player_id
    official.player = player
    official.save(update_fields=["player"])
    record_event(
        action="official.player_linked",
        obj=official,
        league=official.league,
        actor=actor,
        data={
            "username": official.user.get_username(),
            "from": before,
            "to": player.pk if player else None,
        },
    )
    return official


def link_official_player(
    *, official: m.LeagueOfficial, player: m.Player | None, actor: User
) -> m.LeagueOfficial:
    """Link an official to his own player record (None: unlink), so that his rulings on a
    group he plays in are flagged as made by an involved official (R1.1-a, A55).

    Side effects: updates LeagueOfficial.player, an audit event ``official.player_linked``.
    Raises PermissionDenied unless `actor` is an LO of the official's league; ValidationError
    (on ``player``) for a player with no season in the league or linked to another official.
    """
    with transaction.atomic():
        league_changed(official.league_id)
        official = (
            m.LeagueOfficial.objects.select_for_update()
            .select_related("user", "league")
            .get(pk=official.pk)
        )
        require_official(actor=actor, league=official.league, action="link officials to players")
        if official.player_id == (player.pk if player else None):
            return official
        return _link(official, player, actor=actor)
