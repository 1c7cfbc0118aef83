/* flipwell score sheet: read-back of scores, tie places only when scores tie, and an offline
 * queue. An entry is stored in localStorage under its idempotency key (made on this phone)
 * before it is sent; it leaves the queue once the server has answered. A lost answer is sent
 * again with the same key, and the server stores one entry per key: delivered once.
 * An entry names its game and the version of the sheet the page showed; when the sheet moved
 * on meanwhile (the game was confirmed, or someone else entered it) the server refuses it as
 * stale (409): the entry is dropped and the page reloads to show the sheet as it is now, with
 * the server's message. Any other refusal drops it and asks again; server failures are
 * retried a few times only. Nothing is retried forever.
 * Live sheet: every few seconds while the page is visible, the sheet asks for its live
 * fragment (#sheet at data-sheet-state) through the browser's cache, so an unchanged sheet
 * costs a 304. When the fragment's digest differs from the page's (a teammate entered or
 * confirmed scores, a machine was chosen, the selectable machines changed), it replaces the
 * page's sheet, unless the player typed into a form here: then his input stays and a banner
 * asks him to reload. Nothing is swapped while an entry waits in the offline queue.
 * With the league's live stream (live.js) heard from, the timer asks nothing: the stream's
 * "flipwell:live" event asks at once instead; when the stream fails, the timer asks again.
 * A photo of the score (sheet-photos.js) is not typing: once kept, the sheet shows it.
 * Vanilla JS, no dependencies; the page works without it (plain POST forms).
 */
(function () {
  "use strict";

  var QUEUE_KEY = "flipwell.scoresheet.queue";
  var RETRY_MS = 15000;
  var MAX_FAILURES = 5;  // server errors (5xx, 408, 429) before an entry is given up
  var sending = false;
  var LIVE_MS = 5000;
  var typed = false;  // the player typed or chose something in a form of the shown sheet
  var liveTimer = null;
  var asking = false;  // a live fragment is on its way
  var liveTag = null;  // the entity tag of the last live fragment read
  var pushed = false;  // the live stream said the league changed: ask now

  function newKey() {
    if (window.crypto && window.crypto.randomUUID) {
      return window.crypto.randomUUID();
    }
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) {
      return ("0" + b.toString(16)).slice(-2);
    }).join("");
  }

  function readQueue() {
    try {
      var items = JSON.parse(window.localStorage.getItem(QUEUE_KEY) || "[]");
      return Array.isArray(items) ? items : [];
    } catch (e) {
      return [];
    }
  }

  function writeQueue(items) {
    window.localStorage.setItem(QUEUE_KEY, JSON.stringify(items));
  }

  function dropFromQueue(key) {
    writeQueue(readQueue().filter(function (item) { return item.key !== key; }));
  }

  function countFailure(key) {
    var failures = 0;
    writeQueue(readQueue().map(function (item) {
      if (item.key === key) {
        item.failures = (item.failures || 0) + 1;
        failures = item.failures;
      }
      return item;
    }));
    return failures;
  }

  /* A machine score as the server reads it (flipwell.web.forms.parse_machine_score): the
   * digits 0-9, with one kind of thousands separator between groups of three. Returns its
   * digits, "" when blank, null when the server would refuse it ("1.5", "١٢٣"). */
  var GROUPED = /^[0-9]{1,3}(?:([,.'\u2019 \u00a0\u2009\u202f])[0-9]{3})(?:\1[0-9]{3})*$/;

  function digits(text) {
    var t = (text || "").trim();
    if (!t) { return ""; }
    if (!/^[0-9]+$/.test(t) && !GROUPED.test(t)) { return null; }
    return t.replace(/[^0-9]/g, "");
  }

  function grouped(text) {
    var d = digits(text);
    if (d === null) { return "not a machine score: digits 0-9, like 1,234,560"; }
    return d.replace(/^0+(?=\d)/, "").replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  }

  function status(text, state) {
    var box = document.getElementById("offline-status");
    if (!box) { return; }
    box.hidden = !text;
    box.textContent = text || "";
    box.setAttribute("data-state", state || "");
  }

  /* --- read-back and tie places --------------------------------------------------------- */

  /* A player marked as not playing (forfeit ticked) has no score: their box is emptied and
   * off (a disabled box is not sent). What it held comes back if the box is unticked. */
  function noScore(input, off) {
    if (off && !input.disabled) {
      input.setAttribute("data-kept", input.value);
      input.value = "";
      input.disabled = true;
    } else if (!off && input.disabled) {
      input.disabled = false;
      if (!input.value) { input.value = input.getAttribute("data-kept") || ""; }
      input.removeAttribute("data-kept");
    }
  }

  function refreshEntry(form) {
    var rows = form.querySelectorAll(".score-row");
    var seen = {};
    var values = [];
    rows.forEach(function (row) {
      var input = row.querySelector("input[data-score]");
      var out = row.querySelector("output.readback");
      var forfeit = row.querySelector("input[type=checkbox]");
      noScore(input, !!(forfeit && forfeit.checked));
      var shown = grouped(input.value);
      if (out) { out.textContent = shown; }
      var value = forfeit && forfeit.checked ? "" : (digits(input.value) || "");
      values.push(value);
      if (value) { seen[value] = (seen[value] || 0) + 1; }
    });
    rows.forEach(function (row, i) {
      var tie = row.querySelector("[data-tie]");
      if (tie) { tie.hidden = !(values[i] && seen[values[i]] > 1); }
    });
  }

  /* --- the offline queue ---------------------------------------------------------------- */

  function send(item) {
    return window.fetch(item.url, {
      method: "POST",
      body: item.body,
      credentials: "same-origin",
      headers: {
        "Accept": "application/json",
        "Content-Type": "application/x-www-form-urlencoded",
        "X-CSRFToken": item.csrf
      }
    }).then(function (response) {
      return response.json().catch(function () { return null; }).then(function (data) {
        return { status: response.status, data: data };
      });
    });
  }

  function showErrors(form, errors) {
    var box = form.querySelector(".form-errors");
    if (!box) {
      box = document.createElement("div");
      box.className = "form-errors";
      box.setAttribute("role", "alert");
      form.insertBefore(box, form.firstChild);
    }
    box.textContent = "";
    Object.keys(errors || {}).forEach(function (field) {
      errors[field].forEach(function (error) {
        var p = document.createElement("p");
        p.textContent = error.message;
        box.appendChild(p);
      });
    });
  }

  function reAsk(item, errors) {
    var form = document.querySelector("form[data-offline-entry]");
    if (form && item.url === entryAction()) {
      showErrors(form, errors);
      enable(form, true);
      form.querySelector("input[name=idempotency_key]").value = newKey();
    }
  }

  function flush() {
    if (sending) { return; }
    var items = readQueue();
    if (!items.length) { return; }
    sending = true;
    status("Sending the saved scores…", "sending");
    var item = items[0];
    send(item).then(function (result) {
      sending = false;
      var data = result.data || {};
      if (result.status >= 200 && result.status < 300) {
        dropFromQueue(item.key);
        status("Sent.", "sent");
        if (!readQueue().length && item.url === entryAction()) {
          window.location.reload();
        } else {
          flush();
        }
      } else if (result.status === 409 && data.stale) {
        // The sheet moved on (its game was confirmed, or another entry came first): this
        // entry was not saved and must never go to another game. Show the sheet as it is
        // now; the server's message waits on the reloaded page.
        dropFromQueue(item.key);
        status(data.message || "Not saved: the sheet changed meanwhile.", "refused");
        if (item.url === entryAction()) {
          window.location.reload();
        } else {
          flush();
        }
      } else if (result.status >= 400 && result.status < 500 &&
                 result.status !== 408 && result.status !== 429) {
        // The server refused the sheet: sending it again cannot help. Show why, ask again.
        dropFromQueue(item.key);
        reAsk(item, data.errors);
        status("Not saved: " + (result.status === 404
          ? "this meet is closed." : "check the messages and enter again."), "refused");
      } else if (countFailure(item.key) >= MAX_FAILURES) {
        dropFromQueue(item.key);
        reAsk(item, null);
        status("Not saved: the server failed " + MAX_FAILURES + " times. Enter the scores " +
          "again, or tell the league official.", "refused");
      } else {
        status("Saved on this phone, will send when the server answers.", "queued");
      }
    }).catch(function () {
      sending = false;
      status("Saved on this phone, will send when the network is back.", "queued");
    });
  }

  function entryAction() {
    var form = document.querySelector("form[data-offline-entry]");
    return form ? form.action : null;
  }

  function enable(form, on) {
    var button = form.querySelector("button[type=submit]");
    if (button) { button.disabled = !on; }
  }

  function wireForm() {
    var form = document.querySelector("form[data-offline-entry]");
    if (form && !form.hasAttribute("data-wired")) {
      form.setAttribute("data-wired", "");
      var keyInput = form.querySelector("input[name=idempotency_key]");
      var waiting = readQueue().filter(function (item) { return item.url === form.action; });
      if (waiting.length) {
        keyInput.value = waiting[0].key;
        enable(form, false);
        status("Saved on this phone, will send when the network is back.", "queued");
      } else {
        keyInput.value = newKey();
      }
      form.addEventListener("input", function () { refreshEntry(form); });
      form.addEventListener("change", function () { refreshEntry(form); });
      refreshEntry(form);
      form.addEventListener("submit", function (event) {
        event.preventDefault();
        var data = new FormData(form);
        var body = new URLSearchParams();
        data.forEach(function (value, name) { body.append(name, value); });
        var item = {
          key: keyInput.value,
          url: form.action,
          body: body.toString(),
          csrf: data.get("csrfmiddlewaretoken") || "",
          saved: new Date().toISOString()
        };
        writeQueue(readQueue().filter(function (i) { return i.key !== item.key; }).concat([item]));
        enable(form, false);
        status("Saved on this phone, will send…", "queued");
        flush();
      });
    }
  }

  /* --- the live sheet ------------------------------------------------------------------ */

  function shownSheet() {
    return document.getElementById("sheet");
  }

  function waitingInQueue() {
    var action = entryAction();
    return sending || readQueue().some(function (item) { return item.url === action; });
  }

  // Typing, choosing or sending a form of the shown sheet (htmx swaps its answer in). A photo
  // form is not typing: its photo leaves on its own (sheet-photos.js).
  function noteTyping(event) {
    var sheet = shownSheet();
    var form = event.target.closest ? event.target.closest("form") : null;
    if (sheet && form && sheet.contains(form) && !form.hasAttribute("data-photo-form")) {
      typed = true;
    }
  }

  /* A photo was kept: show the sheet with it now, or, while the player has typed into a
   * form here, only the thumbnail (the sheet's digest becomes the server's, so this phone's
   * own photo is not news from "another phone"). */
  function photoSent(event) {
    var sheet = shownSheet();
    var detail = event.detail || {};
    if (!sheet) { return; }
    if (!typed && !waitingInQueue()) {
      pushed = true;
      window.clearTimeout(liveTimer);
      askLive();
      return;
    }
    if (detail.digest) { sheet.setAttribute("data-sheet-digest", detail.digest); }
    var box = sheet.querySelector("[data-photo-preview]");
    if (box) { box.hidden = false; }
  }

  function tellNews(fresh) {
    var news = document.getElementById("sheet-news");
    if (!news) { return; }
    var pending = fresh.getAttribute("data-sheet-pending");
    var scores = pending !== ":" && pending !== shownSheet().getAttribute("data-sheet-pending");
    news.querySelectorAll("[data-sheet-news]").forEach(function (line) {
      line.hidden = line.getAttribute("data-sheet-news") !== (scores ? "scores" : "other");
    });
    news.hidden = false;
  }

  function swapIn(fresh) {
    var sheet = shownSheet();
    sheet.replaceWith(fresh);
    if (window.htmx) { window.htmx.process(fresh); }
    typed = false;
    wireForm();
    document.dispatchEvent(new CustomEvent("flipwell:sheet-swapped"));
  }

  /* Show the live fragment `text` as news or in place of the shown sheet; false when it
   * could not be judged now (an entry waits in the queue: its answer reloads the page). */
  function showLive(text) {
    var fresh = new DOMParser().parseFromString(text, "text/html").getElementById("sheet");
    var sheet = shownSheet();
    if (!fresh || !sheet || waitingInQueue()) { return false; }
    if (fresh.getAttribute("data-sheet-digest") !== sheet.getAttribute("data-sheet-digest")) {
      if (typed) {
        tellNews(fresh);
      } else {
        swapIn(document.adoptNode(fresh));
      }
    }
    return true;
  }

  function askLive() {
    liveTimer = null;
    var sheet = shownSheet();
    var url = sheet && sheet.getAttribute("data-sheet-state");
    if (!url || document.hidden || asking) { return; }
    if (!pushed && window.flipwellLive && window.flipwellLive.open()) {
      scheduleLive();  // the stream tells when to ask
      return;
    }
    pushed = false;
    asking = true;
    // "no-cache": the browser sends the If-None-Match of the copy it keeps; a 304 comes back
    // as that copy, with the same tag, and is not read again.
    window.fetch(url, { cache: "no-cache", credentials: "same-origin" }).then(function (response) {
      var tag = response.headers.get("ETag");
      if (!response.ok || (tag && tag === liveTag)) { return response.status; }
      return response.text().then(function (text) {
        liveTag = showLive(text) ? tag : null;
        return response.status;
      });
    }).catch(function () {
      return null;  // no network: ask again later
    }).then(function (answered) {
      asking = false;
      if (answered !== 404) { scheduleLive(); }  // 404: the meet is over, stop asking
    });
  }

  function scheduleLive() {
    if (liveTimer === null && !document.hidden) {
      liveTimer = window.setTimeout(askLive, LIVE_MS);
    }
  }

  function onVisibility() {
    if (document.hidden) {
      window.clearTimeout(liveTimer);
      liveTimer = null;
    } else if (liveTimer === null) {
      askLive();
    }
  }

  function setUp() {
    wireForm();
    document.addEventListener("input", noteTyping);
    document.addEventListener("change", noteTyping);
    document.addEventListener("submit", noteTyping);
    document.addEventListener("visibilitychange", onVisibility);
    document.addEventListener("flipwell:photo-sent", photoSent);
    document.addEventListener("flipwell:live", function () {
      pushed = true;
      window.clearTimeout(liveTimer);
      askLive();
    });
    scheduleLive();
    window.addEventListener("online", flush);
    window.setInterval(flush, RETRY_MS);
    flush();
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setUp);
  } else {
    setUp();
  }
  // htmx replaces #sheet after a confirmation or a pick: wire the new entry form; what was
  // typed on the old sheet is gone with it.
  document.addEventListener("htmx:afterSettle", function () {
    typed = false;
    wireForm();
  });
})();
