/* flipwell live pages: the league's revision pushed by the server (Server-Sent Events,
 * /live/<slug>/events/, flipwell.serving.live), so the TV, the meet board and the score
 * sheet refresh as soon as something changed instead of on their timer.
 * The page names its stream and the revision it was rendered at on an element:
 * [data-live-events] (the stream's URL) and [data-live-revision]. On a new revision, each
 * [data-live-refresh] element gets the htmx event "flipwell:live" (its hx-trigger lists it:
 * the same request as its poll, answered 304 when its part did not change), and the document
 * gets "flipwell:live" (the score sheet listens). While the stream is heard from (the server
 * repeats the revision every 15 s), the elements' own polls are skipped; when it fails (no
 * EventSource, a refused or broken stream, 40 s of silence) they run again as before.
 * EventSource reconnects by itself and sends the last revision it saw (Last-Event-ID).
 * No inline script: the CSP forbids it. */
(function () {
  "use strict";
  var SILENT_MS = 40000;
  var source = null;
  var revision = null;
  var heard = 0;

  function open() {
    return source !== null && source.readyState === 1 && Date.now() - heard < SILENT_MS;
  }
  window.flipwellLive = { open: open };

  function changed() {
    document.querySelectorAll("[data-live-refresh]").forEach(function (element) {
      if (window.htmx) { window.htmx.trigger(element, "flipwell:live"); }
    });
    document.dispatchEvent(new CustomEvent("flipwell:live"));
  }

  function start() {
    var holder = document.querySelector("[data-live-events]");
    if (!holder || !window.EventSource) { return; }
    revision = holder.getAttribute("data-live-revision") || "";
    var url = holder.getAttribute("data-live-events") + "?revision=" + encodeURIComponent(revision);
    source = new EventSource(url);
    source.addEventListener("open", function () { heard = Date.now(); });
    source.addEventListener("message", function (event) {
      heard = Date.now();
      var fresh;
      try { fresh = String(JSON.parse(event.data).revision); } catch (e) { return; }
      if (fresh !== revision) {
        revision = fresh;
        changed();
      }
    });
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
