"""A backup file's format: its constants, the models it holds in dependency order, its
checksum and signature (the package's words apply: `flipwell.league.exchange.backup`).

Words:
- *canonical JSON*: keys sorted, no spaces, UTF-8: what the checksum and signature are of.
- *sealed*: signed by this installation, then checksummed.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import models
from django.utils.crypto import salted_hmac

from flipwell.league import enums

FORMAT = "flipwell-backup"
FORMAT_VERSION = 1
APP_LABEL = "league"
USER_FIELDS = ("username", "first_name", "last_name", "email", "password")
BATCH_SIZE = 500
CHECKSUM_PREFIX = "sha256:"
SIGNATURE_PREFIX = "hmac-sha256:"
SIGNATURE_SALT = "flipwell.league.exchange.backup"
"""The HMAC's salt: a key derived for backups only, never one that signs cookies or links."""
MAX_DEPTH = 64
"""The deepest nesting of JSON a backup file may have (see *depth*)."""
JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
JSON_BRACKET = re.compile(r"[\[\]{}]")
ROW_KEYS = frozenset({"pk", "fields"})
NOT_BACKED_UP: frozenset[str] = frozenset(
    {"league.apitoken", "league.derivedresult", "league.idempotencykey", "league.notice"}
)
"""League models whose rows a backup leaves out (see the module docstring)."""
LEGACY_VALUES: Mapping[tuple[str, str], Mapping[str, str]] = {
    ("league.specialruling", "kind"): enums.LEGACY_SPECIAL_RULING_KINDS,
}
"""(table, field) -> {value an older flipwell stored: today's value} (see *legacy values*)."""


class BackupError(Exception):
    """A backup file that cannot be read or restored here; the message says why and what to do."""


@dataclass(frozen=True)
class BackupSummary:
    """How many rows of each table a backup or restore handled (model label -> rows)."""

    rows: Mapping[str, int]

    @property
    def total(self) -> int:
        """Rows of every table together."""
        return sum(self.rows.values())


def backup_models() -> list[type[models.Model]]:
    """The user model, then every league model, in dependency order (see the module docstring).

    A cycle of foreign keys between models is a programming error and fails loudly.
    """
    user_model = get_user_model()
    league_models = league_app_models()
    pending = {model: _dependencies(model) & set(league_models) for model in league_models}
    ordered: list[type[models.Model]] = [user_model]
    while pending:
        # The first model (in the app's own order) whose dependencies are all placed.
        ready = next((m for m in league_models if m in pending and not pending[m]), None)
        if ready is None:
            cycle = ", ".join(sorted(m._meta.label for m in pending))
            raise RuntimeError(f"the league models' foreign keys form a cycle among {cycle}")
        ordered.append(ready)
        del pending[ready]
        for dependencies in pending.values():
            dependencies.discard(ready)
    return ordered


def league_app_models() -> list[type[models.Model]]:
    """The league app's models that a backup holds, in the app's own order."""
    found = apps.get_app_config(APP_LABEL).get_models()
    return [model for model in found if model._meta.label_lower not in NOT_BACKED_UP]


def _dependencies(model: type[models.Model]) -> set[type[models.Model]]:
    """The other models `model`'s foreign keys point to (a self-reference is not one)."""
    found: set[type[models.Model]] = set()
    for field in model._meta.concrete_fields:
        related = field.related_model
        if field.is_relation and isinstance(related, type) and related is not model:
            found.add(related)
    return found


def backup_checksum(document: Mapping[str, Any]) -> str:
    """The checksum of a backup document: SHA-256 of the canonical JSON of every key but
    ``"checksum"`` (see the module docstring)."""
    content = _canonical(document, leave_out=frozenset({"checksum"}))
    return CHECKSUM_PREFIX + hashlib.sha256(content).hexdigest()


def _canonical(document: Mapping[str, Any], *, leave_out: frozenset[str]) -> bytes:
    content = {key: value for key, value in document.items() if key not in leave_out}
    text = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return text.encode("utf-8")


def backup_signature(document: Mapping[str, Any], *, secret: str | bytes | None = None) -> str:
    """The signature of a backup document with this installation's key (or `secret`): an
    HMAC-SHA256 of the canonical JSON of every key but the checksum and the signature (see
    the module docstring)."""
    content = _canonical(document, leave_out=frozenset({"checksum", "signature"}))
    mac = salted_hmac(SIGNATURE_SALT, content, secret=secret, algorithm="sha256")
    return SIGNATURE_PREFIX + mac.hexdigest()


def seal(document: Mapping[str, Any]) -> dict[str, Any]:
    """The document signed by this installation, then checksummed (the checksum covers the
    signature), as `write_backup` writes it."""
    signed = {key: value for key, value in document.items() if key != "checksum"}
    signed["signature"] = backup_signature(signed)
    signed["checksum"] = backup_checksum(signed)
    return signed


def backup_fields(model: type[models.Model]) -> frozenset[str]:
    """The fields `backup` writes of a model's rows (besides the primary key)."""
    if model is get_user_model():
        return frozenset(USER_FIELDS)
    meta = model._meta  # as Django's serializer: every local field but the key, and m2m
    fields = [f.name for f in meta.local_fields if not f.primary_key]
    return frozenset([*fields, *(f.name for f in meta.local_many_to_many)])
