// Inkling: guesses typed on the phone (kept while the screen refreshes), the ink hand laid out,
// and the cards chosen to put back.
(function () {
  "use strict";
  var body = document.body;

  // The page's own sentences, in the page's language (base.html's data-messages).
  function message(key, fallback) {
    try { return JSON.parse(body.dataset.messages || "{}")[key] || fallback; } catch (e) { return fallback; }
  }

  function say(text) {
    var toast = document.getElementById("toast");
    if (!toast) return;
    toast.textContent = text; toast.className = "toast show error";
    clearTimeout(say.t); say.t = setTimeout(function () { toast.className = "toast"; }, 5000);
  }

  function post(action) {
    return fetch(body.dataset.actions, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-Companion-Role": body.dataset.role },
      body: JSON.stringify(action)
    }).then(function (r) {
      return r.json().then(function (data) {
        if (!r.ok) say(data.error || message("failed", "That did not work."));
        return { ok: r.ok, data: data };
      });
    }).catch(function () {
      say(message("offline", "The table's server cannot be reached. Check the Wi-Fi and try again."));
      return { ok: false };
    });
  }

  // Typed text and focus survive the fragment being swapped in by the poll.
  var typed = {}, focused = null;
  document.addEventListener("input", function (e) {
    if (e.target.id && e.target.matches("input[type=text]")) typed[e.target.id] = e.target.value;
  });
  document.addEventListener("focusin", function (e) { if (e.target.id) focused = e.target.id; });
  document.addEventListener("focusout", function (e) {
    if (e.target.id === focused) setTimeout(function () {
      if (document.activeElement === body || !document.activeElement) return;
      if (document.activeElement.id !== focused) focused = null;
    }, 0);
  });
  function restore() {
    Object.keys(typed).forEach(function (id) {
      var el = document.getElementById(id);
      if (el && el.value !== typed[id]) el.value = typed[id];
    });
    if (focused) {
      var el = document.getElementById(focused);
      if (el && document.activeElement !== el) {
        el.focus({ preventScroll: true });
        try { el.setSelectionRange(el.value.length, el.value.length); } catch (e) { /* not a text box */ }
      }
    }
  }
  var picked = [];
  document.addEventListener("live:update", function () {
    restore();
    var hand = document.querySelector('[data-hand][data-mode="put_back"]');
    if (!hand) { picked = []; return; }
    picked.forEach(function (c) {
      var b = hand.querySelector('[data-card="' + c + '"]');
      if (b) { b.classList.add("chosen"); b.setAttribute("aria-pressed", "true"); }
    });
  });

  // A guess: the word typed for one neighbour.
  document.addEventListener("submit", function (e) {
    var form = e.target.closest("form[data-guess]");
    if (!form) return;
    e.preventDefault();
    var input = form.elements.word, word = input.value.trim();
    if (!word) return;
    post({ type: "guess", neighbour: parseInt(form.dataset.guess, 10), word: word }).then(function (res) {
      if (!res.ok) return;
      typed[input.id] = "";
      var now = document.getElementById(input.id);
      if (now) now.value = "";
    });
  });

  // The ink hand: in the arrange phase a tap lays a card out (in a row) or takes it back;
  // in the draw phase a tap chooses it to put back (at most two).
  document.addEventListener("click", function (e) {
    var card = e.target.closest("[data-hand] [data-card]");
    if (!card) return;
    var hand = card.closest("[data-hand]"), mode = hand.dataset.mode;
    if (mode === "arrange") {
      card.classList.toggle("laid");
      var laid = Array.prototype.filter.call(hand.querySelectorAll("[data-card]"), function (b) { return b.classList.contains("laid"); });
      var cards = laid.map(function (b, k) {
        return { card: parseInt(b.dataset.card, 10), x: Math.min(100, 4 + 9 * (k % 11)), y: Math.min(100, 30 + 30 * Math.floor(k / 11)), rotation: 0, face_down: false };
      });
      post({ type: "arrange", cards: cards });
    } else if (mode === "put_back") {
      var chosen = hand.querySelectorAll(".chosen");
      if (!card.classList.contains("chosen") && chosen.length >= 2) { say(hand.dataset.tooMany || "You can put back at most 2 ink cards."); return; }
      card.classList.toggle("chosen");
      picked = Array.prototype.map.call(hand.querySelectorAll(".chosen"), function (b) { return b.dataset.card; });
      card.setAttribute("aria-pressed", card.classList.contains("chosen") ? "true" : "false");
    }
  });
  document.addEventListener("click", function (e) {
    if (!e.target.closest("[data-put-back]")) return;
    var hand = document.querySelector("[data-hand]");
    var cards = Array.prototype.map.call(hand.querySelectorAll(".chosen"), function (b) { return parseInt(b.dataset.card, 10); });
    post({ type: "put_back", cards: cards });
  });
})();
