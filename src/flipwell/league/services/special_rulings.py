"""Use cases for the special-rulings list (Appendix A, RA-a..RA-e): seed it, add to it, amend it.

Words: see `flipwell.rules.special_rulings`. A stored ruling is a machine title and a number
within the title; each amendment is a new *version* row, never an edit of an old one (RA-a).
The rules' RA-e check (reproducible, with reproduction notes and an understood cause and
effect) runs before anything is written. A league's special rulings are its own:
only its officials add to or amend them, numbers count within the league, a write changes only
that league's revision, and each decision is also logged as a `Ruling` of the league (who, when,
why).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.core.exceptions import PermissionDenied

from flipwell.league import models as m
from flipwell.league.refusals import ConflictError, Refusal
from flipwell.league.selectors.machines import (
    CAUSE_MARK,
    ruling_id,
    stored_special_rulings,
    to_rules_ruling,
)
from flipwell.league.services._edge import (
    league_changed,
    record_ruling,
    rules_edge,
)
from flipwell.league.services._protocol import Write, official_write
from flipwell.rules import (
    APPENDIX_A,
    SpecialRuling,
    SpecialRulingKind,
)
from flipwell.rules.special_rulings import (
    amend_rulings,
    same_title,
)

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def load_appendix_a(*, league: m.League, actor: User) -> list[m.SpecialRuling]:
    """Seed the rulebook's own special rulings (RA.1-a..RA.4-a) as version-1 rows of `league`;
    idempotent.

    A ruling is numbered within its title in the rulebook's order (RA.1-a is The Addams
    Family #1, RA.1-b #2 ...). A ruling already stored under that title and number, in any
    version in `league`, is left alone. Side effects: inserts the missing SpecialRuling rows
    and, when any was inserted, one audit event ``special_rulings.appendix_a_loaded`` of
    `league` and a new revision of `league`. Returns the inserted rows. Raises
    PermissionDenied unless `actor` is a league official of `league`.
    """
    with official_write(league=league, actor=actor, action="change the special rulings") as write:
        stored = list(
            m.SpecialRuling.objects.filter(league=league).values_list("machine_title", "number")
        )
        created = []
        numbers: dict[str, int] = {}
        for seed in APPENDIX_A:
            numbers[seed.machine] = numbers.get(seed.machine, 0) + 1
            number = numbers[seed.machine]
            if any(same_title(t, seed.machine) and n == number for t, n in stored):
                continue
            row = m.SpecialRuling(
                league=league,
                machine_title=seed.machine,
                number=number,
                version=1,
                kind=seed.kind,
                text=seed.text,
                reproduction_notes=seed.reproduction + CAUSE_MARK + seed.cause_and_effect,
                created_by=actor,
            )
            row.full_clean()
            row.save()
            created.append(row)
        ids = [r.pk for r in created]
        if created:
            league_changed(league)
            write.event("special_rulings.appendix_a_loaded", created[0], {"rulings": ids})
    return created


def add_special_ruling(
    *,
    league: m.League,
    machine_title: str,
    kind: SpecialRulingKind,
    text: str,
    reproducible: bool,
    reproduction: str,
    cause_and_effect: str,
    actor: User,
) -> m.SpecialRuling:
    """Add a new special ruling on a machine title (RA-a), if the glitch qualifies (RA-e).

    kind: not_a_malfunction, major_malfunction, positive_malfunction or not_an_extra_ball.
    The ruling takes the league's next number for its title (titles match ignoring case, spacing and
    a leading "The"; an existing spelling is kept). Side effects: inserts the SpecialRuling
    (version 1), a Ruling of `league` by `actor` and an audit event ``special_ruling.added``.
    Raises PermissionDenied unless `actor` is a league official of `league`, and
    ValidationError (nothing written) when the rules refuse it: not reproducible, no
    reproduction notes, no cause and effect, an unknown kind, an empty title or text.
    """
    with official_write(league=league, actor=actor, action="change the special rulings") as write:
        league_changed(league)
        title, number = _next_number(league, machine_title, new=machine_title.strip())
        ruling = _rules_ruling(
            title=title,
            number=number,
            version=1,
            kind=kind,
            text=text,
            reproducible=reproducible,
            reproduction=reproduction,
            cause_and_effect=cause_and_effect,
        )
        row = _store(ruling, league=league, number=number, actor=actor)
        _log(
            write,
            row=row,
            action="special_ruling.added",
            reason=f"{reproduction.strip()} / {cause_and_effect.strip()}",
        )
    return row


def amend_special_ruling(
    *,
    league: m.League,
    ruling: m.SpecialRuling,
    kind: SpecialRulingKind,
    text: str,
    reproducible: bool,
    reproduction: str,
    cause_and_effect: str,
    reason: str,
    actor: User,
) -> m.SpecialRuling:
    """Amend a special ruling: a new version of the same title and number (RA-a), never an edit.

    `ruling`: any stored version of it, a ruling of `league`; the amendment is the latest
    version + 1. reason: why it changes (required). Side effects: inserts the new
    SpecialRuling version, a Ruling of `league` by `actor` with the reason, a new revision of
    `league` and an audit event ``special_ruling.amended``.
    Raises PermissionDenied unless `actor` is a league official of `league` and `ruling` is
    one of `league`'s, and ValidationError (nothing written) without a reason
    or when the rules refuse the new version (RA-e).
    """
    with official_write(league=league, actor=actor, action="change the special rulings") as write:
        if ruling.league_id != league.pk:
            raise PermissionDenied("That special ruling is another league's.")
        league_changed(league)
        if not reason.strip():
            raise Refusal(
                {"reason": "Say why the ruling is amended; an amendment needs a reason."},
                code="reason_required",
            )
        amended = _rules_ruling(
            title=ruling.machine_title,
            number=ruling.number,
            version=_latest_version(ruling).version + 1,
            kind=kind,
            text=text,
            reproducible=reproducible,
            reproduction=reproduction,
            cause_and_effect=cause_and_effect,
        )
        with rules_edge(code="invalid_special_ruling", message=str):
            amend_rulings(stored_special_rulings(league), amended)
        row = _store(amended, league=league, number=ruling.number, actor=actor)
        _log(write, row=row, action="special_ruling.amended", reason=reason.strip())
    return row


def copy_special_ruling(
    *, league: m.League, source: m.SpecialRuling, actor: User
) -> m.SpecialRuling:
    """Copy another league's special ruling into `league`'s list, as `league`'s own ruling
    (RA-a).

    `source`: any stored version of another league's ruling; its latest version is copied
    (kind, text, reproduction notes, cause and effect). The copy takes `league`'s next number
    for the title (an existing spelling of the title in `league` is kept) and is version 1:
    later amendments of either ruling change only its own league's. Side effects: inserts the
    SpecialRuling, a Ruling of `league` by `actor` and an audit event ``special_ruling.copied``
    naming the source, and a new revision of `league` only. Raises PermissionDenied unless
    `actor` is a league official of `league`, and ValidationError when `source` is already
    `league`'s own.
    """
    with official_write(league=league, actor=actor, action="change the special rulings") as write:
        if source.league_id == league.pk:
            raise ConflictError(
                {"ruling": "That ruling is already one of this league's."},
                code="ruling_already_own",
            )
        latest = _latest_version(source)
        copied = to_rules_ruling(latest)
        league_changed(league)
        title, number = _next_number(league, copied.machine, new=copied.machine)
        ruling = _rules_ruling(
            title=title,
            number=number,
            version=1,
            kind=copied.kind,
            text=copied.text,
            reproducible=True,
            reproduction=copied.reproduction,
            cause_and_effect=copied.cause_and_effect,
        )
        row = _store(ruling, league=league, number=number, actor=actor)
        _log(
            write,
            row=row,
            action="special_ruling.copied",
            reason=f"Copied from {latest.league.name}: {latest.machine_title} #{latest.number}"
            f" v{latest.version}.",
            source=latest.pk,
        )
    return row


def _next_number(league: m.League, title: str, *, new: str) -> tuple[str, int]:
    """The title as `league` spells it (`new` when it has no ruling on it yet) and the
    league's next number for it (titles compared by `same_title`)."""
    existing = [r for r in stored_special_rulings(league) if same_title(r.machine, title)]
    spelt = existing[0].machine if existing else new
    return spelt, 1 + max((_number(r) for r in existing), default=0)


def _latest_version(ruling: m.SpecialRuling) -> m.SpecialRuling:
    """The latest stored version of `ruling` (its league's, same title and number)."""
    latest = (
        m.SpecialRuling.objects.filter(
            league_id=ruling.league_id, machine_title=ruling.machine_title, number=ruling.number
        )
        .order_by("-version")
        .first()
    )
    assert latest is not None  # `ruling` itself is one of them
    return latest


def _rules_ruling(
    *,
    title: str,
    number: int,
    version: int,
    kind: SpecialRulingKind,
    text: str,
    reproducible: bool,
    reproduction: str,
    cause_and_effect: str,
) -> SpecialRuling:
    with rules_edge(_field, code="invalid_special_ruling", message=str):
        return SpecialRuling(
            ruling_id=ruling_id(title, number),
            machine=title,
            kind=kind,
            text=text.strip(),
            reproducible=reproducible,
            reproduction=reproduction.strip(),
            cause_and_effect=cause_and_effect.strip(),
            version=version,
        )


def _field(message: str) -> str:
    """The field a rules message about a special ruling names (reproduction by default)."""
    return next(
        (
            f
            for f in ("reproduction", "cause_and_effect", "kind", "text", "machine")
            if f.replace("_", " ") in message or f in message
        ),
        "reproduction",
    )


def _store(ruling: SpecialRuling, *, league: m.League, number: int, actor: User) -> m.SpecialRuling:
    row = m.SpecialRuling(
        league=league,
        machine_title=ruling.machine,
        number=number,
        version=ruling.version,
        kind=ruling.kind,
        text=ruling.text,
        reproduction_notes=ruling.reproduction + CAUSE_MARK + ruling.cause_and_effect,
        created_by=actor,
    )
    row.full_clean()
    row.save()
    return row


def _log(
    write: Write,
    *,
    row: m.SpecialRuling,
    action: str,
    reason: str,
    source: int | None = None,
) -> None:
    # Recorded now, not through `write.ruling`: the event names it, and a write without a
    # season (this one changes no score) cannot `refold` to record it early.
    official = record_ruling(
        league=write.league,
        official=write.actor,
        kind=action,
        subject=f"{row.machine_title} special ruling {row.number} v{row.version}"[:200],
        reason=reason,
    )
    data = {
        "machine_title": row.machine_title,
        "number": row.number,
        "version": row.version,
        "kind": row.kind,
        "ruling": official.pk,
    }
    write.event(action, row, {**data, **({} if source is None else {"copied_from": source})})


def _number(ruling: SpecialRuling) -> int:
    return int(ruling.ruling_id.rsplit("#", 1)[1])
