"""Reading a backup file: parsed and checked to be a flipwell backup this version reads, its
checksum and signature verified, and what it holds, a line per league (the package's words
apply: `flipwell.league.exchange.backup`).

Words:
- *unsigned reason*: why this installation's signature does not vouch for a file ("" when it
  does): none, another installation's, or a changed file.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from django.conf import settings
from django.utils.crypto import constant_time_compare

from flipwell.league.exchange.backup.format import (
    FORMAT,
    FORMAT_VERSION,
    JSON_BRACKET,
    JSON_STRING,
    MAX_DEPTH,
    BackupError,
    backup_checksum,
    backup_signature,
)


def read_backup(path: Path, *, verify: bool = True, trust_unsigned: bool = False) -> dict[str, Any]:
    """The parsed backup file at `path`, checked to be a flipwell backup this version reads
    and, when `verify`, to carry a checksum that matches its content and, unless
    `trust_unsigned`, this installation's signature (`unsigned_reason` says what is wrong)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise BackupError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as error:
        raise BackupError(f"{path}: cannot read it ({error})") from error
    deepest = json_depth(text)
    if deepest > MAX_DEPTH:
        raise BackupError(
            f"{path} is not a flipwell backup: its JSON is nested {deepest} levels deep, and a "
            f"backup is at most {MAX_DEPTH} (the file is damaged or was made to break readers)"
        )
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise BackupError(f"{path}: not valid JSON ({error})") from error
    except RecursionError as error:  # within MAX_DEPTH on a shallow stack only
        raise BackupError(f"{path}: nested too deeply to read") from error
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise BackupError(
            f'{path} is not a flipwell backup: it has no "format": "{FORMAT}" '
            "(make one with `flipwell backup FILE`)"
        )
    version = document.get("format_version")
    if version != FORMAT_VERSION:
        raise BackupError(
            f"{path} is a backup in format version {version!r}; this flipwell reads version "
            f"{FORMAT_VERSION} only"
        )
    tables = document.get("tables")
    if not isinstance(tables, list) or not all(
        isinstance(t, dict) and isinstance(t.get("model"), str) and isinstance(t.get("rows"), list)
        for t in tables
    ):
        raise BackupError(f'{path}: "tables" must be a list of {{"model", "rows"}} objects')
    if verify:
        _check_checksum(path, document)
        if not trust_unsigned:
            reason = unsigned_reason(path, document)
            if reason:
                raise BackupError(
                    f"{reason} Restore a backup this installation made; only if you trust this "
                    f"file (you made it on another installation of yours), `flipwell restore "
                    f"--trust-unsigned {path}` restores it and shows what it holds."
                )
    return document


def json_depth(text: str) -> int:
    """How deeply the JSON `text` nests arrays and objects (brackets outside strings), found
    without recursion: the check that runs before a parser that recurses."""
    depth = deepest = 0
    for bracket in JSON_BRACKET.findall(JSON_STRING.sub("", text)):
        depth += 1 if bracket in "[{" else -1
        deepest = max(deepest, depth)
    return deepest


def unsigned_reason(path: Path, document: Mapping[str, Any]) -> str:
    """Why this installation's signature does not vouch for the document ("" when it does)."""
    stored = document.get("signature")
    if stored is None:
        return (
            f"{path} is not signed, so flipwell cannot tell that this installation made it and "
            "that nobody changed it (backups made before flipwell signed them have no "
            "signature)."
        )
    secrets = [settings.SECRET_KEY, *settings.SECRET_KEY_FALLBACKS]
    if not isinstance(stored, str) or not any(
        constant_time_compare(stored, backup_signature(document, secret=secret))
        for secret in secrets
    ):
        return (
            f"{path} is not signed by this installation: another flipwell (with another "
            "SECRET_KEY) made it, or someone changed it after `flipwell backup` wrote it and "
            "computed its checksum again."
        )
    return ""


def backup_contents(document: Mapping[str, Any]) -> list[str]:
    """What a backup holds, a line per league (its seasons, players entered, meets and ledger
    by kind), read from the document before anything is restored: what a restore would add."""
    rows = {
        table["model"]: [row for row in table["rows"] if isinstance(row, dict)]
        for table in document.get("tables", [])
    }

    def fields(row: Mapping[str, Any]) -> Mapping[str, Any]:
        value = row.get("fields")
        return value if isinstance(value, dict) else {}

    def ref(value: object) -> int | str | None:
        """A pk or a reference as a key; the rows are not checked yet, so it may be anything."""
        return value if isinstance(value, int | str) else None

    season_league = {
        ref(r.get("pk")): ref(fields(r).get("league")) for r in rows.get("league.season", [])
    }
    counts: dict[object, Counter[str]] = defaultdict(Counter)
    for label, word in (("league.seasonentry", "players"), ("league.meet", "meets")):
        for row in rows.get(label, []):
            counts[season_league.get(ref(fields(row).get("season")))][word] += 1
    for owner in season_league.values():
        counts[owner]["seasons"] += 1
    money: dict[object, Counter[str]] = defaultdict(Counter)
    for row in rows.get("league.ledgerentry", []):
        entry = fields(row)
        amount = entry.get("amount_cents")
        counts[ref(entry.get("league"))]["ledger entries"] += 1
        if isinstance(amount, int):
            money[ref(entry.get("league"))][str(entry.get("kind"))[:20]] += amount
    lines = []
    for league in rows.get("league.league", []):
        about = fields(league)
        held = counts[ref(league.get("pk"))]
        words = ", ".join(
            f"{held[word]} {word}" for word in ("seasons", "players", "meets", "ledger entries")
        )
        ledger = "; ".join(
            f"{kind} {cents / 100:,.2f}"
            for kind, cents in sorted(money[ref(league.get("pk"))].items())
        )
        lines.append(
            f"League “{str(about.get('name'))[:80]}” ({str(about.get('slug'))[:60]}): {words}"
            + (f" (in all: {ledger})" if ledger else "")
        )
    return lines


def _check_checksum(path: Path, document: Mapping[str, Any]) -> None:
    stored = document.get("checksum")
    if stored is None:
        raise BackupError(
            f"{path} has no checksum, so flipwell cannot tell whether it is complete and "
            "unchanged (backups made before flipwell wrote checksums have none). If you trust "
            f"the file, restore it with `flipwell restore --no-verify {path}`; every row is "
            "still checked."
        )
    if stored != backup_checksum(document):
        raise BackupError(
            f"{path} does not match its checksum: the file is damaged or was edited after "
            "`flipwell backup` wrote it. Restore an undamaged copy; only if you changed it on "
            f"purpose, `flipwell restore --no-verify {path}` (every row is still checked)."
        )
