// flipwell: starts Swagger UI on the API's schema; the settings come from the page (no CDN).
window.addEventListener("load", function () {
  var settings = JSON.parse(document.getElementById("swagger-settings").textContent);
  settings.dom_id = "#swagger-ui";
  settings.presets = [SwaggerUIBundle.presets.apis];
  window.ui = SwaggerUIBundle(settings);
});
