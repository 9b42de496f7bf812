// Table Companion: live screens by long polling, and act, the one way a page sends a move.
// #live is the live part of a page, data-live its fragment's URL. A poll sends the ETag shown and asks
// to be held up to data-wait s: the answer is the new fragment once the room changes, or 304. A server
// that cannot hold polls answers 304 at once: the page asks again after data-poll ms.
// act(move, options) (window.Companion.act) sends every move of every page and game script, "for"
// a tablet seat included, and names the screen it was made on (X-Companion-Screen): the server
// answers with that fragment and its ETag (companion/web/screen.py), so a tap is one round trip.
// Fragments are swapped in by idiomorph 0.8.0 (vendor/idiomorph.min.js, 0BSD, the htmx team's; served
// here, no CDN): it changes only the nodes that differ, so focus, typed text and caret, a canvas, an
// open <details> stay the same elements, where the hand-written innerHTML swap restored each by hand
// (the last flaky test came from there). htmx was left out: it would take over the requests (forms,
// not the API's JSON moves) and the ETag polling, for 16 KB more gzipped; idiomorph is 4 KB.
(function () {
  "use strict";
  var live = document.getElementById("live");
  var toast = document.getElementById("toast");
  var role = document.body.dataset.role;
  var etag = live ? live.dataset.etag : null;
  var pollMs = live ? parseInt(live.dataset.poll || "800", 10) : 0;
  var waitS = live ? parseInt(live.dataset.wait || "0", 10) : 0;
  var timer = null;
  var failures = 0;
  var inFlight = null;  // the AbortController of the poll being answered
  // The page's own sentences, in the page's language (the server's sentences come translated).
  var messages = {};
  try { messages = JSON.parse(document.body.dataset.messages || "{}"); } catch (e) { messages = {}; }

  function say(text, kind) {
    if (!toast) return;
    toast.textContent = text;
    toast.className = "toast show " + (kind || "error");
    clearTimeout(say.t);
    say.t = setTimeout(function () { toast.className = "toast"; }, 5000);
  }

  function schedule(ms) {
    clearTimeout(timer);
    if (document.visibilityState === "hidden") return;
    timer = setTimeout(poll, Math.max(0, ms));
  }

  function pollUrl() {
    var url = new URL(live.dataset.live, window.location.href);
    if (etag && waitS > 0) url.searchParams.set("wait", String(waitS));
    return url.toString();
  }

  // poll(true) starts afresh even if a poll is out: after sleep or a lost network, a held request
  // may never be answered.
  function poll(fresh) {
    if (!live || (inFlight && fresh !== true)) return;
    if (inFlight) inFlight.abort();
    var mine = inFlight = new AbortController();
    var started = Date.now();
    var held = false;
    var guard = setTimeout(function () { mine.abort(); }, (waitS + 10) * 1000);
    var headers = {};
    if (etag) headers["If-None-Match"] = etag;
    fetch(pollUrl(), { headers: headers, credentials: "same-origin", cache: "no-store", signal: mine.signal })
      .then(function (r) {
        if (r.status === 304) { held = Date.now() - started >= pollMs; return null; }
        if (!r.ok) throw new Error("status " + r.status);
        if (reloads(r)) return new Promise(function () { /* the page is going: nothing more to show */ });
        held = true;
        var tag = r.headers.get("ETag");
        return r.text().then(function (html) { return { html: html, tag: tag }; });
      })
      .then(function (answer) {
        if (mine !== inFlight) return;
        failures = 0;
        document.body.classList.remove("offline");
        // The page has a version only once it shows it: a poll replaced while its body was still
        // coming (a photo just sent asks afresh) must not leave the page claiming what it never showed.
        if (answer !== null) showLive(answer.html, answer.tag);
      })
      .catch(function () {
        if (mine !== inFlight) return;  // replaced by a fresh poll: not a failure
        failures += 1;
        if (failures > 2) document.body.classList.add("offline");
      })
      .then(function () {
        clearTimeout(guard);
        if (mine !== inFlight) return;
        inFlight = null;
        // Held (or news): ask again at once. Answered at once: wait out the poll period.
        schedule(failures ? Math.min(5000, pollMs * (failures + 1)) : (held ? 0 : pollMs - (Date.now() - started)));
      });
  }

  // The fragment speaks another language than the page (the table's language changed): load the
  // whole page again, so its title and the script's own sentences follow too. So does a fragment of
  // another game (the table picked its next game tonight): the page's head carries each game's own
  // styles and scripts.
  function reloads(r) {
    var spoken = r.headers.get("Content-Language"), game = r.headers.get("X-Companion-Game");
    if ((spoken && document.documentElement.lang && spoken !== document.documentElement.lang)
        || (game && document.body.dataset.game && game !== document.body.dataset.game)) {
      window.location.reload();
      return true;
    }
    return false;
  }

  // "v12" -> 12: the room's version a fragment shows (companion/live/polling.py's ETag).
  function versionOf(tag) {
    var m = /"v(\d+)"/.exec(tag || "");
    return m ? parseInt(m[1], 10) : null;
  }

  // Unless #live shows that version or a later one (a move's answer and the held poll both bring it).
  function showLive(html, tag) {
    var version = versionOf(tag), shown = versionOf(etag);
    if (version !== null && shown !== null && version <= shown) return;
    etag = tag;
    var before = live.querySelector("[data-phase]");
    var phase = before ? before.dataset.phase : null;
    var focused = focusKey(document.activeElement);
    swap(live, html);
    var after = live.querySelector("[data-phase]");
    if (after && after.dataset.phase !== phase) {
      // A new phase is a new screen: show it from the top, and tell a screen reader its title.
      window.scrollTo(0, 0);
      announce(live.querySelector("h1, h2, .phase-title, .ask"));
    }
    restoreFocus(focused);
    live.dispatchEvent(new CustomEvent("live:update", { bubbles: true }));
  }

  // What the user changed on a control and the server did not (a typed word, a ticked box) is theirs:
  // ``kept`` holds the controls whose value the morph leaves. A <details> stays as the user left it.
  var kept = new Set();
  function keeps(old, fresh) {
    if (old.nodeType !== 1 || fresh.nodeType !== 1 || old.tagName !== fresh.tagName) return;
    var text = old.tagName === "TEXTAREA" || (old.tagName === "INPUT" && /^(text|search|number|email)$/.test(old.type));
    var typed = text && old.value !== old.defaultValue
      && (old.tagName === "TEXTAREA" ? fresh.textContent : fresh.getAttribute("value") || "") === old.defaultValue;
    var ticked = old.tagName === "INPUT" && (old.type === "checkbox" || old.type === "radio")
      && old.checked !== old.defaultChecked && fresh.hasAttribute("checked") === old.defaultChecked;
    if (typed || ticked) kept.add(old);
  }

  function swap(target, html) {
    kept.clear();
    Idiomorph.morph(target, html, {
      morphStyle: "innerHTML",
      callbacks: {
        beforeNodeMorphed: function (old, fresh) { keeps(old, fresh); return true; },
        beforeAttributeUpdated: function (name, el) {
          if (name === "open" && el.tagName === "DETAILS") return false;
          return !(kept.has(el) && (name === "value" || name === "checked"));
        }
      }
    });
    kept.clear();
  }

  // Focus on a control the morph replaced goes to the one of the same id or move.
  function focusKey(el) {
    if (!el || !live.contains(el)) return null;
    if (el.id) return "#" + CSS.escape(el.id);
    if (el.dataset.action) return '[data-action="' + CSS.escape(el.dataset.action) + '"]';
    return null;
  }

  function restoreFocus(key) {
    if (!key || live.contains(document.activeElement)) return;
    var el = live.querySelector(key);
    if (el) el.focus({ preventScroll: true });
  }

  var status = document.getElementById("announce");
  function announce(heading) {
    if (status && heading) status.textContent = heading.textContent.replace(/\s+/g, " ").trim();
  }

  function currentVersion() {
    var el = live && live.querySelector("[data-version]");
    return el ? parseInt(el.dataset.version, 10) : null;
  }

  var OFFLINE = messages.offline || "The table's server cannot be reached. Check the Wi-Fi and try again.";
  var FAILED = messages.failed || "That did not work.";

  // act(move, {from: element tapped, for: seat, versioned, quiet: no toast, url: a photo's address
  // for a Blob move}) -> a promise of {ok, status, error, version}, never rejected (offline: status 0).
  function act(move, options) {
    options = options || {};
    var seat = options["for"] !== undefined ? options["for"] : seatOf(options.from, move);
    var cover = seat !== null && tablet && tablet.shown ? tablet : null;
    var screen = cover ? cover.url : (live ? live.dataset.live : null);
    var headers = { "X-Companion-Role": role };
    if (screen) headers["X-Companion-Screen"] = new URL(screen, window.location.href).pathname;
    var url = options.url || document.body.dataset.actions, body;
    if (options.url) {  // a photo: its bytes as they are, the seat in the address
      body = move;
      headers["Content-Type"] = move.type || "application/octet-stream";
      if (seat !== null) url += (url.indexOf("?") < 0 ? "?" : "&") + "for=" + encodeURIComponent(seat);
    } else {
      move = Object.assign({}, move);
      if (seat !== null) move["for"] = seat;
      if (options.versioned) move.version = currentVersion();
      body = JSON.stringify(move);
      headers["Content-Type"] = "application/json";
    }
    var asked = cover ? ++cover.asked : 0;
    var landed = false;
    function land() { if (cover && !landed) { landed = true; cover.moving -= 1; } }
    if (cover) cover.moving += 1;
    return fetch(url, { method: "POST", credentials: "same-origin", headers: headers, body: body })
      .then(function (r) {
        land();
        var tag = r.headers.get("ETag");
        if (r.ok && (r.headers.get("Content-Type") || "").indexOf("text/html") === 0) {
          if (!cover && reloads(r)) return { ok: true, status: r.status, version: versionOf(tag) };
          return r.text().then(function (html) {
            // The screen the move was made on, as the server now shows it.
            if (cover) showSeat(cover, asked, html, tag);
            else if (live) showLive(html, tag);
            return { ok: true, status: r.status, version: versionOf(tag) };
          });
        }
        return r.json().catch(function () { return {}; }).then(function (data) {
          if (!r.ok && !options.quiet) say(data.error || FAILED);
          // A JSON view (an endpoint that answers no screen): ask for the screen.
          if (r.ok) { if (cover) showTablet(); else poll(true); }
          return { ok: r.ok, status: r.status, error: data.error, version: r.ok ? data.version : null };
        });
      })
      .catch(function () {
        land();
        if (cover && tablet === cover) showTablet();
        if (!options.quiet) say(OFFLINE);
        return { ok: false, status: 0, error: OFFLINE };
      });
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-action]");
    if (!button || button.disabled) return;
    event.preventDefault();
    var action = JSON.parse(button.dataset.action);
    if (button.dataset.prompt) {
      var value = window.prompt(button.dataset.prompt, button.dataset.value || "");
      if (value === null) return;
      action[button.dataset.field || "name"] = value;
    }
    if (button.dataset.confirm && !window.confirm(button.dataset.confirm)) return;
    button.classList.add("pressed");
    act(action, { from: button, versioned: button.hasAttribute("data-versioned") });
  });

  // A move of several picks, declared: [data-pick-move] (the move, its data-pick-into field) goes when
  // data-pick-count of its [data-pick] buttons (JSON values) are chosen.
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-pick]");
    var group = button && button.closest("[data-pick-move]");
    if (!group) return;
    button.classList.toggle("chosen");
    var picked = Array.prototype.map.call(group.querySelectorAll("[data-pick].chosen"),
      function (b) { return JSON.parse(b.dataset.pick); });
    if (picked.length === parseInt(group.dataset.pickCount, 10)) {
      var move = JSON.parse(group.dataset.pickMove);
      move[group.dataset.pickInto] = picked;
      act(move, { from: button });
    }
  });

  // The host bar's panels (details.pop) open over the stage: a tap elsewhere or Escape closes them.
  function closePops(except) {
    Array.prototype.forEach.call(document.querySelectorAll("details.pop[open]"), function (d) {
      if (d !== except) d.open = false;
    });
  }
  document.addEventListener("click", function (event) {
    closePops(event.target.closest ? event.target.closest("details.pop") : null);
  });
  document.addEventListener("keydown", function (event) { if (event.key === "Escape") closePops(null); });

  // A file chosen for a form (own_cards_form.html): its name, where the browser's own control would say it.
  document.addEventListener("change", function (event) {
    var shown = event.target.dataset && event.target.dataset.fileName && document.getElementById(event.target.dataset.fileName);
    if (shown && event.target.files && event.target.files.length) shown.textContent = event.target.files[0].name;
  });

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

  // A form of the live screens (options, a typed word, a guess) is sent by the scripts, never as
  // a page: Enter must not submit it (no inline handler: the security policy runs no inline script).
  document.addEventListener("submit", function (event) {
    if (!event.target.hasAttribute("action")) event.preventDefault();
  });

  function wake() {
    // Absent without HTTPS (a table's Wi-Fi address), refused in WebKit and on a hidden page: the
    // screen may then sleep, and nothing is said about it.
    if (role !== "host" || !navigator.wakeLock || typeof navigator.wakeLock.request !== "function") return;
    try {
      var lock = navigator.wakeLock.request("screen");
      if (lock && typeof lock.catch === "function") lock.catch(function () { /* not allowed here: fine */ });
    } catch (e) { /* an implementation that throws instead of refusing: fine too */ }
  }

  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") { poll(true); wake(); }
  });
  window.addEventListener("pageshow", function (event) { if (event.persisted) poll(true); });
  window.addEventListener("online", function () { poll(true); });
  // ---- Tablet seats ("pass the tablet", companion/web/tablet.py): begin ----
  // A player without a phone plays on the host screen. The offer ([data-tablet]) opens a cover over
  // the whole page that hides the table and asks them to tap when only they are looking; then the
  // cover shows their own phone screen, asked for again whenever the host screen moves on, and
  // closes when the game no longer waits for them (their data-turn goes from 1 to 0) or moves on to
  // another phase (the host screen then offers the tablet again for the next step), on "Done —
  // hand back", or when there is nothing left to play. Nothing of their screen stays in the page.
  // Every move sent from inside it carries "for": their seat (seatOf, in act's request).
  var tablet = null;  // the open cover: {cover, url, shown, turn, phase, asked, version, stilled}

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

  function closeTablet() {
    if (!tablet) return;
    tablet.stilled.forEach(function (el) { el.inert = false; });
    tablet.cover.remove();
    tablet = null;
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
    tablet = { cover: cover, url: offer.dataset.tablet, shown: false, turn: null, phase: null, asked: 0, version: null,
               moving: 0, stilled: still(cover) };
    var show = cover.querySelector("[data-tablet-show]");
    if (show) show.focus();
    announce(cover.querySelector("h2"));
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
    swap(screen, html);
    mine.version = versionOf(tag);
    // The game's own scripts set up what they show on a phone (a typed guess kept, a layout).
    screen.dispatchEvent(new CustomEvent("live:update", { bubbles: true }));
    var seat = screen.querySelector("[data-phase]");
    var turn = seat && seat.dataset.turn || "0", phase = seat ? seat.dataset.phase : null;
    if (screen.querySelector("[data-tablet-over]") || (mine.turn === "1" && turn === "0")
        || (mine.phase !== null && phase !== mine.phase)) {
      closeTablet();  // done: the game waits for them no more, or has moved on to its next step
      return;
    }
    mine.turn = turn;
    mine.phase = phase;
    stale();  // the host screen saw a later version meanwhile
  }

  // Asked again for a later version, unless a move's answer (bringing it) is on its way.
  function stale() {
    var mine = tablet;
    if (mine && mine.shown && !mine.moving && mine.version !== null && versionOf(etag) > mine.version) showTablet();
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
  // A phone's page says at once when it goes (hidden, closed) and when it is back, by a beacon;
  // its polls say the rest. The host screen asks every few seconds which phones are connected
  // (presence moves no version, so the fragment's polls would not tell it) and marks the seats
  // ([data-presence-seat]: class "offline") and the offers beside an awaited seat whose phone is
  // gone past the grace period ([data-presence-offer]: shown). A fresh fragment comes with the presence of its moment.
  var presenceUrl = (document.body.dataset.actions || "").replace(/\/actions$/, "/presence");
  if (role === "seat" && live && presenceUrl && navigator.sendBeacon) {
    var said = null;
    var sayPresence = function (here) {
      if (said === here) return;
      said = here;
      try { navigator.sendBeacon(presenceUrl + "?here=" + (here ? "1" : "0")); } catch (e) { /* best effort */ }
    };
    window.addEventListener("pagehide", function () { sayPresence(false); });
    document.addEventListener("visibilitychange", function () { sayPresence(document.visibilityState === "visible"); });
    window.addEventListener("pageshow", function () { if (said === false) sayPresence(true); });
  }
  var presence = { timer: null, last: null };
  function markPresence(data) {
    presence.last = data;
    var connected = {}, gone = {};
    data.players.forEach(function (p) { connected[p.seat] = p.connected || !p.phone; gone[p.seat] = !!p.gone; });
    var waiting = data.waiting_for || [];
    Array.prototype.forEach.call(live.querySelectorAll("[data-presence-seat]"), function (el) {
      var seat = el.dataset.presenceSeat;
      var off = el.dataset.phone !== "false" && connected[seat] === false;
      el.classList.toggle("offline", off);
      var word = el.querySelector(".presence-word");
      if (word) word.textContent = off ? word.dataset.off : word.dataset.on;
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
  if (role === "host" && live) {
    presence.timer = setTimeout(askPresence, 3000);
    live.addEventListener("live:update", function () { askPresence(); });
    document.addEventListener("visibilitychange", function () { if (document.visibilityState === "visible") askPresence(); });
  }
  // ---- Presence: end ----

  // For photo.js and the games' scripts: message(key, fallback) is a page's sentence; refresh() polls now.
  window.Companion = {
    act: act, say: say, refresh: function () { poll(true); },
    message: function (key, fallback) { return messages[key] || fallback; }
  };
  wake();
  poll();
})();
