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
// What only the host screen does (the tablet's cover, presence, the options form, the wake lock) is
// host.js's, which the host page alone links: a phone downloads none of it.
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

  // The lines at a phone page's foot (who hosts, whose turn the tablet plays) give way, the last
  // first, where they would make the page scroll: its one action stays in view.
  function foot() {
    var lines = live ? live.querySelectorAll(".hosted-foot, .tablet-seats") : [];
    var k;
    for (k = 0; k < lines.length; k++) lines[k].hidden = false;
    for (k = lines.length - 1; k >= 0 && document.documentElement.scrollHeight > window.innerHeight; k--) {
      lines[k].hidden = true;
    }
  }
  foot();
  window.addEventListener("resize", foot);

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
        sendKept();
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
    news();
    foot();
    restoreFocus(focused);
    var go = live.querySelector("[data-go]");  // this phone became the host screen
    if (go) location.assign(go.href);
    live.dispatchEvent(new CustomEvent("live:update", { bubbles: true }));
  }

  // What the user changed on a control and the server did not (a typed word, a ticked box) is theirs:
  // ``kept`` holds the controls whose value the morph leaves. A <details> or <dialog> stays as the user left it.
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
          if (name === "open" && (el.tagName === "DETAILS" || el.tagName === "DIALOG")) return false;  // as the user left it
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

  // A reveal and its scores, said once as they arrive (templates/announce_live.html: the fragment's
  // hidden [data-announce], in the page's language): said when its text changes, after the new
  // phase's title, which it replaces; the one the page opened with is not said again.
  function newsText() {
    var el = live && live.querySelector("[data-announce]");
    return el ? el.textContent.replace(/\s+/g, " ").trim() : "";
  }
  var newsSaid = newsText();
  function news() {
    var text = newsText();
    if (text && text !== newsSaid) announce({ textContent: text });
    newsSaid = text;
  }

  function currentVersion() {
    var el = live && live.querySelector("[data-version]");
    return el ? parseInt(el.dataset.version, 10) : null;
  }

  var OFFLINE = messages.offline || "The table's server cannot be reached. Check the Wi-Fi and try again.";
  var FAILED = messages.failed || "That did not work.";
  var WAITING = messages.waiting || "Waiting for the Wi-Fi…";

  // A move's id (Idempotency-Key): the server makes a move once per id. Not randomUUID: plain http.
  function newId() {
    var bytes = crypto.getRandomValues(new Uint8Array(12));
    return btoa(String.fromCharCode.apply(null, bytes)).replace(/\+/g, "-").replace(/\//g, "_");
  }

  // act(move, {from: element tapped, for: seat, versioned, quiet: no toast, url: a photo's address
  // for a Blob move, id}) -> a promise of {ok, status, error, version}, never rejected (offline:
  // status 0; kept to send again: queued). A seat played on the host screen (the tablet's cover,
  // host.js) is Companion.cover: it names the seat a move is made for and, while its screen shows,
  // the screen that move answers.
  function act(move, options) {
    options = options || {};
    var other = window.Companion.cover;
    var seat = options["for"] !== undefined ? options["for"] : (other ? other.seatOf(options.from, move) : null);
    var cover = seat !== null && other ? other.move() : null;
    var screen = cover ? cover.url : (live ? live.dataset.live : null);
    var headers = { "X-Companion-Role": role, "Idempotency-Key": options.id || newId() };
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
    var request = { url: url, headers: headers, body: body, cover: cover, options: options, shown: currentVersion() };
    return deliver(request).catch(function () {
      if (cover) { cover.land(); cover.lost(); }
      if (cover) {
        if (!options.quiet) say(OFFLINE);
        return { ok: false, status: 0, error: OFFLINE };
      }
      keep(request);
      return { ok: false, status: 0, error: WAITING, queued: true };
    });
  }

  // One sending and its answer shown; rejected when the server was not reached.
  function deliver(request) {
    var cover = request.cover, options = request.options;
    return fetch(request.url, { method: "POST", credentials: "same-origin", headers: request.headers, body: request.body })
      .then(function (r) {
        if (cover) cover.land();
        var tag = r.headers.get("ETag");
        if (r.ok && (r.headers.get("Content-Type") || "").indexOf("text/html") === 0) {
          if (!cover && reloads(r)) return { ok: true, status: r.status, version: versionOf(tag) };
          return r.text().then(function (html) {
            // The screen the move was made on, as the server now shows it.
            if (cover) cover.show(html, tag);
            else if (live) showLive(html, tag);
            return { ok: true, status: r.status, version: versionOf(tag) };
          });
        }
        return r.json().catch(function () { return {}; }).then(function (data) {
          if (!r.ok && !options.quiet) say(data.error || FAILED);
          // A JSON view (an endpoint that answers no screen): ask for the screen.
          if (r.ok) { if (cover) cover.again(); else poll(true); }
          return { ok: r.ok, status: r.status, error: data.error, version: r.ok ? data.version : null };
        });
      });
  }

  // ---- Moves made offline: begin ----
  // A move the server did not receive is kept (its button says so) and sent again in order, with
  // its id and the version its screen showed (a step left since refuses it), on "online", a poll
  // that gets through, or a backoff retry (a photo too: its bytes, at most 200 KB). Not a move on
  // the tablet's cover: the tablet passes on to the next seat, whose screen it then shows.
  var unsent = [], sending = false, retry = null, backoff = 1000;

  function keep(request) {
    request.headers["X-Companion-Acted-On"] = String(request.shown === null ? 0 : request.shown);
    request.button = request.options.from;
    unsent.push(request);
    waiting(request.button, true);
    if (!request.options.quiet) say(WAITING, "info");
    later();
  }

  function waiting(button, on) {
    if (!button || button.tagName !== "BUTTON") return;  // a photo's input says it in its toast
    if (on && !button.classList.contains("waiting")) {
      button.dataset.label = button.textContent;
      button.textContent = WAITING;
    } else if (!on && button.classList.contains("waiting")) {
      button.textContent = button.dataset.label;
    }
    button.classList.toggle("waiting", on);
  }

  function later() {
    clearTimeout(retry);
    retry = setTimeout(sendKept, backoff);
    backoff = Math.min(backoff * 2, 15000);
  }

  function sendKept() {
    if (sending || !unsent.length) return;
    sending = true;
    clearTimeout(retry);
    var request = unsent[0];
    deliver(request).then(function () {
      unsent.shift();
      waiting(request.button, false);
      sending = false;
      backoff = 1000;
      sendKept();
    }, function () { sending = false; later(); });
  }

  window.addEventListener("online", function () { backoff = 1000; sendKept(); });
  // The service worker (templates/sw.js); browsers allow one on https and localhost only.
  if ("serviceWorker" in navigator && window.isSecureContext) navigator.serviceWorker.register("/sw.js").catch(function () {});
  // ---- Moves made offline: end ----

  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-action]");
    if (!button || button.disabled || button.classList.contains("waiting")) return;
    event.preventDefault();
    if ((button.dataset.prompt || button.dataset.confirm) && ask(button)) return;
    send(button, null);
  });

  // The move of a button ([data-action]), with ``value`` in its field (data-field, "name") when it asked.
  function send(button, value) {
    var action = JSON.parse(button.dataset.action);
    if (value !== null) action[button.dataset.field || "name"] = value;
    button.classList.add("pressed");
    // One id per button until the server's screen replaces it (the morph drops the attribute):
    // a second tap before the answer is the same move.
    var id = button.dataset.moveId || (button.dataset.moveId = newId());
    act(action, { from: button, id: id, versioned: button.hasAttribute("data-versioned") });
  }

  // ---- Questions in the page: begin ----
  // A button's data-confirm (a question) or data-prompt (a question with a text field, filled with
  // its data-value) asks in one dialog of the page (base.html's #ask-template), never by the
  // browser's window.confirm/prompt: small on a TV, unstyled, blocked by some TV browsers. Its yes
  // says the button's data-yes, aria-label or words; Enter in the field or on the yes sends the
  // move, Escape or Cancel sends nothing. The dialog is put in the page as it asks (so a cover that
  // made the rest of the page inert leaves it be) and taken out as it closes.
  function ask(opener) {
    var template = document.getElementById("ask-template");
    if (!template || !window.HTMLDialogElement) return false;
    var dialog = template.content.firstElementChild.cloneNode(true);
    var field = dialog.querySelector(".ask-value"), yes = dialog.querySelector(".ask-yes");
    var prompt = opener.dataset.prompt;
    dialog.querySelector(".ask-question").textContent = prompt || opener.dataset.confirm;
    yes.textContent = opener.dataset.yes || opener.getAttribute("aria-label") || opener.textContent.trim();
    if (prompt) field.value = opener.dataset.value || "";
    else field.remove();
    // Escape closes this dialog only (not the tablet's cover or a panel behind it).
    dialog.addEventListener("keydown", function (event) { if (event.key === "Escape") event.stopPropagation(); });
    dialog.addEventListener("close", function () {
      dialog.remove();
      if (opener.isConnected) opener.focus({ preventScroll: true });
      if (dialog.returnValue === "yes") send(opener, prompt ? field.value : null);
    });
    document.body.appendChild(dialog);
    dialog.showModal();
    if (prompt) { field.focus(); field.select(); } else yes.focus();
    return true;
  }
  // ---- Questions in the page: end ----

  // A host dialog is in the page (a TV browser may block window.confirm, and its box is small): a
  // <dialog class="ask" id> in the template, opened by a button's data-ask="<id>" as a modal (Escape
  // and its <form method="dialog"> button close it); a move button inside it closes it as it acts.
  document.addEventListener("click", function (event) {
    var opener = event.target.closest("[data-ask]");
    var dialog = opener && document.getElementById(opener.dataset.ask);
    if (dialog && dialog.showModal) { event.preventDefault(); dialog.showModal(); return; }
    var inside = event.target.closest("dialog.ask [data-action]");
    if (inside) inside.closest("dialog").close();
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

  // A form of the live screens (options, a typed word, a guess) is sent by the scripts, never as
  // a page: Enter must not submit it (no inline handler: the security policy runs no inline script).
  // A dialog's form (method="dialog") closes its dialog: that is its submission.
  document.addEventListener("submit", function (event) {
    if (!event.target.hasAttribute("action") && event.target.method !== "dialog") event.preventDefault();
  });

  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") poll(true);
  });
  window.addEventListener("pageshow", function (event) { if (event.persisted) poll(true); });
  window.addEventListener("online", function () { poll(true); });

  // ---- Presence (companion/live/presence.py, companion/web/presence.py): begin ----
  // A phone's page says at once when it goes (hidden, closed: "away" on the host) and when it is
  // back, by a beacon (a keepalive fetch where there is none: both outlive the page); its polls say
  // the rest. What the host screen shows of it is host.js's.
  var presenceUrl = (document.body.dataset.actions || "").replace(/\/actions$/, "/presence");
  if (role === "seat" && live && presenceUrl) {
    var said = null;
    var sayPresence = function (here) {
      if (said === here) return;
      said = here;
      var url = presenceUrl + "?here=" + (here ? "1" : "0");
      try {
        if (!navigator.sendBeacon || !navigator.sendBeacon(url)) {
          fetch(url, { method: "POST", credentials: "same-origin", keepalive: true }).catch(function () { /* best effort */ });
        }
      } catch (e) { /* best effort */ }
    };
    window.addEventListener("pagehide", function () { sayPresence(false); });
    document.addEventListener("visibilitychange", function () { sayPresence(document.visibilityState === "visible"); });
    window.addEventListener("pageshow", function () { if (said === false) sayPresence(true); });
  }
  // ---- Presence: end ----

  // ---- Wake lock: begin ----
  // keepAwake(true) keeps the screen on (the Screen Wake Lock API) until keepAwake(false): the host
  // screen all along (host.js), a phone while its player has a move to make or something to see
  // (its fragment's data-wake, from the game's declared phases: templates/phone_live.html). The
  // browser lets go of the lock when the page is hidden: asked again when it is shown. Absent
  // without HTTPS (a table's Wi-Fi address is plain HTTP) and refused on a hidden page or by
  // policy: the screen may then sleep, and nothing is said about it.
  var awake = { wanted: false, lock: null, asking: false };
  function keepAwake(wanted) {
    awake.wanted = wanted;
    if (!wanted) {
      if (awake.lock) awake.lock.release().catch(function () { /* already let go */ });
      awake.lock = null;
      return;
    }
    if (awake.lock || awake.asking || document.visibilityState !== "visible") return;
    if (!navigator.wakeLock || typeof navigator.wakeLock.request !== "function") return;
    awake.asking = true;
    var asking;
    try { asking = Promise.resolve(navigator.wakeLock.request("screen")); } catch (e) { asking = Promise.reject(e); }
    asking.then(function (lock) {
      awake.asking = false;
      if (!awake.wanted) { lock.release().catch(function () { /* fine */ }); return; }  // not wanted any more
      awake.lock = lock;
      lock.addEventListener("release", function () { if (awake.lock === lock) awake.lock = null; });
    }, function () { awake.asking = false; /* not allowed here: fine */ });
  }
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible" && awake.wanted) keepAwake(true);
  });
  if (role === "seat" && live) {
    var wakeForTurn = function () { keepAwake(!!live.querySelector("[data-phase][data-wake]")); };
    live.addEventListener("live:update", wakeForTurn);
    wakeForTurn();
  }
  // ---- Wake lock: end ----

  // For photo.js, host.js and the games' scripts: message(key, fallback) is a page's sentence;
  // refresh() polls now; morph(target, html) swaps a fragment in as #live's are; shown() is the
  // version #live shows; keepAwake(wanted) the wake lock; cover is host.js's (act, above).
  window.Companion = {
    act: act, say: say, refresh: function () { poll(true); }, keepAwake: keepAwake,
    message: function (key, fallback) { return messages[key] || fallback; },
    morph: swap, versionOf: versionOf, shown: function () { return versionOf(etag); }, announce: announce,
    cover: null
  };
  poll();
})();
