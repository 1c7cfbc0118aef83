"""Serving: how a request is answered beyond its view, and what is kept to answer the next.

Words:
- *conditional request* (`http_cache`): a GET answered ``304 Not Modified`` after one query
  when the page's entity tag (the code's build, the league's revision, the quarter hour, the
  variant, the site and the path) is the one the client holds; an anonymous page is served
  again from memory without running its view.
- *page memo*, *shared pages*, *render claim* (`pages`): where those pages are kept.
- *live stream* (`live`): a league's revision pushed to its TV, board and score sheets
  (Server-Sent Events), by one hub thread per process; *live parts* (`live_parts`): the
  parts of the board and the standings that changed, carried by the same events so those
  pages fetch nothing; *live events* (`live_events`): each league's new revision told to
  every process of every app server through Redis.
- *health* (`health`): ``/healthz``, whether this server can serve flipwell.
- *Redis cache* (`redis_cache`): Django's Redis cache backend, one client per connection
  pool (the settings' ``CACHES`` with ``REDIS_URL``).

These sit above both front ends (the web views and the API's operations use them), like the
settings and the URL configuration: they import the league, never a front end.

Every cache the servers keep, with the web's and the API's process constants, is in this
table (the derived data is in `flipwell.league.derived`'s; tests/test_caches_listed.py holds
both): what it holds, its key, when an entry is dropped, who reads it. "Once per process" is
a function's ``functools.cache`` or a module's flag: set on first use, kept until the process
ends.

+-----------------------------+------------------+-----------------+-----------------+-------------+
| cache                       | holds            | key             | dropped         | read by     |
+=============================+==================+=================+=================+=============+
| pages._pages (page memo)    | an anonymous     | its entity tag  | least recently  | http_cache  |
|                             | page as          |                 | used past       |             |
|                             | rendered and     |                 | PAGE_MEMO_SIZE; |             |
|                             | compressed, in   |                 | forget          |             |
|                             | this process     |                 |                 |             |
+-----------------------------+------------------+-----------------+-----------------+-------------+
| shared pages (Redis, with   | the same, for    | page:<tag>      | after a quarter | http_cache  |
| SHARED_PAGES)               | every worker     |                 | hour            |             |
|                             |                  |                 | (SHARED_PAGE_   |             |
|                             |                  |                 | SECONDS)        |             |
+-----------------------------+------------------+-----------------+-----------------+-------------+
| render claims (Redis)       | which worker     | rendering:<tag> | released after  | http_cache  |
|                             | renders a page   |                 | the render, or  |             |
|                             | now              |                 | after           |             |
|                             |                  |                 | RENDER_CLAIM_   |             |
|                             |                  |                 | SECONDS         |             |
+-----------------------------+------------------+-----------------+-----------------+-------------+
| pages._rendering            | the lock of each | its entity tag  | when its render | one_render  |
|                             | page being       |                 | ends and no     |             |
|                             | rendered in this |                 | thread waits    |             |
|                             | process          |                 |                 |             |
+-----------------------------+------------------+-----------------+-----------------+-------------+
| live._hubs                  | this process's   | process id (a   | never           | live.hub    |
|                             | hub of live      | fork makes its  |                 | (hand_off,  |
|                             | streams          | own)            |                 | the         |
|                             |                  |                 |                 | stream's    |
|                             |                  |                 |                 | view)       |
+-----------------------------+------------------+-----------------+-----------------+-------------+
| a hub's parts memo          | the live pages'  | (page, revision | least recently  | the hub     |
| (live_parts.Memo, one per   | parts it         | told of); the   | used past       | (live.Hub)  |
| hub)                        | rendered or read | parts' revision | RENDERED_KEPT / |             |
|                             | for its streams  | (bases)         | KEPT_PER_PAGE   |             |
+-----------------------------+------------------+-----------------+-----------------+-------------+
| shared parts (Redis, with   | a live page's    | parts:<page>:   | after a quarter | the hubs    |
| SHARED_PAGES)               | parts for every  | <league>:<revi- | hour (SHARED_   | (live_parts |
|                             | worker's hub     | sion>:<build>   | SECONDS)        | .shared)    |
+-----------------------------+------------------+-----------------+-----------------+-------------+
| parts render claims (Redis) | which worker     | rendering-parts | released after  | the hubs    |
|                             | renders a page's | :<the same>     | the render, or  |             |
|                             | parts now        |                 | after CLAIM_    |             |
|                             |                  |                 | SECONDS         |             |
+-----------------------------+------------------+-----------------+-----------------+-------------+
| live_parts._cards (the web's| a board group's  | (league, the    | least recently  | board_parts |
| flipwell.web.live_parts)    | card's HTML, in  | machines' URL,  | used past       | (the hub's  |
|                             | this process     | the group as    | CARDS_KEPT      | renders)    |
|                             |                  | shown)          |                 |             |
+-----------------------------+------------------+-----------------+-----------------+-------------+
| live_parts._written         | (league,         | none (the       | oldest past     | the hub     |
|                             | revision) of     | latest          | WRITTEN_KEPT    | (its renders|
|                             | this process's   | WRITTEN_KEPT)   |                 | go first)   |
|                             | latest writes    |                 |                 |             |
+-----------------------------+------------------+-----------------+-----------------+-------------+
| live_parts._waiting         | the word each    | the parts' tag  | when the wait   | live_parts  |
|                             | hub waiting for  | (as shared      | ends (the parts | .arrived    |
|                             | another worker's | parts)          | found, or none) | (the        |
|                             | render of parts  |                 |                 | listener)   |
|                             | waits on         |                 |                 |             |
+-----------------------------+------------------+-----------------+-----------------+-------------+
| live_events._client         | this process's   | none (once per  | never (redis-py | live_events |
|                             | Redis client for | process)        | reconnects; a   | .publish    |
|                             | publishing live  |                 | fork gets new   |             |
|                             | events           |                 | connections)    |             |
+-----------------------------+------------------+-----------------+-----------------+-------------+
| live_events._publish_failing| whether the last | none (a flag)   | the next        | live_events |
|                             | publish failed   |                 | publish that    | .publish    |
|                             | (logged once)    |                 | works           |             |
+-----------------------------+------------------+-----------------+-----------------+-------------+
| health._migrations_applied  | whether every    | none (once per  | never: new      | health      |
|                             | migration was    | process)        | migrations come |             |
|                             | once found       |                 | with new code,  |             |
|                             | applied          |                 | a new process   |             |
+-----------------------------+------------------+-----------------+-----------------+-------------+
| service_worker._script      | the score        | none (once per  | never           | its view    |
|                             | sheet's service  | process)        |                 |             |
|                             | worker script    |                 |                 |             |
+-----------------------------+------------------+-----------------+-----------------+-------------+
| time_zones.geographic_zones | this machine's   | none (once per  | never           | the time    |
|                             | geographic time  | process)        |                 | zone fields |
|                             | zones            |                 |                 |             |
+-----------------------------+------------------+-----------------+-----------------+-------------+
| refusal_codes.modules       | the league app's | none (once per  | never           | codes_of    |
|                             | and the API's    | process)        |                 |             |
|                             | modules, parsed  |                 |                 |             |
+-----------------------------+------------------+-----------------+-----------------+-------------+
| refusal_codes.codes_of      | the refusal      | (module,        | never           | the OpenAPI |
|                             | codes a function | function)       |                 | document    |
|                             | can answer       |                 |                 |             |
+-----------------------------+------------------+-----------------+-----------------+-------------+

An entry of the page memo or the shared pages is never invalidated: a write gives its league
a new revision, and so its pages new tags. `flipwell.league.derived.caches.forget` empties the
page memo (tests; a restore in a running process). The shared cache holds nothing needed for
correctness: when it fails, the page is rendered.
"""
