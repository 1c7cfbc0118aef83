/* flipwell TV: shows one panel at a time, the next every 12 s. htmx replaces the panels every
   15 s (hx-trigger on #tv-panels); the rotation keeps its place across refreshes. Arrow keys
   step by hand; the button asks for full screen. The groups and a standings slide (up to 20
   lines, tv.py) get the largest type at which all of them fit the screen ([data-tv-fit]).
   No inline script or style: the CSP forbids them. */
(function () {
  "use strict";
  var ROTATE_MS = 12000;
  var index = 0;

  function panels() {
    return Array.prototype.slice.call(document.querySelectorAll("[data-tv-panel]"));
  }

  // A slide's [data-tv-fit] part (the groups, a standings table) starts at the stylesheet's
  // type and takes the next smaller step (tv.css: fit-1 to fit-12, a class: no inline style)
  // until it ends above the screen's bottom edge. A hidden slide has no size, so this runs
  // when a slide is shown.
  var FIT_STEPS = 12;

  function fit(panel) {
    var part = panel.querySelector("[data-tv-fit]");
    if (!part) { return; }
    for (var step = 0; step <= FIT_STEPS; step += 1) {
      for (var other = 1; other <= FIT_STEPS; other += 1) {
        part.classList.toggle("fit-" + other, other === step);
      }
      var box = part.getBoundingClientRect();
      if (box.bottom <= window.innerHeight - 8) { return; }
    }
  }

  function show() {
    var list = panels();
    if (list.length === 0) { return; }
    index = ((index % list.length) + list.length) % list.length;
    list.forEach(function (panel, i) { panel.hidden = i !== index; });
    fit(list[index]);
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
  window.addEventListener("resize", show);
  document.addEventListener("keydown", function (event) {
    if (event.key === "ArrowRight") { step(1); }
    if (event.key === "ArrowLeft") { step(-1); }
  });
}());
