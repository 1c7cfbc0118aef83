/* flipwell live pages: the league's revision pushed by the server (Server-Sent Events,
 * /live/<slug>/events/, flipwell.serving.live), so the TV, the meet board and the score
 * sheet refresh as soon as something changed instead of on their timer.
 * The page names its stream and the revision it was rendered at on an element:
 * [data-live-events] (the stream's URL) and [data-live-revision]. On a new revision, each
 * [data-live-refresh] element gets the htmx event "flipwell:live" (its hx-trigger lists it:
 * the same request as its poll, answered 304 when its part did not change), and the document
 * gets "flipwell:live" (the score sheet listens). An element of
 * [data-live-refresh="standings"] shows only the standings: it gets the event only when the
 * event's standings part changed (flipwell.league.revisions: a score entered but not yet
 * confirmed, a machine chosen, leave the standings as they were), or when this page has not
 * heard the part yet. While the stream is heard from (the server
 * repeats the revision every 15 s), the elements' own polls are skipped; when it fails (no
 * EventSource, a refused or broken stream, 40 s of silence) they run again as before.
 * EventSource reconnects by itself and sends the last revision it saw (Last-Event-ID).
 * Spread: a new revision reaches every open page of the league in the same instant (a venue's
 * TV, the boards on the players' phones, the standings at home), so each page waits a random
 * part of SPREAD_MS before it asks for its parts, and revisions that arrive meanwhile are
 * fetched by that one refresh: a hundred viewers' requests come over SPREAD_MS instead of at
 * once, and the server answers each without a queue (bench_nights' viewers do the same).
 * Parts: a meet board's stream (its [data-live-board] holder names the meet) gets, in each
 * event, the board's parts that changed since the parts it was last sent (the machines line,
 * a group's card: [data-live-part], each replaced whole by id; flipwell.serving.live_parts),
 * so the board fetches nothing. The holder's data-live-parts says which parts it has; an
 * event whose base is another (the board was fetched meanwhile), or whose full set of parts
 * is not the board's, is not taken: the board is fetched, and the stream reopened, so that
 * its next event carries every part.
 * No inline script: the CSP forbids it. */
(function () {
  "use strict";
  var SILENT_MS = 40000;
  var SPREAD_MS = 750;
  var pending = null;
  var source = null;
  var revision = null;
  var standings = null;  /* the standings part last refreshed for; null: not heard yet */
  var standingsChanged = false;
  var stale = false;  /* a revision the page's parts did not take: its fragments are fetched */
  var heard = 0;

  function open() {
    return source !== null && source.readyState === 1 && Date.now() - heard < SILENT_MS;
  }
  window.flipwellLive = { open: open };

  function refresh() {
    var withStandings = standingsChanged;
    var withParts = stale;
    pending = null;
    standingsChanged = false;
    stale = false;
    document.querySelectorAll("[data-live-refresh]").forEach(function (element) {
      var part = element.getAttribute("data-live-refresh");
      if (part === "standings" ? !withStandings : !withParts) { return; }
      if (window.htmx) { window.htmx.trigger(element, "flipwell:live"); }
    });
    document.dispatchEvent(new CustomEvent("flipwell:live"));
  }

  /* taken: the event's parts were taken (every part: the board is whole again, so a fetch
   * an earlier revision asked for is not needed); false: the page's parts are fetched. */
  function changed(part, taken, every) {
    if (standings === null || part !== standings) { standingsChanged = true; }
    standings = part;
    if (!taken) { stale = true; } else if (every) { stale = false; }
    if (pending === null) { pending = window.setTimeout(refresh, Math.random() * SPREAD_MS); }
  }

  /* Whether the board took the event's parts (see the words above): all of them or none. */
  function take(parts) {
    var board = document.querySelector("[data-live-board]");
    if (!board || !parts || typeof parts.html !== "object") { return false; }
    var ids = Object.keys(parts.html);
    if (parts.base === null) {
      var own = board.querySelectorAll("[data-live-part]");
      if (own.length !== ids.length) { return false; }
      for (var i = 0; i < own.length; i++) { if (own[i].id !== ids[i]) { return false; } }
    } else if (board.getAttribute("data-live-parts") !== String(parts.base)) {
      return false;
    }
    var olds = ids.map(function (id) { return document.getElementById(id); });
    if (olds.some(function (old) { return !old || !board.contains(old); })) { return false; }
    olds.forEach(function (old, index) {
      var made = document.createElement("template");
      made.innerHTML = parts.html[ids[index]];
      if (made.content.firstElementChild) { old.replaceWith(made.content.firstElementChild); }
    });
    board.setAttribute("data-live-parts", String(parts.revision));
    return true;
  }

  function heardEvent(event) {
    heard = Date.now();
    var data;
    try { data = JSON.parse(event.data); } catch (e) { return; }
    var fresh = String(event.lastEventId || data.revision);
    if (fresh !== revision) {
      revision = fresh;
      var taken = data.parts ? take(data.parts) : false;
      changed(String(data.standings), taken, taken && data.parts.base === null);
      if (data.parts && !taken) { reopen(); }  /* its next event carries every part */
    } else if (standings === null) {
      standings = String(data.standings);  /* the page's own revision: nothing to fetch */
    }
  }

  function connect() {
    var holder = document.querySelector("[data-live-events]");
    var url = holder.getAttribute("data-live-events") + "?revision=" + encodeURIComponent(revision);
    var board = holder.getAttribute("data-live-board");
    if (board) { url += "&board=" + encodeURIComponent(board); }
    source = new EventSource(url);
    source.addEventListener("open", function () { heard = Date.now(); });
    source.addEventListener("message", heardEvent);
  }

  function reopen() {
    if (source !== null) { source.close(); }
    connect();
  }

  function start() {
    var holder = document.querySelector("[data-live-events]");
    if (!holder || !window.EventSource) { return; }
    revision = holder.getAttribute("data-live-revision") || "";
    connect();
  }

  // A poll (htmx's "every": no triggering event) of a live element is skipped while the
  // stream works; a refresh the stream asked for, or any other request, goes ahead.
  document.addEventListener("htmx:confirm", function (event) {
    var element = event.detail.elt;
    var polled = !event.detail.triggeringEvent;
    if (polled && element && element.hasAttribute("data-live-refresh") && open()) {
      event.preventDefault();
    }
  });

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
}());
