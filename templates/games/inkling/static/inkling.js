// Inkling on a phone: guesses typed (kept while the screen refreshes), your ink cards laid out on
// your table (virtual ink), and the cards chosen to put back.
//
// The table is 8 cards across and 5 down; a card's place is its top-left corner in the engine's
// 0-100 coordinates (12.5 across and 20 down per card). The layout is sent whole, as a list in the
// order the cards were laid (later on top), every time it changes; while a change is on its way,
// the phone shows its own layout over the one the server last sent.
(function () {
  "use strict";
  var COLS = 8, ROWS = 5, W = 100 / COLS, H = 100 / ROWS, MAX_X = 100 - W, MAX_Y = 100 - H;

  // Every move goes by the page's one way to send one (static/app.js, loaded after this script):
  // it says a refusal in the toast and resolves to {ok, status, error, version}.
  function act(move) { return window.Companion.act(move); }
  function say(text) { window.Companion.say(text); }

  function shownVersion() {
    var el = document.querySelector("#live [data-version]");
    return el ? parseInt(el.dataset.version, 10) : 0;
  }

  // --- guesses: typed text and focus survive an update (the page's swap keeps them, app.js) ---
  // A guess leaves its box as it is sent: the screen refreshed meanwhile shows it added, not still
  // typed, and the next guess typed before the answer comes is the player's, not wiped by it. A
  // guess refused comes back to its box (unless another is being typed there), beside the reason.
  document.addEventListener("submit", function (e) {
    var form = e.target.closest("form[data-guess]");
    if (!form) return;
    e.preventDefault();
    var input = form.elements.word, id = input.id, word = input.value.trim();
    if (!word) return;
    input.value = "";
    act({ type: "guess", neighbour: parseInt(form.dataset.guess, 10), word: word }).then(function (res) {
      if (res.ok) return;
      var now = document.getElementById(id);
      if (now && !now.value) now.value = word;
    });
  });

  // --- your table: the layout, the card you tapped, where the next card goes -------------------
  var local = null;      // the layout shown while a change is on its way (null: the server's)
  var sending = false, queued = false, sentVersion = 0;
  var selected = null;   // the laid card tapped (its number), to turn, move or take back
  var cursor = null;     // where the next card from the hand goes ({x, y}), shown on the table
  var finishing = null;  // "Done arranging" tapped while a change was on its way

  function board() { return document.querySelector("[data-board]"); }

  function serverLayout() {
    var b = board();
    if (!b) return [];
    try { return JSON.parse(b.dataset.layout || "[]"); } catch (e) { return []; }
  }

  function layout() {
    return (local || serverLayout()).map(function (c) {
      return { card: c.card, x: c.x, y: c.y, rotation: c.rotation || 0, face_down: !!c.face_down };
    });
  }

  function letters() {
    var out = {};
    document.querySelectorAll("[data-hand] [data-card]").forEach(function (b) { out[b.dataset.card] = b.textContent.trim(); });
    return out;
  }

  function clamp(v, most) { return Math.max(0, Math.min(most, Math.round(v * 100) / 100)); }
  function taken(cards, spot) {
    return cards.some(function (c) { return Math.abs(c.x - spot.x) < W / 2 && Math.abs(c.y - spot.y) < H / 2; });
  }
  function step(spot) {
    var x = spot.x + W, y = spot.y;
    if (x > MAX_X + 0.01) { x = 0; y += H; }
    if (y > MAX_Y + 0.01) y = 0;
    return { x: clamp(x, MAX_X), y: clamp(y, MAX_Y) };
  }
  function free(cards, spot) {
    for (var k = 0; k < COLS * ROWS && taken(cards, spot); k++) spot = step(spot);
    return spot;
  }
  // After the last card in reading order (top to bottom, left to right); an empty table starts on
  // its second line, leaving room above for a crossword.
  function afterLast(cards) {
    if (!cards.length) return { x: 0, y: H };
    var last = cards.reduce(function (a, b) { return b.y > a.y + 0.01 || (Math.abs(b.y - a.y) <= 0.01 && b.x > a.x) ? b : a; });
    return step({ x: Math.round(last.x / W) * W, y: last.y });
  }
  function nextSpot(cards) { return free(cards, cursor || afterLast(cards)); }

  function render() {
    var b = board();
    if (!b) return;
    var cards = layout(), names = letters(), tools = document.querySelector("[data-tools]");
    b.dataset.saved = local ? "false" : "true";  // whether the table shown is the one recorded
    if (selected !== null && !cards.some(function (c) { return c.card === selected; })) selected = null;
    b.textContent = "";
    cards.forEach(function (c, k) {
      var el = document.createElement("button");
      el.type = "button";
      el.className = "ink" + (c.face_down ? " down" : "") + (c.card === selected ? " selected" : "");
      el.dataset.laid = c.card;
      el.textContent = names[c.card] || "?";
      el.setAttribute("aria-pressed", c.card === selected ? "true" : "false");
      el.setAttribute("aria-label", (b.dataset.cardLabel || "%s").replace("%s", names[c.card] || "?"));
      el.style.left = clamp(c.x, MAX_X) + "%";
      el.style.top = clamp(c.y, MAX_Y) + "%";
      el.style.transform = "rotate(" + c.rotation + "deg)";
      el.style.zIndex = String(k + 1);
      b.appendChild(el);
    });
    if (selected === null) {
      var spot = nextSpot(cards), mark = document.createElement("span");
      mark.className = "ik-next";
      mark.setAttribute("aria-hidden", "true");
      mark.style.left = spot.x + "%";
      mark.style.top = spot.y + "%";
      b.appendChild(mark);
    }
    var laid = {};
    cards.forEach(function (c) { laid[c.card] = true; });
    document.querySelectorAll("[data-hand][data-mode=arrange] [data-card]").forEach(function (h) {
      h.hidden = !!laid[h.dataset.card];
    });
    if (tools) {
      var chosen = cards.filter(function (c) { return c.card === selected; })[0];
      tools.querySelectorAll("[data-tool]").forEach(function (t) { t.disabled = !chosen; });
      var flip = tools.querySelector("[data-tool=flip]");
      if (flip && chosen) flip.textContent = chosen.face_down ? (flip.dataset.up || flip.textContent) : (flip.dataset.down || flip.textContent);
    }
  }

  function settle() {
    if (!sending && local && shownVersion() >= sentVersion) { local = null; render(); }
    if (!sending && !local && finishing) {
      var again = document.querySelector('[data-action*="finish_arranging"]');
      finishing = null;
      if (again) again.click();
    }
  }

  function send() {
    if (sending) { queued = true; return; }
    sending = true;
    var cards = local;
    act({ type: "arrange", cards: cards }).then(function (res) {
      sending = false;
      if (!res.ok) { local = null; queued = false; finishing = null; render(); return; }
      sentVersion = Math.max(sentVersion, res.version || 0);
      if (queued) { queued = false; send(); return; }
      settle();
    });
  }

  function change(edit) {
    var cards = layout();
    edit(cards);
    local = cards;
    render();
    send();
  }

  function find(cards, card) {
    for (var k = 0; k < cards.length; k++) if (cards[k].card === card) return k;
    return -1;
  }

  var TOOLS = {
    turn: function (c) { c.rotation = (c.rotation + 90) % 360; },
    flip: function (c) { c.face_down = !c.face_down; },
    left: function (c) { c.x = clamp(c.x - W / 2, MAX_X); },
    right: function (c) { c.x = clamp(c.x + W / 2, MAX_X); },
    up: function (c) { c.y = clamp(c.y - H / 2, MAX_Y); },
    down: function (c) { c.y = clamp(c.y + H / 2, MAX_Y); }
  };

  document.addEventListener("click", function (e) {
    var b = board();
    if (!b) return;
    var laidCard = e.target.closest("[data-board] [data-laid]");
    var tool = e.target.closest("[data-tools] [data-tool]");
    var fromHand = e.target.closest("[data-hand][data-mode=arrange] [data-card]");
    if (laidCard) {
      var n = parseInt(laidCard.dataset.laid, 10);
      selected = selected === n ? null : n;
      render();
    } else if (e.target.closest("[data-board]")) {
      // An empty spot: the card tapped goes there, or else the next card from the hand will.
      var r = b.getBoundingClientRect();
      var spot = { x: clamp(Math.floor((e.clientX - r.left) / r.width * COLS) * W, MAX_X),
                   y: clamp(Math.floor((e.clientY - r.top) / r.height * ROWS) * H, MAX_Y) };
      if (selected !== null) {
        change(function (cards) { var k = find(cards, selected); if (k >= 0) { cards[k].x = spot.x; cards[k].y = spot.y; } });
      } else {
        cursor = spot;
        render();
      }
    } else if (tool && selected !== null && !tool.disabled) {
      var what = tool.dataset.tool, card = selected;
      change(function (cards) {
        var k = find(cards, card);
        if (k < 0) return;
        if (what === "take") { cards.splice(k, 1); selected = null; }
        else if (what === "back") { cards.unshift(cards.splice(k, 1)[0]); }
        else TOOLS[what](cards[k]);
      });
    } else if (fromHand) {
      var number = parseInt(fromHand.dataset.card, 10);
      change(function (cards) {
        if (find(cards, number) >= 0) return;
        var at = nextSpot(cards);
        cards.push({ card: number, x: at.x, y: at.y, rotation: 0, face_down: false });
        cursor = step(at);
        selected = null;
      });
    }
  });

  // "Done arranging" waits for the last change of the layout to be recorded.
  document.addEventListener("click", function (e) {
    var done = e.target.closest('[data-action*="finish_arranging"]');
    if (!done || !(sending || local)) return;
    e.preventDefault();
    e.stopImmediatePropagation();
    finishing = true;
  }, true);

  // --- putting back: up to two cards chosen, then confirmed ------------------------------------
  var picked = [];
  function hint(text) {
    var el = document.querySelector("[data-hint]");
    if (!el) { say(text); return; }
    el.textContent = text;
    clearTimeout(hint.t); hint.t = setTimeout(function () { el.textContent = ""; }, 5000);
  }

  document.addEventListener("click", function (e) {
    var card = e.target.closest("[data-hand][data-mode=put_back] [data-card]");
    if (!card) return;
    var hand = card.closest("[data-hand]"), number = card.dataset.card;
    var at = picked.indexOf(number);
    if (at < 0 && picked.length >= 2) { hint(hand.dataset.tooMany || "You can put back at most 2 ink cards."); return; }
    if (at < 0) picked.push(number); else picked.splice(at, 1);
    showPicked();
  });
  function showPicked() {
    var hand = document.querySelector("[data-hand][data-mode=put_back]");
    if (!hand) { picked = []; return; }
    hand.querySelectorAll("[data-card]").forEach(function (b) {
      var on = picked.indexOf(b.dataset.card) >= 0;
      b.classList.toggle("chosen", on);
      b.setAttribute("aria-pressed", on ? "true" : "false");
    });
  }
  document.addEventListener("click", function (e) {
    if (!e.target.closest("[data-put-back]")) return;
    act({ type: "put_back", cards: picked.map(function (c) { return parseInt(c, 10); }) });
  });

  document.addEventListener("live:update", function () {
    showPicked();
    if (!board()) { local = null; selected = null; cursor = null; }
    settle();
    render();
  });
  render();
})();
