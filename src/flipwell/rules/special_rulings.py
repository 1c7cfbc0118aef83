"""Special rulings (Appendix A): game-specific malfunctions and bugs, per machine title.

Words:
- *machine title*: the game's name ("The Addams Family"); matched ignoring case, spacing and a
  leading "The".
- *special ruling*: the league's standing decision on one behaviour of one title, of a kind:
  not a malfunction, major malfunction, positive malfunction, or not an extra ball (RA-a).
  Officials add to and amend the list; each amendment is a new *version* of the same ruling ID.
- *reproduction notes*: how the glitch is reproduced, and its understood cause and effect; a
  ruling cannot exist without them (RA-e).
- *score adjustment*: an LO's change to a displayed machine score. One of kind "malfunction"
  must cite a ruling already on the books for that title (RA-c, A56). Compensatory games, the
  §8.1 reduction, the §8.2/§8.5/§8.7 zeros and agreed §3 corrections are other kinds.
- *APPENDIX_A*: the rulebook's own rulings, text as printed (typos kept, A20), as seed data.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, get_args

from flipwell.rules.checks import check_count
from flipwell.rules.errors import RuleError

SpecialRulingKind = Literal[
    "not_a_malfunction", "major_malfunction", "positive_malfunction", "not_an_extra_ball"
]
SPECIAL_RULING_KINDS: tuple[SpecialRulingKind, ...] = get_args(SpecialRulingKind)

AdjustmentKind = Literal[
    "malfunction", "compensatory_game", "reduction", "zero_score", "correction"
]
ADJUSTMENT_KINDS: tuple[AdjustmentKind, ...] = get_args(AdjustmentKind)

ADJUSTING_KINDS: tuple[SpecialRulingKind, ...] = ("major_malfunction", "positive_malfunction")
"""Ruling kinds that can justify a malfunction score adjustment; the other two deny one."""


@dataclass(frozen=True)
class SpecialRuling:
    """One special ruling on one machine title (RA-a), valid only when reproducible and
    understood (RA-e)."""

    ruling_id: str
    machine: str
    kind: SpecialRulingKind
    text: str
    reproducible: bool
    reproduction: str
    cause_and_effect: str
    version: int = 1

    def __post_init__(self) -> None:
        for name in ("ruling_id", "machine", "text"):
            value = getattr(self, name)
            if not isinstance(value, str) or not value.strip():
                raise RuleError(f"a special ruling needs a non-empty {name}, got {value!r}")
        for name in ("reproduction", "cause_and_effect"):
            if not isinstance(getattr(self, name), str):
                raise RuleError(f"a special ruling's {name} must be text (RA-e)")
        if self.kind not in SPECIAL_RULING_KINDS:
            allowed = ", ".join(SPECIAL_RULING_KINDS)
            raise RuleError(f"unknown special ruling kind {self.kind!r}; allowed: {allowed}")
        check_count(self.version, what="ruling version", minimum=1)
        if self.reproducible is not True or not self.reproduction.strip():
            raise RuleError(
                f"no special ruling for {self.machine}: the glitch must be reproducible, with "
                "notes on how to reproduce it (RA-e)"
            )
        if not self.cause_and_effect.strip():
            raise RuleError(
                f"no special ruling for {self.machine}: its cause and effect must be clearly "
                "understood and written down (RA-e)"
            )


def _seed(ruling_id: str, machine: str, kind: SpecialRulingKind, text: str) -> SpecialRuling:
    section = ruling_id[1:4]
    return SpecialRuling(
        ruling_id=ruling_id,
        machine=machine,
        kind=kind,
        text=text,
        reproducible=True,
        reproduction=f"occurred in FWPL league play; see the rulebook, Appendix {section}",
        cause_and_effect=text,
    )


APPENDIX_A: tuple[SpecialRuling, ...] = (
    _seed(
        "RA.1-a",
        "The Addams Family",
        "not_a_malfunction",
        "Ball falls off habitrail into outlane; fast shots to the staircase ramp sometimes result "
        "in a ball falling off the metal habitrail above the playfield; Thing flips ball into "
        "outlane or drain; Thing sometimes does not flip accurately; Exit from Chair or Swamp "
        "goes into slingshot and outlane or drain; Things flips doesn't activate and the ball "
        "drains as a result.",
    ),
    _seed(
        "RA.1-b",
        "The Addams Family",
        "major_malfunction",
        "After a drain from the right outlane, a ball becomes trapped between the apron and the "
        "lane guide and cannot be cleared without tilting.",
    ),
    _seed(
        "RA.1-c",
        "The Addams Family",
        "positive_malfunction",
        "The Bear Kick ramp entry switch consistently fails to register, counting all center "
        "ramp shots as side ramp shots.",
    ),
    _seed(
        "RA.2-a",
        "Demolition Man",
        "not_a_malfunction",
        "After dropping out of ramp habitrail into inlane, ball spins/bounces into outlane; Not "
        "getting ball saver after hitting car crash target.",
    ),
    _seed(
        "RA.2-b",
        "Demolition Man",
        "major_malfunction",
        "After dropping the ball from the crane, the ball becomes stuck, does not travel down "
        "any lane, and cannot be cleared without tilting.",
    ),
    _seed(
        "RA.3-a",
        "F-14 Tomcat",
        "not_an_extra_ball",
        "After a ball is shot into Yagov, insurance will be briefly lit. This is the equivalent "
        "of Ball Save, and balls awarded by this feature do not count as an extra ball.",
    ),
    _seed(
        "RA.3-b",
        "F-14 Tomcat",
        "not_a_malfunction",
        "After any player has locked balls, a stuck ball will cause the ball search feature to "
        "eject all locked balls from the saucers. These balls can be played by the individual "
        "playing at the time.",
    ),
    _seed(
        "RA.4-a",
        "Ghostbusters",
        "major_malfunction",
        "Ball becomes stuck on the PKE ramp, and cannot be freed without tilting.",
    ),
)
"""The special rulings printed in Appendix A of the FWPL v1.0 rulebook (RA.1-a..RA.4-a)."""


def same_title(a: str, b: str) -> bool:
    """Whether two machine titles name the same game: case, spacing and a leading "The" aside."""
    return _title_key(a) == _title_key(b)


def title_key(title: str) -> str:
    """The key two titles share when `same_title` holds (case, spacing and a leading "The"
    aside)."""
    return _title_key(title)


def _title_key(title: str) -> str:
    words = title.casefold().split()
    if words[:1] == ["the"]:
        words = words[1:]
    return " ".join(words)


def rulings_for(
    machine: str, *, rulings: Sequence[SpecialRuling] = APPENDIX_A
) -> tuple[SpecialRuling, ...]:
    """The special rulings in force for a machine title: the latest version of each (RA-a).

    Shown to the LO whenever a malfunction is recorded on that machine. In ruling-ID order.
    """
    if not isinstance(machine, str) or not machine.strip():
        raise RuleError(f"machine must be a non-empty title, got {machine!r}")
    latest: dict[str, SpecialRuling] = {}
    for ruling in rulings:
        if not same_title(ruling.machine, machine):
            continue
        held = latest.get(ruling.ruling_id)
        if held is None or ruling.version > held.version:
            latest[ruling.ruling_id] = ruling
    return tuple(latest[k] for k in sorted(latest))


def amend_rulings(
    rulings: Sequence[SpecialRuling], ruling: SpecialRuling
) -> tuple[SpecialRuling, ...]:
    """The list of rulings with a new ruling, or a new version of an existing one, added (RA-a).

    The list is append-only: an amendment keeps its ID and title and takes the next version.
    """
    versions = [r for r in rulings if r.ruling_id == ruling.ruling_id]
    if versions:
        current = max(versions, key=lambda r: r.version)
        if not same_title(current.machine, ruling.machine):
            raise RuleError(
                f"ruling {ruling.ruling_id} is about {current.machine}, not {ruling.machine}"
            )
        if ruling.version != current.version + 1:
            raise RuleError(
                f"ruling {ruling.ruling_id} is at version {current.version}: an amendment must "
                f"be version {current.version + 1}, got {ruling.version}"
            )
    elif ruling.version != 1:
        raise RuleError(f"a new ruling {ruling.ruling_id} starts at version 1")
    return (*rulings, ruling)


def check_score_adjustment(
    *,
    kind: AdjustmentKind,
    machine: str,
    ruling_id: str | None = None,
    rulings: Sequence[SpecialRuling] = APPENDIX_A,
) -> SpecialRuling | None:
    """Refuse a malfunction score adjustment that cites no special ruling on the books.

    RA-c: the LO never modifies a score for points lost to a software bug or hardware
    malfunction unless a special ruling already exists; RA-d: otherwise the displayed score
    stands. A56: only adjustments of kind "malfunction" need the ruling, which must be in force
    for this title and of a kind that recognises a malfunction (major or positive). Returns the
    cited ruling, or None for the other kinds.
    """
    if kind not in ADJUSTMENT_KINDS:
        raise RuleError(
            f"unknown score adjustment kind {kind!r}; allowed: {', '.join(ADJUSTMENT_KINDS)}"
        )
    in_force = rulings_for(machine, rulings=rulings)
    if kind != "malfunction":
        return None
    if ruling_id is None:
        raise RuleError(
            f"a malfunction score adjustment on {machine} must cite a special ruling; without "
            "one the displayed score stands (RA-c, RA-d)"
        )
    for ruling in in_force:
        if ruling.ruling_id == ruling_id:
            if ruling.kind not in ADJUSTING_KINDS:
                raise RuleError(
                    f"ruling {ruling_id} says {ruling.kind.replace('_', ' ')}: it cannot justify "
                    "a malfunction score adjustment (RA-c)"
                )
            return ruling
    cited = ", ".join(r.ruling_id for r in in_force) or "none"
    raise RuleError(
        f"{machine} has no special ruling {ruling_id}; rulings on the books: {cited} (RA-c)"
    )
