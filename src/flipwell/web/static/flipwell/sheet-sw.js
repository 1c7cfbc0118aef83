/* flipwell score sheet's service worker: the sheet opens again when the phone reloads it
 * without network.
 *
 * Words:
 * - the *shell*: what the sheet needs to show itself: the HTML of the last sheet visited, and
 *   the styles, scripts and icon it loads. The page names them (sheet-offline.js) and this
 *   worker fetches and keeps them; only the last sheet's HTML is kept.
 * - *network first*: while the phone is online everything comes from the server, as if this
 *   worker were not there (and a sheet page fetched is kept, so the shell stays current); the
 *   kept copy answers only when the network fails.
 *
 * Entries, confirmations and every other POST go to the network untouched: without network
 * they fail, and the page's own offline queue (scoresheet.js) keeps the entry under its
 * idempotency key until it is delivered. A request made by htmx is never answered from the
 * copy either: an old sheet swapped into the page would look current.
 * Served at /sheet/service-worker.js, so its scope is every sheet (/sheet/).
 */
"use strict";

var CACHE = "flipwell-sheet-v1";
var SHEET_PAGE = /^\/sheet\/(match\/)?[^/]+\/$/;  // a group's sheet or a playoff match's
var SHELL_PARTS = ["style", "script", "image", "font", "manifest"];  // request.destination

self.addEventListener("install", function () {
  self.skipWaiting();
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) { return name !== CACHE; })
      .map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

function isSheetPage(url) {
  return url.origin === self.location.origin && SHEET_PAGE.test(url.pathname);
}

/* Keep `response` for `url`; a sheet page replaces the sheet kept before (only the last). */
function keep(cache, url, response) {
  if (!isSheetPage(new URL(url))) {
    return cache.put(url, response);
  }
  return cache.keys().then(function (requests) {
    return Promise.all(requests.filter(function (request) {
      return isSheetPage(new URL(request.url)) && request.url !== url;
    }).map(function (request) { return cache.delete(request); }));
  }).then(function () { return cache.put(url, response); });
}

/* The page names its shell: fetch each part afresh and keep it. */
function remember(urls) {
  return caches.open(CACHE).then(function (cache) {
    return Promise.all(urls.map(function (url) {
      return fetch(url, { credentials: "same-origin", cache: "no-store" }).then(function (response) {
        return response.ok ? keep(cache, url, response) : null;
      }).catch(function () { return null; });  // offline meanwhile: keep the older copy
    }));
  });
}

self.addEventListener("message", function (event) {
  var urls = event.data && event.data.shell;
  if (Array.isArray(urls)) {
    event.waitUntil(remember(urls.filter(function (url) {
      return new URL(url).origin === self.location.origin;
    })));
  }
});

function fromCopy(request) {
  // The copy was fetched with the phone's cookies; the Vary header must not hide it.
  return caches.match(request.url, { ignoreVary: true }).then(function (copy) {
    return copy || Response.error();
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin ||
      request.headers.get("HX-Request")) {
    return;  // the network's answer, or its failure, as without this worker
  }
  var page = request.mode === "navigate" && isSheetPage(url);
  // Only the shell is answered from the copy: a script's own request for data (a refresh)
  // must fail offline rather than get an old page as if it were fresh.
  if (!page && SHELL_PARTS.indexOf(request.destination) === -1) {
    return;
  }
  event.respondWith(fetch(request).then(function (response) {
    if (page && response.ok) {
      var copy = response.clone();
      event.waitUntil(caches.open(CACHE).then(function (cache) {
        return keep(cache, request.url, copy);
      }));
    }
    return response;
  }).catch(function () {
    return fromCopy(request);
  }));
});
