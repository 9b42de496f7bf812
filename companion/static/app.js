// Table Companion: live screens by long polling, and actions as JSON posts.
// The live part of a page is #live; its fragment URL is data-live. Every poll sends the ETag of
// what is shown and asks the server to hold it up to data-wait seconds: the answer is the new
// fragment as soon as the room changes, or 304 when the time is up. A server that cannot hold polls
// answers 304 at once; the page then polls again after data-poll milliseconds (short polling).
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
        // The fragment speaks another language than the page (the table's language changed): load
        // the whole page again, so its title and the script's own sentences follow too.
        var spoken = r.headers.get("Content-Language");
        if (spoken && document.documentElement.lang && spoken !== document.documentElement.lang) {
          window.location.reload();
          return new Promise(function () { /* the page is going: nothing more to show */ });
        }
        etag = r.headers.get("ETag");
        held = true;
        return r.text();
      })
      .then(function (html) {
        if (mine !== inFlight) return;
        failures = 0;
        document.body.classList.remove("offline");
        if (html !== null) show(html);
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

  function show(html) {
    var before = live.querySelector("[data-phase]");
    var phase = before ? before.dataset.phase : null;
    var focused = focusKey(document.activeElement);
    var open = Array.prototype.map.call(live.querySelectorAll("details[id][open]"), function (d) { return d.id; });
    live.innerHTML = html;
    // A panel the host opened (the QR code, how to play) stays open across updates.
    open.forEach(function (id) { var d = document.getElementById(id); if (d) d.open = true; });
    var after = live.querySelector("[data-phase]");
    if (after && after.dataset.phase !== phase) {
      // A new phase is a new screen: show it from the top, and tell a screen reader its title.
      window.scrollTo(0, 0);
      announce(live.querySelector("h1, h2, .phase-title, .ask"));
    }
    restoreFocus(focused);
    live.dispatchEvent(new CustomEvent("live:update", { bubbles: true }));
  }

  // The live region is replaced wholesale; keep keyboard focus on the same control when it is
  // still there, so a keyboard user is not thrown back to the top after every update.
  function focusKey(el) {
    if (!el || !live.contains(el)) return null;
    if (el.id) return "#" + CSS.escape(el.id);
    if (el.dataset.action) return '[data-action="' + CSS.escape(el.dataset.action) + '"]';
    return null;
  }

  function restoreFocus(key) {
    if (!key) return;
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

  function act(action, versioned) {
    if (versioned) action.version = currentVersion();
    return fetch(document.body.dataset.actions, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-Companion-Role": role },
      body: JSON.stringify(action)
    }).then(function (r) {
      return r.json().then(function (data) {
        if (!r.ok) say(data.error || messages.failed || "That did not work.");
        poll();
        return data;
      });
    }).catch(function () {
      say(messages.offline || "The table's server cannot be reached. Check the Wi-Fi and try again.");
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
    act(action, button.hasAttribute("data-versioned"));
  });

  // Claims of several places (a game where one player lays two cards): pick them, then send them together.
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-pick]");
    if (!button) return;
    button.classList.toggle("chosen");
    var picked = Array.prototype.map.call(
      button.parentNode.querySelectorAll(".chosen"), function (b) { return parseInt(b.textContent, 10); });
    if (picked.length === 2) act({ type: "claim", positions: picked });
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

  document.addEventListener("change", function (event) {
    var form = event.target.closest("form[data-options]");
    if (!form) return;
    var options = {};
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name) return;
      if (el.type === "checkbox") options[el.name] = el.checked;
      else if (el.dataset.kind === "int") options[el.name] = el.value === "" ? null : parseInt(el.value, 10);
      else options[el.name] = el.value === "" ? null : el.value;
    });
    act({ type: "options", options: options });
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
  // For the page's other scripts (photo.js): the toast, and a poll at once after a change they made.
  window.TableCompanion = { say: say, refresh: function () { poll(true); } };
  wake();
  poll();
})();
