/* flipwell score sheet: photos of the machine's display, sent on their own.
 *
 * Words:
 * - a *photo form* (form[data-photo-form]) names the game and, optionally, who took it; its
 *   file input opens the phone's camera. Once a photo is chosen it leaves at once: nothing
 *   else on the sheet waits for it, so typed scores are never held up or lost by a photo.
 * - the *photo queue*: photos waiting on this phone, in IndexedDB (a photo is too large for
 *   localStorage, where scoresheet.js keeps entries). Each is shrunk here first (long side
 *   1600 px, JPEG) when the browser can draw it; the server cleans it again in any case.
 *   A photo leaves the queue once the server answered it: kept (2xx), or refused (4xx: the
 *   reason is shown, sending it again cannot help). Without network it stays, and is sent
 *   when the network is back (the "online" event, and every 15 seconds).
 * After a photo is kept this script dispatches "flipwell:photo-sent" (scoresheet.js then
 * shows the sheet with it). Vanilla JS; without it the form posts the photo itself.
 */
(function () {
  "use strict";

  var DB_NAME = "flipwell-sheet-photos";
  var STORE = "queue";
  var RETRY_MS = 15000;
  var MAX_FAILURES = 5;
  var LONG_SIDE = 1600;
  var sending = false;

  function newKey() {
    if (window.crypto && window.crypto.randomUUID) { return window.crypto.randomUUID(); }
    return String(Date.now()) + Math.random().toString(16).slice(2);
  }

  /* --- the queue (IndexedDB; none in some private windows: then photos are sent only) --- */

  function openDb() {
    return new Promise(function (resolve, reject) {
      if (!window.indexedDB) { reject(new Error("no IndexedDB")); return; }
      var request = window.indexedDB.open(DB_NAME, 1);
      request.onupgradeneeded = function () {
        request.result.createObjectStore(STORE, { keyPath: "key" });
      };
      request.onsuccess = function () { resolve(request.result); };
      request.onerror = function () { reject(request.error); };
    });
  }

  function withStore(mode, work) {
    return openDb().then(function (db) {
      return new Promise(function (resolve, reject) {
        var tx = db.transaction(STORE, mode);
        var result = work(tx.objectStore(STORE));
        tx.oncomplete = function () { db.close(); resolve(result && result.result); };
        tx.onerror = function () { db.close(); reject(tx.error); };
      });
    });
  }

  function queued() {
    return withStore("readonly", function (store) { return store.getAll(); })
      .catch(function () { return []; });
  }

  function put(item) {
    return withStore("readwrite", function (store) { store.put(item); });
  }

  function drop(key) {
    return withStore("readwrite", function (store) { store["delete"](key); })
      .catch(function () { return null; });
  }

  /* --- what the phone shows ------------------------------------------------------------- */

  function formFor(url) {
    var form = document.querySelector("form[data-photo-form]");
    return form && (!url || form.action === url) ? form : null;
  }

  function say(text, state, url) {
    var form = formFor(url);
    var box = form && form.querySelector("[data-photo-status]");
    if (!box) { return; }
    box.hidden = !text;
    box.textContent = text || "";
    box.setAttribute("data-state", state || "");
  }

  function preview(form, blob) {
    var box = form.querySelector("[data-photo-preview]");
    if (!box) { return; }
    box.textContent = "";
    var img = document.createElement("img");
    img.alt = "The photo you chose";
    img.src = URL.createObjectURL(blob);
    box.appendChild(img);
    box.hidden = false;
  }

  /* --- shrinking: long side 1600 px as JPEG, when the browser can draw the photo ---------- */

  function shrunk(file) {
    if (!window.createImageBitmap || !window.HTMLCanvasElement) { return Promise.resolve(file); }
    return window.createImageBitmap(file).then(function (bitmap) {
      var scale = Math.min(1, LONG_SIDE / Math.max(bitmap.width, bitmap.height));
      var canvas = document.createElement("canvas");
      canvas.width = Math.round(bitmap.width * scale);
      canvas.height = Math.round(bitmap.height * scale);
      canvas.getContext("2d").drawImage(bitmap, 0, 0, canvas.width, canvas.height);
      return new Promise(function (resolve) {
        canvas.toBlob(function (blob) { resolve(blob || file); }, "image/jpeg", 0.85);
      });
    }).catch(function () { return file; });  // HEIC and the like: the server reads them
  }

  /* --- sending ---------------------------------------------------------------------------- */

  function send(item) {
    var body = new FormData();
    body.append("idempotency_key", item.key);
    body.append("game", item.game);
    body.append("uploaded_by", item.uploadedBy || "");
    body.append("photo", item.blob, "score.jpg");
    return window.fetch(item.url, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      headers: { "Accept": "application/json", "X-CSRFToken": item.csrf }
    }).then(function (response) {
      return response.json().catch(function () { return null; }).then(function (data) {
        return { status: response.status, data: data || {} };
      });
    });
  }

  function refusal(data) {
    var errors = data.errors || {};
    var words = [];
    Object.keys(errors).forEach(function (field) {
      errors[field].forEach(function (error) { words.push(error.message); });
    });
    return words.join(" ") || "check the photo and try again.";
  }

  /* The server's answer to `item`: true when the photo left the queue (kept or refused). */
  function answered(item, result) {
    if (result.status >= 200 && result.status < 300) {
      say("Photo added to game " + result.data.game + ".", "sent", item.url);
      document.dispatchEvent(new CustomEvent("flipwell:photo-sent", { detail: result.data }));
      return drop(item.key).then(function () { return true; });
    }
    if (result.status >= 400 && result.status < 500 && result.status !== 408 &&
        result.status !== 429) {
      say("Photo not added: " + (result.status === 404 ? "this meet is closed."
        : refusal(result.data)), "refused", item.url);
      return drop(item.key).then(function () { return true; });
    }
    item.failures = (item.failures || 0) + 1;
    if (item.failures >= MAX_FAILURES) {
      say("Photo not added: the server failed. Your scores are not affected.", "refused", item.url);
      return drop(item.key).then(function () { return true; });
    }
    say("Photo saved on this phone: it will be sent when the server answers.", "queued", item.url);
    return put(item).then(function () { return false; });
  }

  function flush() {
    if (sending) { return Promise.resolve(); }
    sending = true;
    return queued().then(function (items) {
      if (!items.length) { return false; }
      var item = items[0];
      say("Sending the photo…", "sending", item.url);
      return send(item).then(function (result) {
        return answered(item, result);
      }, function () {
        say("Photo saved on this phone: it will be sent when the network is back. " +
            "Your scores do not wait for it.", "queued", item.url);
        return false;
      });
    }).then(function (more) {
      sending = false;
      if (more) { flush(); }
    }, function () { sending = false; });
  }

  function chosen(form, file) {
    var item = {
      key: newKey(),
      url: form.action,
      game: form.querySelector("input[name=game]").value,
      uploadedBy: (form.querySelector("select[name=uploaded_by]") || {}).value || "",
      csrf: (form.querySelector("input[name=csrfmiddlewaretoken]") || {}).value || "",
      saved: new Date().toISOString()
    };
    preview(form, file);
    say("Preparing the photo…", "sending", item.url);
    return shrunk(file).then(function (blob) {
      item.blob = blob;
      return put(item).then(flush, function () {
        // No queue on this phone: send it once; without network it cannot wait here.
        return send(item).then(function (result) { return answered(item, result); },
          function () {
            say("Photo not sent: no network, and this browser cannot keep it. Take it " +
                "again when online; your scores are not affected.", "refused", item.url);
          });
      });
    });
  }

  function wire() {
    var form = formFor(null);
    if (!form || form.hasAttribute("data-wired")) { return; }
    form.setAttribute("data-wired", "");
    var button = form.querySelector("[data-photo-send]");
    if (button) { button.hidden = true; }  // the photo leaves once chosen
    var input = form.querySelector("input[type=file]");
    input.addEventListener("change", function () {
      if (input.files && input.files[0]) { chosen(form, input.files[0]); }
      input.value = "";
    });
    queued().then(function (items) {
      if (items.length) {
        say(items.length + " photo" + (items.length > 1 ? "s wait" : " waits") +
            " on this phone: sent when the network is back.", "queued");
      }
    });
  }

  function setUp() {
    wire();
    window.addEventListener("online", flush);
    window.setInterval(flush, RETRY_MS);
    flush();
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setUp);
  } else {
    setUp();
  }
  document.addEventListener("htmx:afterSettle", wire);
  document.addEventListener("flipwell:sheet-swapped", wire);
})();
