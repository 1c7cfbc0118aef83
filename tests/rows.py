"""How many rows each model holds, read in one query: the permission matrices and the form-key
crawl compare it before and after each refused write (thousands of times per run, so one
COUNT per model and per comparison would be most of their time)."""

from __future__ import annotations

from django.apps import apps
from django.db import connection


def row_counts() -> dict[str, int]:
    """Rows per model (its label), the audit log and the users included."""
    models = [model for model in apps.get_models() if not model._meta.proxy]
    quote = connection.ops.quote_name
    counts = ", ".join(f"(SELECT COUNT(*) FROM {quote(model._meta.db_table)})" for model in models)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {counts}")
        row = cursor.fetchone()
    return {model._meta.label: count for model, count in zip(models, row, strict=True)}
