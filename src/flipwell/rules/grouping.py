"""Group sizes (§4.1), the ladder (§3.1, §4.2, §4.3) and cutting the ladder into groups.

Words:
- *ladder*: every player of a meet in one list, best first; group 1 is its top (§4.2).
- *group sizes*: the size of each group, top group first; only 3s and 4s, threes at the bottom.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping, Sequence

from flipwell.rules.checks import check_count, check_player, check_points, check_unique
from flipwell.rules.errors import RuleError, about_player
from flipwell.rules.ruleset import FWPL_V1, Ruleset
from flipwell.rules.values import Entrant, LeaguePoints, PlayerId

MIN_GROUP = 3
"""R4.1-c: no scheduled match has fewer than 3 players."""


def group_sizes(n: int, *, ruleset: Ruleset = FWPL_V1) -> list[int]:
    """Group sizes for n players, top group first (§4.1, R4.1-a, R4.1-b, R3.1-c, A16).

    As many 4-player groups as possible, with the 3-player groups at the bottom: g = ⌈n/4⌉
    groups of which 4g − n have 3 players. This is the rulebook's table for 6..32 and the
    same formula beyond (A16). 0 players make no groups. 1, 2 and 5 players cannot be
    grouped (A16: "n ≤ 2 means no match"; a group of 5 or 2 is never scheduled): RuleError.
    """
    check_count(n, what="number of players")
    if ruleset.group_sizes != "max_fours_threes_at_bottom":  # pragma: no cover - one option
        raise RuleError(f"unknown group_sizes setting {ruleset.group_sizes!r}")
    if 0 < n < MIN_GROUP:
        raise RuleError(
            f"{n} player{'s' if n > 1 else ''} cannot be grouped: a match needs at least "
            f"{MIN_GROUP} players (A16, R4.1-c)"
        )
    groups = -(-n // 4)
    threes = 4 * groups - n
    if threes > groups:
        raise RuleError(
            f"{n} players cannot be split into groups of 3 and 4 (R4-a, R4.1-c); "
            "an LO override must choose the groups"
        )
    return [4] * (groups - threes) + [3] * threes


def proposed_group_numbers(n: int, *, ruleset: Ruleset = FWPL_V1) -> tuple[list[int], int]:
    """For an official starting a meet: each of n present players' proposed group, in ladder
    order (1 is the top group), and how many groups he may spread them over (§4.1, R4.1-d).

    The §4.1 groups when n players can be grouped (`group_sizes`, R4.2-b); otherwise (1, 2 or
    5 players) fours from the top with the rest in the last group, for the LO to override
    with a reason (R4.1-d). He may use up to ⌈n/3⌉ groups (at least 1).
    """
    try:
        sizes = group_sizes(n, ruleset=ruleset)
    except RuleError:
        sizes = [4] * (n // 4) + ([n % 4] if n % 4 else [])
    numbers = [number for number, size in enumerate(sizes, start=1) for _ in range(size)]
    return numbers, max(-(-n // MIN_GROUP), len(sizes), 1)


def split_into_groups(ladder: Sequence[PlayerId], sizes: Sequence[int]) -> list[list[PlayerId]]:
    """Cut the ladder into consecutive groups of the given sizes, top group first (R4.2-b)."""
    check_unique(ladder, what="the ladder")
    if sum(sizes) != len(ladder):
        raise RuleError(f"group sizes {list(sizes)} add up to {sum(sizes)}, not {len(ladder)}")
    for size in sizes:
        if size not in (3, 4):
            raise RuleError(f"a scheduled group has 3 or 4 players, got {size} (R4-a, R4.1-c)")
    groups, start = [], 0
    for size in sizes:
        groups.append(list(ladder[start : start + size]))
        start += size
    return groups


def initial_ladder(entrants: Iterable[Entrant], *, ruleset: Ruleset = FWPL_V1) -> list[PlayerId]:
    """The week-1 ladder: IFPA rank (1 is best), then unranked players alphabetically.

    §3.1 (R3.1-b), §4.3 (R4.3-a, R4.3-b), A18.2-3. Alphabetical is last name, then first
    name, case-insensitive (Unicode casefold); the player id breaks any remaining tie so the
    order never depends on input order. A64: accents file under their base letter ("Éclair"
    beside "Eclair", before "Zane"; "Ölsen" with the Os): names compare first without accents
    (last, then first name), and the accent only breaks an otherwise equal tie; the same name
    typed composed or decomposed sorts the same.
    """
    listed = list(entrants)
    check_unique((e.player for e in listed), what="the entrants")
    for entrant in listed:
        for part in ("first_name", "last_name"):
            if not isinstance(getattr(entrant, part), str):
                raise about_player(
                    "{player}'s {part} must be a string, got {got}",
                    entrant.player,
                    part=part,
                    got=repr(getattr(entrant, part)),
                )
        rank = entrant.ifpa_rank
        if rank is not None and (isinstance(rank, bool) or not isinstance(rank, int) or rank < 1):
            raise about_player(
                "{player}'s IFPA rank must be a positive integer, got {got}",
                entrant.player,
                got=repr(rank),
            )
    ranked = sorted(
        (e for e in listed if e.ifpa_rank is not None),
        key=lambda e: (e.ifpa_rank, *_name_key(e, ruleset)),
    )
    unranked = alphabetical((e for e in listed if e.ifpa_rank is None), ruleset=ruleset)
    return [e.player for e in ranked] + unranked


def alphabetical(entrants: Iterable[Entrant], *, ruleset: Ruleset = FWPL_V1) -> list[PlayerId]:
    """Players in "alphabetical" order as §4.3 means it (R4.3-b, A18.2, A64), for any list.

    Last name, then first name (or the `unranked_sort` alternative), Unicode casefold, accents
    filed under their base letter and breaking only an otherwise equal tie; then player id.
    """
    return [e.player for e in sorted(entrants, key=lambda e: _name_key(e, ruleset))]


def _name_key(entrant: Entrant, ruleset: Ruleset) -> tuple[str, ...]:
    last, first = _folded(entrant.last_name), _folded(entrant.first_name)
    words = (first, last) if ruleset.unranked_sort == "first_last_casefold" else (last, first)
    return (*(_unaccented(w) for w in words), *words, entrant.player)


def _folded(name: str) -> str:
    """Case-insensitive and independent of how the name was typed (composed or not)."""
    return unicodedata.normalize("NFC", unicodedata.normalize("NFC", name).casefold())


def _unaccented(name: str) -> str:
    decomposed = unicodedata.normalize("NFKD", name)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def ladder(
    points: Mapping[PlayerId, LeaguePoints],
    *,
    previous: Sequence[PlayerId],
    ruleset: Ruleset = FWPL_V1,
) -> list[PlayerId]:
    """The ladder for a later meet: season league points, best first (R3.1-b, R4.3-c, A18).

    points: each player's season league points so far (game points, match bonus and §2.4
    credits, A19); only these players are on the ladder.
    previous: the previous ladder; equal points keep their previous order (A18.1). A player
    not on it (a newcomer) ranks below every listed player with the same points (A18.4),
    newcomers among themselves by player id.
    """
    exact = {
        check_player(p): check_points(v, what="{player}'s league points", player=p)
        for p, v in points.items()
    }
    return ranked_ladder(exact, check_unique(previous, what="the previous ladder"), ruleset=ruleset)


def ranked_ladder(
    points: Mapping[PlayerId, LeaguePoints],
    previous: Sequence[PlayerId],
    *,
    ruleset: Ruleset,
) -> list[PlayerId]:
    """`ladder` for points already exact and non-negative and a previous ladder that lists each
    player once (R3.1-b, R4.3-c, A18.1, A18.4), as the season fold keeps them."""
    if ruleset.ladder_tiebreak != "previous_ladder_position":  # pragma: no cover - one option
        raise RuleError(f"unknown ladder_tiebreak setting {ruleset.ladder_tiebreak!r}")
    listed = set(previous)
    newcomers = sorted(p for p in points if p not in listed)
    by_previous = [p for p in previous if p in points]
    # A stable sort, best first (`reverse` keeps equal keys in order): equal points stay in
    # their previous order, newcomers below them by player id.
    return sorted([*by_previous, *newcomers], key=points.__getitem__, reverse=True)
