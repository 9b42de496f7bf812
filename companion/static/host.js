// Table Companion: what only the host screen does, linked by host.html alone (a phone downloads none
// of it): a seat played on the host screen (the tablet's cover), which phones are here (presence),
// the options form, and the wake lock. Every move goes by app.js's act (window.Companion.act); the
// cover tells act the seat and the screen of a move made on it (Companion.cover).
(function () {
  "use strict";
  var C = window.Companion;
  var live = document.getElementById("live");
  var toast = document.getElementById("toast");
  var status = document.getElementById("announce");
  var act = C.act, say = C.say, versionOf = C.versionOf;
  var OFFLINE = C.message("offline", "The table's server cannot be reached. Check the Wi-Fi and try again.");
  var FAILED = C.message("failed", "That did not work.");

  // The whole options form goes on each change, one move at a time: a change made while one is on
  // its way goes after it, read then, so two moves in flight cannot land in the wrong order (a
  // field left, which says "change", then a box ticked).
  var optionsOut = null;
  function sendOptions(form) {
    if (optionsOut) { optionsOut.again = form; return; }
    var options = {};
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name) return;
      if (el.type === "checkbox") options[el.name] = el.checked;
      else if (el.dataset.kind === "int") options[el.name] = el.value === "" ? null : parseInt(el.value, 10);
      else options[el.name] = el.value === "" ? null : el.value;
    });
    optionsOut = { again: null };
    act({ type: "options", options: options }).then(function () {
      var again = optionsOut.again;
      optionsOut = null;
      if (again && again.isConnected) sendOptions(again);
    });
  }
  document.addEventListener("change", function (event) {
    var form = event.target.closest("form[data-options]");
    if (!form) return;
    var face = event.target.nextElementSibling;  // a select's face (macros.html) shows its new choice
    if (face && face.classList.contains("select-shown")) face.firstElementChild.textContent = event.target.selectedOptions[0].text;
    sendOptions(form);
  });

  // ---- Tablet seats ("pass the tablet", companion/web/tablet.py): begin ----
  // A player without a phone plays on the host screen. The offer ([data-tablet]) opens a cover over
  // the whole page that hides the table and asks them to tap when only they are looking; then the
  // cover shows their own phone screen, asked for again whenever the host screen moves on. What the
  // seat has now is its screen's data-tablet-status (the game's declaration: "waited", "prompted",
  // "optional", or nothing). While the table waits for their move the cover hides the whole table;
  // while the table's own step runs (a word to read before the host turns the hourglass, a doodle
  // drawn while it runs) their screen lies beside the table, whose hourglass and controls stay in
  // view and in reach. It closes once the move the table waited for is made, when they have
  // nothing left (the host screen then offers the tablet again for the next step), on "Done —
  // hand back", or when there is nothing left to play. Nothing of their screen stays in the page.
  // Every move sent from inside it carries "for": their seat (seatOf, in act's request).
  var tablet = null;  // the open cover: {cover, url, shown, status, phase, asked, version, moving, stilled}

  function forSeat(el) {
    var holder = el && el.closest ? el.closest("[data-for]") : null;
    return holder ? parseInt(holder.dataset.for, 10) : null;
  }

  // The seat of the cover's screen a move was made on; for a game script's move while a seat's screen
  // shows, that seat's if it can make it now (data-can: a host's timed move is no seat's).
  function seatOf(el, move) {
    if (el) return forSeat(el);
    var seat = tablet && tablet.shown ? tablet.cover.querySelector("[data-for]") : null;
    if (!seat || !move || (seat.dataset.can || "").split(" ").indexOf(move.type) < 0) return null;
    return parseInt(seat.dataset.for, 10);
  }

  // A move made for a seat while its screen shows: act lands it (its answer came) and shows its
  // answer on the cover, or asks for the screen (a JSON answer, or none: offline).
  function move() {
    var mine = tablet;
    if (!mine || !mine.shown) return null;
    var asked = ++mine.asked, landed = false;
    mine.moving += 1;
    return {
      url: mine.url,
      land: function () { if (!landed) { landed = true; mine.moving -= 1; } },
      show: function (html, tag) { showSeat(mine, asked, html, tag); },
      again: function () { if (tablet) showTablet(); },
      lost: function () { if (tablet === mine) showTablet(); }
    };
  }
  C.cover = { seatOf: seatOf, move: move };

  function closeTablet() {
    if (!tablet) return;
    tablet.stilled.forEach(function (el) { el.inert = false; });
    tablet.cover.remove();
    document.body.classList.remove("tablet-beside");
    tablet = null;
  }

  // Beside the table (its step runs: #live stays in view and in reach), or over all of it.
  function lay(mine, has) {
    var beside = has === "prompted" || has === "optional";
    mine.cover.classList.toggle("beside", beside);
    mine.cover.setAttribute("aria-modal", beside ? "false" : "true");  // the table beside is for everyone
    document.body.classList.toggle("tablet-beside", beside);
    if (live && mine.stilled.indexOf(live) >= 0) live.inert = !beside;
  }

  // Whether the cover is done with: the move the table waited for is made (or the game moved on
  // from the step it waited for), or the seat has nothing left to see or do.
  function done(mine, has, phase) {
    if (!has) return true;
    if (mine.status === "waited" && has !== "waited") return true;
    return mine.phase !== null && phase !== mine.phase && (mine.status === "waited" || mine.status === "optional");
  }

  // While the cover is open the page behind it is inert: no tap, no Tab and no screen reader
  // reaches the table it hides (the toast and the announcements still speak).
  function still(cover) {
    return Array.prototype.filter.call(document.body.children, function (el) {
      if (el === cover || el === toast || el === status || el.tagName === "SCRIPT" || el.inert) return false;
      el.inert = true;
      return true;
    });
  }

  function openTablet(offer) {
    var template = document.getElementById("tablet-cover");
    if (!template) return;
    closeTablet();
    var cover = template.content.firstElementChild.cloneNode(true);
    cover.querySelector("[data-tablet-question]").textContent = offer.dataset.tabletAsk;
    document.body.insertBefore(cover, toast);  // outside #live: the host's updates leave it be
    tablet = { cover: cover, url: offer.dataset.tablet, shown: false, status: null, phase: null, asked: 0, version: null,
               moving: 0, stilled: still(cover) };
    var show = cover.querySelector("[data-tablet-show]");
    if (show) show.focus();
    C.announce(cover.querySelector("h2"));
  }

  function showTablet() {
    var mine = tablet, asked = ++mine.asked;
    fetch(mine.url, { credentials: "same-origin", cache: "no-store" })
      .then(function (r) { return r.text().then(function (html) { return { ok: r.ok, html: html, tag: r.headers.get("ETag") }; }); })
      .then(function (answer) {
        if (answer.ok) { showSeat(mine, asked, answer.html, answer.tag); return; }
        if (tablet !== mine || asked !== mine.asked) return;
        var sentence = document.createElement("div");
        sentence.innerHTML = answer.html;
        closeTablet();
        say(sentence.textContent.trim() || FAILED);
      })
      .catch(function () { if (tablet === mine) say(OFFLINE); });
  }

  // Unless the cover closed or a later answer is coming.
  function showSeat(mine, asked, html, tag) {
    if (tablet !== mine || asked !== mine.asked) return;
    var screen = mine.cover.querySelector("[data-tablet-screen]");
    C.morph(screen, html);
    mine.version = versionOf(tag);
    // The game's own scripts set up what they show on a phone (a typed guess kept, a layout).
    screen.dispatchEvent(new CustomEvent("live:update", { bubbles: true }));
    var seat = screen.querySelector("[data-phase]"), holder = screen.querySelector("[data-tablet-status]");
    var has = holder ? holder.dataset.tabletStatus : "", phase = seat ? seat.dataset.phase : null;
    // The first screen shows whatever it says (she asked for it); later ones close it when done.
    if (screen.querySelector("[data-tablet-over]") || (mine.status !== null && done(mine, has, phase))) {
      closeTablet();
      return;
    }
    mine.status = has;
    mine.phase = phase;
    lay(mine, has);
    stale();  // the host screen saw a later version meanwhile
  }

  // Asked again for a later version, unless a move's answer (bringing it) is on its way.
  function stale() {
    var mine = tablet;
    if (mine && mine.shown && !mine.moving && mine.version !== null && C.shown() > mine.version) showTablet();
  }

  document.addEventListener("click", function (event) {
    var offer = event.target.closest("[data-tablet]");
    if (offer) { openTablet(offer); return; }
    if (!tablet || !tablet.cover.contains(event.target)) return;
    if (event.target.closest("[data-tablet-done]")) {
      closeTablet();
    } else if (event.target.closest("[data-tablet-show]")) {
      tablet.cover.querySelector("[data-tablet-ask-box]").hidden = true;
      tablet.cover.querySelector("[data-tablet-screen]").hidden = false;
      tablet.shown = true;
      showTablet();
    }
  });
  document.addEventListener("keydown", function (event) { if (event.key === "Escape") closeTablet(); });

  if (live) live.addEventListener("live:update", stale);
  // ---- Tablet seats: end ----

  // ---- Presence (companion/live/presence.py, companion/web/presence.py): begin ----
  // The host screen asks every few seconds which phones are connected (presence moves no version,
  // so the fragment's polls would not tell it) and marks the seats ([data-presence-seat]: class
  // "offline") and the offers beside an awaited seat whose phone is gone past the grace period
  // ([data-presence-offer]: shown). A fresh fragment comes with the presence of its moment.
  // A seat's chip says "away" (its page said it went) or "offline" instead of its waiting word
  // ([data-presence-seat] .presence-state, shown by app.css while the seat has yet to act).
  var presence = { timer: null, last: null };
  function markPresence(data) {
    presence.last = data;
    var connected = {}, away = {}, gone = {};
    data.players.forEach(function (p) {
      connected[p.seat] = p.connected || !p.phone; away[p.seat] = !!p.away; gone[p.seat] = !!p.gone;
    });
    var waiting = data.waiting_for || [];
    Array.prototype.forEach.call(live.querySelectorAll("[data-presence-seat]"), function (el) {
      var seat = el.dataset.presenceSeat;
      var off = el.dataset.phone !== "false" && connected[seat] === false;
      el.classList.toggle("offline", off);
      el.classList.toggle("away", off && away[seat]);
      Array.prototype.forEach.call(el.querySelectorAll(".presence-word, .presence-state"), function (word) {
        word.textContent = !off ? (word.dataset.on || "") : away[seat] ? word.dataset.away : word.dataset.off;
      });
    });
    var any = false, offers = live.querySelector("[data-presence-offers]");
    // A team's move (data-presence-any) waits for nobody while one of the team can make it.
    var nobodyBlocks = !!offers && offers.hasAttribute("data-presence-any")
      && waiting.some(function (seat) { return connected[seat] !== false; });
    Array.prototype.forEach.call(live.querySelectorAll("[data-presence-offer]"), function (el) {
      var seat = parseInt(el.dataset.presenceOffer, 10);
      // Offered once the phone is gone past the grace period: the server refuses both moves before.
      el.hidden = nobodyBlocks || !(gone[seat] && waiting.indexOf(seat) !== -1);
      any = any || !el.hidden;
    });
    if (offers) offers.hidden = !any;
  }
  function askPresence() {
    clearTimeout(presence.timer);
    var corner = live && live.querySelector("[data-presence]");
    if (!corner || document.visibilityState === "hidden") return;
    fetch(corner.dataset.presence, { headers: { "X-Companion-Role": "host" }, credentials: "same-origin", cache: "no-store" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) {
        if (data) markPresence(data);
        presence.timer = setTimeout(askPresence, 1000 * ((data && data.every) || 3));
      })
      .catch(function () { presence.timer = setTimeout(askPresence, 5000); });
  }
  if (live) {
    presence.timer = setTimeout(askPresence, 3000);
    live.addEventListener("live:update", function () { askPresence(); });
    document.addEventListener("visibilitychange", function () { if (document.visibilityState === "visible") askPresence(); });
  }
  // ---- Presence: end ----

  // The handover QR code (templates/host_dialogs.html) is drawn as its dialog opens: its key
  // lasts ten minutes, so a code drawn when the page loaded may be stale by the time it is shown.
  document.addEventListener("click", function (event) {
    var opener = event.target.closest('[data-ask="ask-move-host"]');
    var img = opener && document.querySelector("#ask-move-host img[data-src]");
    if (img) img.src = img.dataset.src + "?at=" + Date.now();
  });

  // A phone's question to become the host screen (templates/hosting_ask.html) lapses after its
  // seconds: hidden then, as the server no longer takes its Allow (nothing moves the version).
  function lapse() {
    var asks = live && live.querySelector("[data-expires-in]");
    if (asks) setTimeout(function () { if (asks.isConnected) asks.hidden = true; }, 1000 * parseInt(asks.dataset.expiresIn, 10));
  }
  if (live) live.addEventListener("live:update", lapse);
  lapse();

  C.keepAwake(true);  // the table's screen stays on all evening (app.js's wake lock)
})();
