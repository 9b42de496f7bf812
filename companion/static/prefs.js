// This device's display (issue 35): text size, contrast, palette, kept in localStorage and set on
// <html> (data-text, data-contrast, data-palette) from the head, before the first paint. Their
// styles (prefs.css, data-css) are linked only once one differs from the default: see prefs.css.
(function () {
  "use strict";
  var KEY = "tc-display", root = document.documentElement, me = document.currentScript;
  // The first of each is the default: no attribute.
  var CHOICES = { text: ["100", "125", "150", "200"], contrast: ["normal", "high"], palette: ["standard", "safe"] };

  function read() {
    try { return JSON.parse(localStorage.getItem(KEY) || "{}") || {}; } catch (e) { return {}; }
  }

  function styles() {
    if (document.getElementById("prefs-css") || !me) return;
    var link = document.createElement("link");
    link.id = "prefs-css";
    link.rel = "stylesheet";
    link.href = me.dataset.css;
    link.setAttribute("blocking", "render");  // the first paint waits for it, as for app.css
    document.head.appendChild(link);
  }

  function apply(prefs) {
    var any = false;
    Object.keys(CHOICES).forEach(function (name) {
      if (CHOICES[name].indexOf(prefs[name]) > 0) {
        root.setAttribute("data-" + name, prefs[name]);
        any = true;
      } else root.removeAttribute("data-" + name);
    });
    if (any) styles();
  }

  function show(prefs) {
    Array.prototype.forEach.call(document.querySelectorAll("[data-prefs] input[type=radio]"), function (input) {
      var chosen = CHOICES[input.name] && CHOICES[input.name].indexOf(prefs[input.name]) >= 0 ? prefs[input.name] : CHOICES[input.name][0];
      input.checked = input.value === chosen;
    });
  }

  apply(read());
  document.addEventListener("DOMContentLoaded", function () { show(read()); });
  document.addEventListener("change", function (event) {
    var input = event.target;
    if (!input.closest || !input.closest("[data-prefs]") || !CHOICES[input.name]) return;
    var prefs = read();
    prefs[input.name] = input.value;
    try { localStorage.setItem(KEY, JSON.stringify(prefs)); } catch (e) { /* private mode: this page only */ }
    apply(prefs);
  });
})();
