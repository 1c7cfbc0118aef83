/* The new-league form: the web address follows the league's name as the official types it,
   made as the server makes it when left empty (django.utils.text.slugify), until the official
   types an address of their own. The server still checks the address it receives. */
(function () {
  "use strict";
  function slugify(text) {
    return text.normalize("NFKD").replace(/[\u0300-\u036f]/g, "")
      .replace(/[^\x00-\x7f]/g, "").toLowerCase()
      .replace(/[^\w\s-]/g, "").trim().replace(/[-\s]+/g, "-")
      .replace(/^[-_]+|[-_]+$/g, "");
  }
  function follow(source) {
    var target = document.getElementById(source.getAttribute("data-slug-source"));
    if (!target) return;
    var max = Number(target.getAttribute("maxlength")) || 60;
    var made = function () { return slugify(source.value).slice(0, max).replace(/[-_]+$/, ""); };
    // An address already there (a form shown again) is the official's unless it is the name's.
    var following = target.value === "" || target.value === made();
    source.addEventListener("input", function () {
      if (following) target.value = made();
    });
    target.addEventListener("input", function () {
      following = target.value === "";
    });
  }
  document.querySelectorAll("[data-slug-source]").forEach(follow);
})();
