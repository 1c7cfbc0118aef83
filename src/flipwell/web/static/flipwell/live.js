/* flipwell live pages: the league's revision pushed by the server (Server-Sent Events,
 * /live/<slug>/events/, flipwell.serving.live), so the TV, the meet board, the standings and
 * the score sheet change as soon as something changed instead of on their timer.
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
 * Parts (flipwell.serving.live_parts): an element of [data-live-watch] (the meet board:
 * "board=<meet id>"; the standings: "standings=<season id>") asks its stream for its parts:
 * each event carries, per watched element, the parts that changed since those it was last
 * sent ([data-live-part] children, each replaced whole by id), so the element is not fetched.
 * The element's data-live-parts says which parts it has; an entry whose base is another (the
 * element was fetched meanwhile), or whose full set of parts is not the element's, is not
 * taken: the element is fetched, and the stream reopened, so its next event has every part.
 * An entry "overtaken" (a write came in while the server rendered the parts) brings nothing:
 * the element waits for the next event, which follows with that write's parts. A "Why" (or
 * any disclosure) the reader opened in a part stays open in the part that replaces it.
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
  var stale = {};  /* watch ("" for an element without one) -> a revision its parts missed */
  var heard = 0;

  function open() {
    return source !== null && source.readyState === 1 && Date.now() - heard < SILENT_MS;
  }
  window.flipwellLive = { open: open };

  function watchOf(element) { return element.getAttribute("data-live-watch") || ""; }

  function refresh() {
    var withStandings = standingsChanged;
    var missed = stale;
    pending = null;
    standingsChanged = false;
    stale = {};
    document.querySelectorAll("[data-live-refresh]").forEach(function (element) {
      if (!missed[watchOf(element)]) { return; }
      if (element.getAttribute("data-live-refresh") === "standings" && !withStandings) { return; }
      if (window.htmx) { window.htmx.trigger(element, "flipwell:live"); }
    });
    document.dispatchEvent(new CustomEvent("flipwell:live"));
  }

  /* taken: watch -> "every" (every part taken: the element is whole again, so a fetch an
   * earlier revision asked for is not needed) or "some"; an element whose watch is not
   * there is fetched. */
  function changed(part, taken) {
    if (standings === null || part !== standings) { standingsChanged = true; }
    standings = part;
    document.querySelectorAll("[data-live-refresh]").forEach(function (element) {
      var watch = watchOf(element);
      if (!taken[watch]) { stale[watch] = true; } else if (taken[watch] === "every") { stale[watch] = false; }
    });
    if (pending === null) { pending = window.setTimeout(refresh, Math.random() * SPREAD_MS); }
  }

  function holderOf(watch) {
    var found = null;
    document.querySelectorAll("[data-live-watch]").forEach(function (element) {
      if (watchOf(element) === watch) { found = element; }
    });
    return found;
  }

  /* A disclosure's key within its part: the id of the element it follows (a "Why" follows
   * the sentence it explains), its summary, and how many before it share both. */
  function disclosures(part) {
    var keys = {};
    var found = [];
    part.querySelectorAll("details").forEach(function (details) {
      var before = details.previousElementSibling;
      var summary = details.querySelector("summary");
      var key = (before && before.id ? before.id : "") + "|" + (summary ? summary.textContent : "");
      keys[key] = (keys[key] || 0) + 1;
      found.push({ key: key + "|" + keys[key], element: details });
    });
    return found;
  }

  /* The disclosures a reader opened stay open in the part that replaces theirs. */
  function keepOpen(old, part) {
    var opened = {};
    disclosures(old).forEach(function (d) { if (d.element.open) { opened[d.key] = true; } });
    disclosures(part).forEach(function (d) { if (opened[d.key]) { d.element.open = true; } });
  }

  /* Whether the watched element took the entry's parts (see the words above): all or none. */
  function take(entry) {
    if (entry && entry.overtaken === true) { return holderOf(entry.watch) !== null; }
    var holder = entry && typeof entry.html === "object" ? holderOf(entry.watch) : null;
    if (!holder) { return false; }
    var ids = Object.keys(entry.html);
    if (entry.base === null) {
      var own = holder.querySelectorAll("[data-live-part]");
      if (own.length !== ids.length) { return false; }
      for (var i = 0; i < own.length; i++) { if (own[i].id !== ids[i]) { return false; } }
    } else if (holder.getAttribute("data-live-parts") !== String(entry.base)) {
      return false;
    }
    var olds = ids.map(function (id) { return document.getElementById(id); });
    if (olds.some(function (old) { return !old || !holder.contains(old); })) { return false; }
    olds.forEach(function (old, index) {
      var made = document.createElement("template");
      made.innerHTML = entry.html[ids[index]];
      var part = made.content.firstElementChild;
      if (part) { keepOpen(old, part); old.replaceWith(part); }
    });
    holder.setAttribute("data-live-parts", String(entry.revision));
    return true;
  }

  function heardEvent(event) {
    heard = Date.now();
    var data;
    try { data = JSON.parse(event.data); } catch (e) { return; }
    var fresh = String(event.lastEventId || data.revision);
    if (fresh !== revision) {
      revision = fresh;
      var taken = {};
      var refused = false;
      (Array.isArray(data.parts) ? data.parts : []).forEach(function (entry) {
        if (take(entry)) { taken[entry.watch] = entry.base === null ? "every" : "some"; }
        else { refused = true; }
      });
      changed(String(data.standings), taken);
      if (refused) { reopen(); }  /* its next event carries every part */
    } else if (standings === null) {
      standings = String(data.standings);  /* the page's own revision: nothing to fetch */
    }
  }

  function connect() {
    var holder = document.querySelector("[data-live-events]");
    var url = holder.getAttribute("data-live-events") + "?revision=" + encodeURIComponent(revision);
    document.querySelectorAll("[data-live-watch]").forEach(function (element) {
      var watch = watchOf(element).split("=");
      url += "&" + encodeURIComponent(watch[0]) + "=" + encodeURIComponent(watch[1] || "");
    });
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
