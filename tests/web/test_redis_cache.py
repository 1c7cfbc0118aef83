"""The Redis cache backend (flipwell.serving.redis_cache): Django's, with one client per
connection pool; it stores, adds, counts and deletes as Django's does, on a real Redis."""

from __future__ import annotations

import os
import uuid

import pytest

from flipwell.serving.redis_cache import RedisCache

URL = os.environ.get("FLIPWELL_TEST_REDIS_URL", "redis://127.0.0.1:6379/13")


@pytest.fixture
def cache():
    redis = pytest.importorskip("redis")
    try:
        redis.Redis.from_url(URL, socket_connect_timeout=2).ping()
    except redis.RedisError:
        pytest.skip(f"no Redis server at {URL} (FLIPWELL_TEST_REDIS_URL)")
    made = RedisCache(URL, {"KEY_PREFIX": f"test-redis-cache-{uuid.uuid4().hex}"})
    yield made
    made.clear()


def test_every_command_uses_the_one_client_of_its_pool(cache):
    """Django's makes a redis.Redis per command, a twentieth of a busy night's interpreter
    time (bench_nights' profile)."""
    client = cache._cache.get_client(write=True)
    assert cache._cache.get_client(write=False) is client
    assert cache._cache.get_client("some key", write=True) is client


def test_it_stores_adds_counts_and_deletes_as_djangos_does(cache):
    cache.set("page", {"html": "<p>1</p>"}, timeout=60)
    assert cache.get("page") == {"html": "<p>1</p>"}
    assert cache.add("claim", 1, timeout=10) is True
    assert cache.add("claim", 2, timeout=10) is False  # a claim is taken once
    assert cache.get_many(["page", "claim", "none"]) == {"page": {"html": "<p>1</p>"}, "claim": 1}
    cache.set("count", 1, timeout=60)
    assert cache.incr("count") == 2
    assert cache.delete("claim") is True
    assert cache.get("claim") is None
