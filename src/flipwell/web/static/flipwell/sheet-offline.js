/* flipwell score sheet: registers its service worker (/sheet/service-worker.js, whose scope
 * is its folder: every sheet) and names the sheet's shell for it to keep: this page's address
 * and the styles, scripts and icons it loads. Named again after each in-page update (htmx), so a reload without network shows the
 * sheet as it was last seen. The worker's URL comes from this script's data-worker attribute
 * (the template knows the URLs).
 * The sheet works without it; the offline queue of entries is scoresheet.js's.
 */
(function () {
  "use strict";

  var script = document.currentScript;
  if (!("serviceWorker" in navigator) || !script) { return; }
  var worker = script.getAttribute("data-worker");

  function shell() {
    var parts = [window.location.href.split("#")[0]];
    document.querySelectorAll("link[rel~=stylesheet][href], link[rel~=icon][href], " +
                              "link[rel=manifest][href], script[src]").forEach(function (el) {
      parts.push(el.href || el.src);
    });
    return parts;
  }

  function remember() {
    if (!navigator.onLine) { return; }  // nothing to fetch: the worker keeps what it has
    navigator.serviceWorker.ready.then(function (registration) {
      if (registration.active) { registration.active.postMessage({ shell: shell() }); }
    });
  }

  if (navigator.onLine) {
    navigator.serviceWorker.register(worker).then(remember, function () {
      // No worker (a browser without it, a private window): the sheet works as before,
      // only a reload without network cannot show it.
    });
  }
  document.addEventListener("htmx:afterSettle", remember);
})();
