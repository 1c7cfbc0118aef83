"""Rate limits in the shared cache (issue 34 §3): every worker and process counts in one
place (Redis, else the database), and a limit that concerns a league is keyed by its league
and machine, so one machine's reports never silence another's."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.core.cache.backends.db import DatabaseCache
from django.core.exceptions import ValidationError

from flipwell.league import models as m
from flipwell.league import services
from flipwell.league.rate_limits import count, counted, shared_cache
from tests import factories as f

pytestmark = pytest.mark.django_db


def _fresh_client() -> DatabaseCache:
    """A cache client made now, as another worker process would make its own."""
    return DatabaseCache(settings.LIMITS_CACHE_TABLE, {})


def test_limits_cache_is_shared_by_every_process_not_the_processes_memory():
    """The limits cache is never a process's memory (issue 34 §3: per worker before)."""
    assert settings.CACHES["limits"]["BACKEND"] in (
        "django.core.cache.backends.db.DatabaseCache",
        "flipwell.serving.redis_cache.RedisCache",
    )


def test_two_cache_clients_share_one_count():
    one, other = _fresh_client(), _fresh_client()

    first = count("test", "203.0.113.7", window=3600, now=7200.0, cache=one)
    second = count("test", "203.0.113.7", window=3600, now=7201.0, cache=other)

    assert (first, second) == (1, 2)
    assert counted("test", "203.0.113.7", window=3600, now=7202.0) == 2


def test_count_starts_again_with_the_next_window():
    count("test", "x", window=60, now=600.0)
    count("test", "x", window=60, now=610.0)

    assert count("test", "x", window=60, now=660.0) == 1


def test_forgot_password_count_is_seen_by_a_fresh_client(rf, settings):
    """The forgot-password limit counted by one worker is seen by another (issue 34 §3)."""
    from flipwell.web.reset_limit import KIND, refusal

    settings.FORGOT_PASSWORD_WINDOW_MINUTES = 60
    request = rf.post("/manage/forgot-password/", REMOTE_ADDR="192.0.2.50")
    refusal(request, "lo@example.org", now=3600.0 * 5)

    seen = counted(KIND, "account", "lo@example.org", window=3600, now=3600.0 * 5 + 1,
                   cache=_fresh_client())  # fmt: skip

    assert seen == 1


def test_problem_report_limit_of_one_machine_does_not_silence_another(settings):
    """Issue 34 §3: one phone on a venue's shared Wi-Fi sends too many reports about one
    machine; the same address still reports another machine, and in another league."""
    settings.PROBLEM_REPORTS_PER_MACHINE = 2
    league = f.LeagueFactory()
    flooded, other = f.MachineFactory(league=league), f.MachineFactory(league=league)
    elsewhere = f.MachineFactory()
    for n in range(2):
        services.report_machine_problem(machine=flooded, text=f"Tilt {n}", address_hash="wifi")
    with pytest.raises(ValidationError) as refused:
        services.report_machine_problem(machine=flooded, text="Tilt 3", address_hash="wifi")

    services.report_machine_problem(machine=other, text="Dim GI", address_hash="wifi")
    services.report_machine_problem(machine=elsewhere, text="Dim GI", address_hash="wifi")

    assert "Too many reports from here" in refused.value.message_dict["text"][0]
    assert m.MachineProblemReport.objects.filter(address_hash="wifi").count() == 4


def test_problem_report_limit_is_counted_in_the_shared_cache(settings):
    """A report counted by one worker counts for the next one (the shared cache)."""
    settings.PROBLEM_REPORTS_PER_MACHINE = 1
    machine = f.MachineFactory()
    services.report_machine_problem(machine=machine, text="Tilt", address_hash="phone")
    shared_cache().close()  # as if the next request reached another worker

    with pytest.raises(ValidationError):
        services.report_machine_problem(machine=machine, text="Dim GI", address_hash="phone")


def test_count_lasts_to_the_end_of_its_window_in_the_database_cache():
    """Django's database cache stores an incremented value with its default timeout (300 s):
    an hour's count must not be forgotten after five minutes."""
    import time

    from django.db import connection

    client = _fresh_client()
    for _ in range(3):
        count("test", "long", window=3600, cache=client)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT expires FROM {settings.LIMITS_CACHE_TABLE}")
        (expires,) = cursor.fetchone()

    assert counted("test", "long", window=3600) == 3
    assert expires.timestamp() - time.time() > 3000


def test_migrate_makes_the_limits_table():
    """`flipwell migrate` (and so `make run` and a deployment's migrate step) leaves the shared
    cache's table in place: a database cache without its table would fail every limit."""
    from django.core.management import call_command
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(f"DROP TABLE {settings.LIMITS_CACHE_TABLE}")

    call_command("migrate", verbosity=0)

    assert settings.LIMITS_CACHE_TABLE in connection.introspection.table_names()
    assert count("test", "after-migrate", window=60) == 1
