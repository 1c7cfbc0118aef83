/* flipwell TV: shows one panel at a time, the next every 12 s. htmx replaces the panels every
   15 s (hx-trigger on #tv-panels); the rotation keeps its place across refreshes. Arrow keys
   step by hand; the button asks for full screen. No inline script: the CSP forbids it. */
(function () {
  "use strict";
  var ROTATE_MS = 12000;
  var index = 0;

  function panels() {
    return Array.prototype.slice.call(document.querySelectorAll("[data-tv-panel]"));
  }

  function show() {
    var list = panels();
    if (list.length === 0) { return; }
    index = ((index % list.length) + list.length) % list.length;
    list.forEach(function (panel, i) { panel.hidden = i !== index; });
    var dots = document.querySelector("[data-tv-dots]");
    if (dots) {
      dots.textContent = list.map(function (_, i) { return i === index ? "●" : "○"; }).join(" ");
    }
  }

  function step(by) { index += by; show(); }

  document.addEventListener("DOMContentLoaded", function () {
    document.body.classList.add("rotating");
    show();
    window.setInterval(function () { step(1); }, ROTATE_MS);
    var full = document.querySelector("[data-tv-fullscreen]");
    if (full && document.documentElement.requestFullscreen) {
      full.addEventListener("click", function () {
        document.documentElement.requestFullscreen().catch(function () { /* refused: fine */ });
      });
    } else if (full) {
      full.hidden = true;
    }
  });
  document.addEventListener("htmx:afterSwap", show);
  document.addEventListener("keydown", function (event) {
    if (event.key === "ArrowRight") { step(1); }
    if (event.key === "ArrowLeft") { step(-1); }
  });
}());
