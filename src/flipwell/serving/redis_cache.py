"""Django's Redis cache backend, with one Redis client per connection pool instead of a new
one for every command.

Django's `RedisCacheClient.get_client` makes a ``redis.Redis`` for each command it sends;
building one reads and copies every option of the client (about 30 us here). A busy night's
profile of the workers (`bench/bench_nights.py`, py-spy ``--gil``) found those constructions
at a twentieth of the interpreter's time: the live parts' claims and looks, the shared pages
and the rate limits each send one or more commands per request or per revision. A client
holds nothing but its pool (where the connections are) and its options, so one per pool
serves every command of the backend, as redis-py means it to; a fork's pool reconnects by
itself (redis-py checks the process id).

Settings name it as the cache's ``BACKEND`` (`flipwell.settings.CACHES`).
"""

from __future__ import annotations

from typing import Any

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient


class PooledClients(RedisCacheClient):
    """`RedisCacheClient` whose ``redis.Redis`` is made once per pool and reused."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}
        """id of a pool -> its client (the pools live as long as this object)."""

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        # Django's own private names, as its get_client uses them (the stubs list the public)
        pool = self._get_connection_pool(write)  # type: ignore[attr-defined]
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = self._client(connection_pool=pool)  # type: ignore[attr-defined]
        return client


class RedisCache(DjangoRedisCache):
    """Django's Redis cache with `PooledClients`."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = PooledClients
