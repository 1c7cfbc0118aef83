"""bench_nights' client: one process playing some leagues' nights and watching them, on one
asyncio loop (thousands of streams and their viewers' fetches without a thread each).

Words:
- *league* (`League`): what a client needs to play one league's night: its slug, API token,
  season, meet and groups.
- *phones*: each group's players' phones, as in bench_night: after each game one enters the
  score sheet, another confirms it (R3-a), the picker chooses the next machine (R5-c). In the
  first group of each league, before game 2's sheet, the LO records a power loss on the last
  player's ball 1 (R7.3-i), grants them the compensatory game (R7.3-k) and records its score
  (R7.3-m). In the second group, after game 1 is confirmed, its first player asks to correct
  the second player's score (R3-b) and the other players agree, one answer each (R3-c, R3-d).
- *viewer*: a browser with the meet board open (and the standings beside it): its live
  stream, watching both pages (``/live/<slug>/events/?board=<meet>&standings=<season>``,
  the queries each page's live.js adds), and on each new revision the stream brings, the
  pages' parts the event carries, taken as live.js takes them (`Seen`: every part, or the
  changes from the parts it has), with no fetch. After a random part of `SPREAD_SECONDS`
  (as live.js waits; the revisions heard meanwhile fetched once), a page whose parts did not
  come is fetched: the board, and the standings when the event's standings part changed
  (a score confirmed; not a sheet entered or a machine chosen), each as htmx asks
  (``HX-Request``) with the ETag it was last given in ``If-None-Match`` and accepting gzip,
  as a browser would; parts that did not fit (changes from other parts than the page has)
  have the stream opened again at once, as live.js does. A board's groups stay the same all
  night, so every part of it always fits (live.js checks the ids; the viewer need not). A
  stream that ends (the server ends each after a few minutes) is opened again after its
  ``retry:`` with its ``Last-Event-ID``, as EventSource does.
- *score-to-screen delay*: from the moment a confirmation is sent to the moment a stream of
  its league reads a revision other than the one it had then (bench_sse's measure), for
  every (confirmation, stream) pair; a stream that hears nothing within `DELIVERY_WAIT`
  counts as missed. Another write of the same league in between can only make an event come
  sooner.

Every request opens its own connection (a phone or a page a few seconds apart finds its
keep-alive connection closed anyway) and says ``Connection: close``.
"""

from __future__ import annotations

import asyncio
import bisect
import json
import random
import resource
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

from nightplay import (
    GAMES_PER_MATCH,
    OK_READS,
    OK_WRITES,
    Group,
    Reply,
    Timings,
    confirmer,
    json_object,
    picker,
    sheet,
)

WRITE_KINDS = (
    "score entry",
    "confirmation",
    "next machine",
    "malfunction",
    "compensatory grant",
    "compensatory score",
    "correction request",
    "correction answer",
)
PAGE_KINDS = ("meet board", "standings")
BROWSER_ENCODINGS = "gzip, deflate, br"
"""What a viewer's browser accepts: a kept page comes compressed (`flipwell.serving.pages`)."""
SPREAD_SECONDS = 0.75
"""How long a viewer may wait after a new revision before it fetches: live.js's SPREAD_MS."""
STREAM_KIND = "stream opened"
EVENT_LIMIT = 4 * 1024 * 1024
"""The longest event line a stream reads (asyncio's default, 64 KB, is less than the first
event of a 48-player league's standings and board)."""
KINDS = (*WRITE_KINDS, *PAGE_KINDS, STREAM_KIND)
DELIVERY_WAIT = 5.0
OPEN_AT_ONCE = 50
RETRY_SECONDS = 2.0
REQUEST_SECONDS = 60.0


@dataclass(eq=False)
class Seen:
    """What one viewer's stream heard: a new revision (`change`), whether the standings part
    (``standings``: the last heard) changed since the viewer last fetched them, the revision
    of each watched page's parts it took (`bases`), and the pages whose parts an event did
    not bring (`stale`: fetched at the next refresh), as live.js keeps them."""

    change: asyncio.Event = field(default_factory=asyncio.Event)
    standings: int | None = None
    standings_changed: bool = False
    bases: dict[str, int | None] = field(default_factory=dict)
    stale: set[str] = field(default_factory=set)
    taken: int = 0
    refused: int = 0

    def heard(
        self, standings: int, entries: list[dict[str, Any]], watches: tuple[str, ...]
    ) -> bool:
        """A new revision with the standings part `standings` and these parts (live.js's
        `heardEvent` and `changed`); whether an entry was not taken (the stream is reopened)."""
        taken: dict[str, bool] = {}  # watch -> every part taken
        refused = False
        for entry in entries:
            if self._take(entry):
                taken[entry["watch"]] = entry.get("base", 0) is None
            else:
                refused = True
        for watch in watches:
            if watch not in taken:
                self.stale.add(watch)
            elif taken[watch]:
                self.stale.discard(watch)
        if self.standings is None or standings != self.standings:
            self.standings_changed = True
        self.standings = standings
        self.change.set()
        return refused

    def first(self, standings: int, entries: list[dict[str, Any]]) -> None:
        """The stream's first event, before the night: the pages as they are (the parts the
        hub sends a stream with no revision, taken; the standings part they show)."""
        for entry in entries:
            self._take(entry)
        if self.standings is None:
            self.standings = standings

    def _take(self, entry: dict[str, Any]) -> bool:
        """Whether the page takes the entry (live.js's `take`; a board's groups stay the same
        all night, so every part always fits it)."""
        if entry.get("overtaken"):
            return True  # the next event brings the parts
        if entry["base"] is not None and entry["base"] != self.bases.get(entry["watch"]):
            self.refused += 1
            return False
        self.bases[entry["watch"]] = int(entry["revision"])
        self.taken += 1
        return True

    def fetched(self, watch: str) -> None:
        """The page `watch` was fetched: it has none of the stream's parts."""
        self.bases[watch] = None


@dataclass(frozen=True)
class League:
    slug: str
    token: str
    season: int
    meet: int
    groups: tuple[Group, ...]

    @property
    def watches(self) -> tuple[str, str]:
        """The pages a viewer's stream watches: the board's and the standings' queries."""
        return f"board={self.meet}", f"standings={self.season}"


@dataclass(frozen=True)
class Plan:
    """What one client process does: the server, its leagues, viewers per league, the night's
    length (four games per group)."""

    host: str
    port: int
    leagues: tuple[League, ...]
    viewers: int
    night_seconds: float


@dataclass
class Outcome:
    """What one client process measured."""

    timings: dict[str, Timings] = field(default_factory=lambda: {k: Timings() for k in KINDS})
    delays: list[float | None] = field(default_factory=list)
    streams: int = 0
    reconnections: int = 0
    parts_taken: int = 0
    parts_refused: int = 0
    cpu_seconds: float = 0.0
    peak_rss_mb: float = 0.0


def run(plan: Plan, ready: Any, go: Any, answers: Any) -> None:
    """A client process's body: open the streams, say `ready`, wait for `go`, play the
    nights; put the `Outcome` on `answers`."""
    outcome = asyncio.run(Night(plan).play(ready, go))
    usage = resource.getrusage(resource.RUSAGE_SELF)
    outcome.cpu_seconds = usage.ru_utime + usage.ru_stime
    outcome.peak_rss_mb = usage.ru_maxrss / 1024
    answers.put(outcome)


class Night:
    def __init__(self, plan: Plan) -> None:
        self.plan = plan
        self.outcome = Outcome()
        self.over = False
        self.heard: list[tuple[int, list[tuple[float, int]]]] = []  # (league, its events)
        self.confirmed: list[tuple[int, float]] = []  # (league, when the confirmation was sent)
        self.writers: set[asyncio.StreamWriter] = set()
        self.tasks: list[asyncio.Task[None]] = []  # the streams' readers

    async def play(self, ready: Any, go: Any) -> Outcome:
        changes = await self._open_streams()
        ready.set()
        await asyncio.get_running_loop().run_in_executor(None, go.wait)
        for seen in changes:
            seen.change.clear()
        viewers = [
            asyncio.create_task(self._viewer(self.plan.leagues[index], seen))
            for seen, index in changes.items()
        ]
        phones = [
            self._match(index, league, group)
            for index, league in enumerate(self.plan.leagues)
            for group in league.groups
        ]
        await asyncio.gather(*phones)
        await asyncio.sleep(DELIVERY_WAIT)
        end = time.monotonic() - DELIVERY_WAIT
        self.over = True
        for writer in list(self.writers):
            writer.close()
        for task in viewers:
            task.cancel()
        self.outcome.delays = self._delays(end)
        self.outcome.parts_taken = sum(seen.taken for seen in changes)
        self.outcome.parts_refused = sum(seen.refused for seen in changes)
        return self.outcome

    # --- the viewers ------------------------------------------------------------------------

    async def _open_streams(self) -> dict[Seen, int]:
        """Every viewer's stream open (and read by a task of its own); what each viewer's
        stream heard, with its league's index."""
        changes: dict[Seen, int] = {}
        wanted = [i for i in range(len(self.plan.leagues)) for _ in range(self.plan.viewers)]
        for start in range(0, len(wanted), OPEN_AT_ONCE):
            batch = []
            for index in wanted[start : start + OPEN_AT_ONCE]:
                seen, opened = Seen(), asyncio.Event()
                heard: list[tuple[float, int]] = []
                changes[seen] = index
                self.heard.append((index, heard))
                batch.append(opened.wait())
                self.tasks.append(asyncio.create_task(self._stream(index, heard, seen, opened)))
            await asyncio.gather(*batch)
        return changes

    async def _stream(
        self,
        index: int,
        heard: list[tuple[float, int]],
        seen: Seen,
        opened: asyncio.Event,
    ) -> None:
        """One viewer's stream, opened again whenever it ends, until the night is over."""
        league = self.plan.leagues[index]
        path = f"/live/{league.slug}/events/?{'&'.join(league.watches)}"
        timings = self.outcome.timings[STREAM_KIND]
        while not self.over:
            headers = {"Accept": "text/event-stream"}
            if heard:
                headers["Last-Event-ID"] = str(heard[-1][1])
            started = time.perf_counter()
            try:
                reader, writer = await asyncio.open_connection(
                    self.plan.host, self.plan.port, limit=EVENT_LIMIT
                )
            except OSError as error:
                timings.add(Reply(0, {"error": str(error)}, None), 0.0, "stream", OK_READS)
                opened.set()
                await asyncio.sleep(RETRY_SECONDS)
                continue
            self.writers.add(writer)
            reopen = False
            try:
                reopen = await self._listen(
                    (path, league.watches), reader, writer, headers, started, heard, seen, opened
                )
            except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
                pass
            finally:
                self.writers.discard(writer)
                writer.close()
            opened.set()
            if not self.over:
                self.outcome.reconnections += 1
                if not reopen:
                    await asyncio.sleep(RETRY_SECONDS)

    async def _listen(
        self,
        stream: tuple[str, tuple[str, ...]],
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        headers: dict[str, str],
        started: float,
        heard: list[tuple[float, int]],
        seen: Seen,
        opened: asyncio.Event,
    ) -> bool:
        """Read the stream until it ends (False) or its parts were not taken (True: live.js
        opens it again at once)."""
        path, watches = stream
        writer.write(self._head("GET", path, headers, b""))
        await writer.drain()
        status = (await reader.readline()).decode("latin-1")
        head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").lower()
        code = int(status.split()[1]) if len(status.split()) > 1 else 0
        ok = code == 200 and "content-type: text/event-stream" in head
        reply = Reply(code if ok or code != 200 else 0, {}, None)
        ms = (time.perf_counter() - started) * 1e3
        self.outcome.timings[STREAM_KIND].add(reply, ms, path, OK_READS)
        if not ok:
            return False
        self.outcome.streams += 1
        opened.set()
        while line := await reader.readline():
            if line.startswith(b"data: "):
                data = json.loads(line[6:])
                revision, standings = int(data["revision"]), int(data["standings"])
                refused = False
                if heard and heard[-1][1] != revision:
                    refused = seen.heard(standings, data.get("parts", []), watches)
                else:  # the viewer's first event: what its pages show already
                    seen.first(standings, data.get("parts", []))
                heard.append((time.monotonic(), revision))
                if refused:
                    return True
        return False

    async def _viewer(self, league: League, seen: Seen) -> None:
        """After new revisions, the board's fragment when their parts did not come, and the
        standings when their part changed and their parts did not come, with their ETags, as
        htmx asks for them (live.js)."""
        board, standings = league.watches
        paths = {
            board: ("meet board", f"/leagues/{league.slug}/meets/{league.meet}/"),
            standings: ("standings", f"/leagues/{league.slug}/seasons/{league.season}/"),
        }
        fragment = {"HX-Request": "true", "Accept-Encoding": BROWSER_ENCODINGS}
        tags: dict[str, str] = {}
        while True:
            await seen.change.wait()
            await asyncio.sleep(random.uniform(0, SPREAD_SECONDS))
            seen.change.clear()
            missed, seen.stale = seen.stale, set()
            if not seen.standings_changed:
                missed.discard(standings)
            seen.standings_changed = False
            for watch in missed:
                seen.fetched(watch)
            await asyncio.gather(
                *(self._page(*paths[watch], fragment, tags) for watch in sorted(missed))
            )

    async def _page(
        self, kind: str, path: str, headers: dict[str, str], tags: dict[str, str]
    ) -> None:
        if path in tags:
            headers = {**headers, "If-None-Match": tags[path]}
        reply, ms = await self.request("GET", path, headers)
        self.outcome.timings[kind].add(reply, ms, path, OK_READS)
        if reply.etag:
            tags[path] = reply.etag

    def _delays(self, end: float) -> list[float | None]:
        by_league: dict[int, list[float]] = {}
        for index, sent in self.confirmed:
            if sent <= end:
                by_league.setdefault(index, []).append(sent)
        delays: list[float | None] = []
        for index, heard in self.heard:
            times = [t for t, _ in heard]
            for sent in by_league.get(index, []):
                first = bisect.bisect_left(times, sent)
                before = heard[first - 1][1] if first else None
                later = (t - sent for t, rev in heard[first:] if rev != before)
                delays.append(next(later, None))
        return delays

    # --- the phones -------------------------------------------------------------------------

    async def _match(self, index: int, league: League, group: Group) -> None:
        """A group's four games, as its phones play them (see the module's words)."""
        rng = random.Random(group.id)
        game_seconds = self.plan.night_seconds / GAMES_PER_MATCH
        game_id = group.first_game
        malfunctions = group == league.groups[0]
        corrects = len(league.groups) > 1 and group == league.groups[1]
        for number in range(1, GAMES_PER_MATCH + 1):
            await asyncio.sleep(game_seconds * rng.uniform(0.6, 0.95))  # the game is played
            if number == 2 and malfunctions and not await self._malfunction(league, group, game_id):
                return
            body = sheet(group, number, rng, f"bench-nights-{group.id}-{number}")
            entered = await self._write(
                league, "score entry", f"/api/v1/games/{game_id}/scores", body
            )
            if entered is None:
                return
            await asyncio.sleep(rng.uniform(1.0, 4.0))  # another player reads the sheet
            self.confirmed.append((index, time.monotonic()))
            confirmation = {"confirmed_by": confirmer(group, number)}
            submission = entered["submission"]["id"]
            path = f"/api/v1/submissions/{submission}/confirm"
            if await self._write(league, "confirmation", path, confirmation) is None:
                return
            if (
                number == 1
                and corrects
                and not await self._correction(league, group, game_id, body)
            ):
                return
            if number == GAMES_PER_MATCH:
                return
            await asyncio.sleep(rng.uniform(1.0, 3.0))
            choice = {"machine": group.machines[number - 1], "chosen_by": picker(entered["points"])}
            chosen = await self._write(
                league, "next machine", f"/api/v1/groups/{group.id}/next-game", choice
            )
            if chosen is None:
                return
            game_id = chosen["game_id"]

    async def _malfunction(self, league: League, group: Group, game_id: int) -> bool:
        """A power loss on the last player's ball 1, their compensatory game granted and scored."""
        player = group.players[-1]
        game = f"/api/v1/games/{game_id}"
        steps = (
            (
                "malfunction",
                "malfunctions",
                {"player": player, "ball": 1, "reason_code": "power_loss", "ball_in_play": False},
            ),
            ("compensatory grant", "compensatory-requests", {"player": player}),
            ("compensatory score", "compensatory-games", {"player": player, "new_score": 123_450}),
        )
        for kind, path, body in steps:
            if await self._write(league, kind, f"{game}/{path}", body) is None:
                return False
            await asyncio.sleep(1.0)
        return True

    async def _correction(
        self, league: League, group: Group, game_id: int, entered: dict[str, Any]
    ) -> bool:
        """The first player asks to correct the second's score; the others agree in turn."""
        requester, corrected = group.players[0], group.players[1]
        score = next(s["machine_score"] for s in entered["scores"] if s["player"] == corrected)
        asked = await self._write(
            league,
            "correction request",
            f"/api/v1/games/{game_id}/corrections",
            {
                "requested_by": requester,
                "scores": [{"player": corrected, "machine_score": score + 5}],
                "reason": "The last digit was misread",
            },
        )
        if asked is None:
            return False
        for player in group.players[1:]:
            await asyncio.sleep(1.0)
            path = f"/api/v1/corrections/{asked['id']}/answers"
            answer = await self._write(
                league, "correction answer", path, {"player": player, "agrees": True}
            )
            if answer is None:
                return False
            if answer.get("status") != "pending":
                return True
        return True

    async def _write(
        self, league: League, kind: str, path: str, body: object
    ) -> dict[str, Any] | None:
        headers = {
            "Authorization": f"Bearer {league.token}",
            "Idempotency-Key": uuid.uuid4().hex,  # as a careful client: every write its own key
        }
        reply, ms = await self.request("POST", path, headers, body)
        ok = self.outcome.timings[kind].add(reply, ms, f"{league.slug} {path}", OK_WRITES)
        return reply.body if ok else None

    # --- HTTP -------------------------------------------------------------------------------

    def _head(self, method: str, path: str, headers: dict[str, str], data: bytes) -> bytes:
        lines = [f"{method} {path} HTTP/1.1", f"Host: {self.plan.host}:{self.plan.port}"]
        lines += [f"{name}: {value}" for name, value in headers.items()]
        if data:
            lines += ["Content-Type: application/json", f"Content-Length: {len(data)}"]
        return ("\r\n".join(lines) + "\r\n\r\n").encode() + data

    async def request(
        self, method: str, path: str, headers: dict[str, str], body: object = None
    ) -> tuple[Reply, float]:
        """The reply and its latency in milliseconds; status 0 when the connection failed."""
        data = json.dumps(body).encode() if body is not None else b""
        started = time.perf_counter()
        try:
            raw = await asyncio.wait_for(
                self._exchange(self._head(method, path, {**headers, "Connection": "close"}, data)),
                REQUEST_SECONDS,
            )
        except (OSError, TimeoutError, asyncio.IncompleteReadError):
            return Reply(0, {}, None), (time.perf_counter() - started) * 1e3
        ms = (time.perf_counter() - started) * 1e3
        head, _, content = raw.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        parts = lines[0].split()
        status = int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0
        fields = dict(line.split(": ", 1) for line in lines[1:] if ": " in line)
        found = {name.lower(): value for name, value in fields.items()}
        json_reply = found.get("content-type", "").startswith("application/json")
        parsed = json_object(content) if json_reply else {}
        return Reply(status, parsed, found.get("etag")), ms

    async def _exchange(self, request: bytes) -> bytes:
        reader, writer = await asyncio.open_connection(self.plan.host, self.plan.port)
        try:
            writer.write(request)
            await writer.drain()
            return await reader.read()
        finally:
            writer.close()
