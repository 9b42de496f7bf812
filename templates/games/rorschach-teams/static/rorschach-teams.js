// Rorschach (teams): the test subject's private matching. Each visible image takes a different
// word; choosing a word already on another image takes it off that image. The selection lives only
// on this phone (sessionStorage) until "Place my markers" sends it: the button's data-action is
// rewritten here and app.js posts it on click. An update keeps the form element (app.js morphs the
// screen), so a form is set up once per matching (its data-key), remembered here, not in its attributes.
(function () {
  "use strict";

  function storeKey(form) { return "rt-match-" + form.dataset.key; }

  function read(form) {
    var matching = {};
    Array.prototype.forEach.call(form.querySelectorAll("input[type=radio]:checked"), function (input) {
      matching[input.dataset.image] = input.value;
    });
    return matching;
  }

  function update(form) {
    var matching = read(form);
    var images = {};
    Array.prototype.forEach.call(form.querySelectorAll("input[type=radio]"), function (input) {
      images[input.dataset.image] = true;
    });
    var count = Object.keys(images).length;
    var chosen = Object.keys(matching);
    var words = chosen.map(function (k) { return matching[k]; });
    var distinct = words.filter(function (w, i) { return words.indexOf(w) === i; }).length === words.length;
    var button = form.querySelector("[data-match-send]");
    var hint = form.querySelector("[data-match-hint]");
    var ready = chosen.length === count && distinct;
    button.disabled = !ready;
    button.dataset.action = JSON.stringify({ type: "match", matching: matching });
    if (hint) {
      // The sentences come translated from the page (data-ready, data-missing).
      var list = chosen.map(function (k) { return k + " → " + matching[k]; }).join(", ");
      hint.textContent = ready
        ? (form.dataset.ready || "Ready: {list}.").replace("{list}", list)
        : (form.dataset.missing || "Images still without a word: {count}.").replace("{count}", String(count - chosen.length));
    }
    try { sessionStorage.setItem(storeKey(form), JSON.stringify(matching)); } catch (e) { /* private mode */ }
  }

  var bound = new WeakMap();  // form -> the matching it was set up for
  function bind() {
    Array.prototype.forEach.call(document.querySelectorAll("form[data-matching]"), function (form) {
      if (bound.get(form) === form.dataset.key) { update(form); return; }
      var fresh = !bound.has(form);
      bound.set(form, form.dataset.key);
      var saved = {};
      try { saved = JSON.parse(sessionStorage.getItem(storeKey(form)) || "{}"); } catch (e) { saved = {}; }
      Object.keys(saved).forEach(function (image) {
        var input = form.querySelector("input[data-image='" + image + "'][value='" + saved[image] + "']");
        if (input) input.checked = true;
      });
      if (fresh) form.addEventListener("change", function (event) {
        var input = event.target;
        if (input.type !== "radio") return;
        // One marker per word: the same word on another image moves here.
        Array.prototype.forEach.call(form.querySelectorAll("input[type=radio]:checked"), function (other) {
          if (other !== input && other.value === input.value) other.checked = false;
        });
        update(form);
      });
      update(form);
    });
  }

  document.addEventListener("live:update", bind);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", bind);
  else bind();
})();
