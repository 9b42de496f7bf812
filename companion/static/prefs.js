// This device's display (issue 35): text size, contrast, palette, kept in localStorage and set on
// <html> (data-text, data-contrast, data-palette) from the head, before the first paint. Their
// styles (prefs.css, data-css) are linked only once one differs from the default: see prefs.css.
(function () {
  "use strict";
  var KEY = "tc-display", root = document.documentElement, me = document.currentScript;
  // The first of each is the default: no attribute.
  var CHOICES = { text: ["100", "125", "150", "200"], contrast: ["normal", "high"], palette: ["standard", "safe"] };

  function read() {
    var kept = null;
    try { kept = JSON.parse(localStorage.getItem(KEY) || "{}"); } catch (e) { /* unreadable: the default */ }
    return kept && typeof kept === "object" ? kept : {};
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

  // A phone's page fetches the dialog as its button ([data-prefs-from], the dialog's address) is
  // first tapped (companion/web/display.py: not in every page); the host page has it inline.
  document.addEventListener("click", function (event) {
    var opener = event.target.closest && event.target.closest("[data-prefs-from]");
    if (!opener) return;
    var dialog = document.getElementById("ask-prefs");
    if (dialog) { dialog.showModal(); return; }
    fetch(opener.dataset.prefsFrom, { credentials: "same-origin" }).then(function (r) {
      if (!r.ok) throw new Error("status " + r.status);
      return r.text();
    }).then(function (html) {
      if (!document.getElementById("ask-prefs")) document.body.insertAdjacentHTML("beforeend", html);
      show(read());
      document.getElementById("ask-prefs").showModal();
    }).catch(function () {
      if (window.Companion) window.Companion.say(window.Companion.message("offline", "The table's server cannot be reached."));
    });
  });

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
