// Doodles: one hourglass for every screen, counted down to the server's deadline; the host calls
// "pencils down" at zero; typed subject cards; doodling on the phone's screen.
(function () {
  "use strict";
  var body = document.body;
  var role = body.dataset.role;
  var offset = 0;           // server clock minus this device's clock, in seconds
  var downFor = {};         // deadlines already announced (sound, pencils_down)
  var audio = null;

  // The page's own sentences, in the page's language (base.html's data-messages).
  function message(key, fallback) {
    try { return JSON.parse(body.dataset.messages || "{}")[key] || fallback; } catch (e) { return fallback; }
  }

  function post(action) {
    return fetch(body.dataset.actions, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-Companion-Role": role },
      body: JSON.stringify(action)
    }).then(function (r) {
      return r.json().then(function (data) {
        if (!r.ok) {
          var toast = document.getElementById("toast");
          if (toast) { toast.textContent = data.error || message("failed", "That did not work."); toast.className = "toast show error";
            setTimeout(function () { toast.className = "toast"; }, 5000); }
        }
        return data;
      });
    });
  }

  // The server's clock: one round trip, half of it on the way back.
  function syncClock() {
    var sent = Date.now();
    fetch("/api/v1/clock", { credentials: "same-origin", cache: "no-store" })
      .then(function (r) { return r.json(); })
      .then(function (data) {
        var back = Date.now();
        offset = data.now - (sent + back) / 2000;
      }).catch(function () { /* keep the last offset */ });
  }
  function serverNow() { return Date.now() / 1000 + offset; }

  function unlockAudio() {
    try {
      if (!audio) audio = new (window.AudioContext || window.webkitAudioContext)();
      if (audio.state === "suspended") audio.resume();
    } catch (e) { audio = null; }
  }
  document.addEventListener("pointerdown", unlockAudio, { passive: true });

  function beep() {
    try {
      unlockAudio();
      if (!audio) return;
      [0, 0.25, 0.5].forEach(function (start, i) {
        var osc = audio.createOscillator(), gain = audio.createGain();
        osc.type = "square"; osc.frequency.value = i === 2 ? 660 : 880;
        gain.gain.setValueAtTime(0.0001, audio.currentTime + start);
        gain.gain.exponentialRampToValueAtTime(0.25, audio.currentTime + start + 0.02);
        gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + start + 0.2);
        osc.connect(gain); gain.connect(audio.destination);
        osc.start(audio.currentTime + start); osc.stop(audio.currentTime + start + 0.22);
      });
    } catch (e) { /* no sound on this device */ }
  }

  function tick() {
    var glasses = document.querySelectorAll("[data-hourglass]");
    Array.prototype.forEach.call(glasses, function (hg) {
      var out = hg.querySelector("[data-countdown]"), label = hg.querySelector("[data-hg-label]");
      var phase = hg.dataset.phase;
      if (phase !== "doodle") return;  // before the start, and after pencils down, the page says it
      if (hg.dataset.paused) {
        out.textContent = Math.ceil(parseFloat(hg.dataset.remaining || "0"));
        return;
      }
      var deadline = parseFloat(hg.dataset.deadline);
      if (!isFinite(deadline)) return;
      var left = deadline - serverNow();
      out.textContent = Math.max(0, Math.ceil(left));
      hg.classList.toggle("hurry", left > 0 && left <= 5);
      if (left <= 0) {
        hg.classList.add("down");
        label.textContent = hg.dataset.downLabel || "Pencils down!";
        Array.prototype.forEach.call(document.querySelectorAll(".after-time[hidden]"), function (el) { el.hidden = false; });
        var canvas = document.querySelector("[data-canvas]");
        if (canvas) canvas.classList.add("closed");
        if (!downFor[deadline]) {
          downFor[deadline] = true;
          beep();
          if (role === "host") post({ type: "pencils_down" });
        }
      }
    });
  }

  // Physical subject cards: the host types the three words.
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-send-subject]");
    if (!button) return;
    event.preventDefault();
    var form = button.closest("form");
    var words = ["w1", "w2", "w3"].map(function (n) { return form.elements[n].value; });
    post({ type: "subject_card", words: words });
  });

  // Typed text survives the fragment being swapped in by the poll.
  var typed = {};
  document.addEventListener("input", function (event) {
    if (event.target.id && event.target.matches("input[type=text]")) typed[event.target.id] = event.target.value;
  });
  function restoreTyped() {
    Object.keys(typed).forEach(function (id) {
      var el = document.getElementById(id);
      if (el && el.value !== typed[id]) el.value = typed[id];
    });
  }

  // Doodling on the phone: strokes as compact SVG path data in a 0-100 square.
  var strokes = "", drawing = false, sendTimer = null, last = null;
  function bindCanvas() {
    var wrap = document.querySelector("[data-canvas]");
    if (!wrap || wrap.dataset.bound) return;
    wrap.dataset.bound = "1";
    var canvas = wrap.querySelector("canvas"), ctx = canvas.getContext("2d");
    var saved = wrap.querySelector("[data-canvas-saved]");
    if (!strokes && saved) { try { strokes = JSON.parse(saved.textContent) || ""; } catch (e) { strokes = ""; } }
    function paint() {
      ctx.fillStyle = "#fffdf6"; ctx.fillRect(0, 0, canvas.width, canvas.height);
      ctx.strokeStyle = "#111"; ctx.lineWidth = 8; ctx.lineCap = "round"; ctx.lineJoin = "round";
      var k = canvas.width / 100;
      ctx.stroke(new Path2D(scale(strokes, k)));
    }
    function scale(d, k) { return d.replace(/-?\d+(\.\d+)?/g, function (n) { return String(parseFloat(n) * k); }); }
    function point(event) {
      var r = canvas.getBoundingClientRect();
      return [Math.round(100 * (event.clientX - r.left) / r.width), Math.round(100 * (event.clientY - r.top) / r.height)];
    }
    function send() {
      clearTimeout(sendTimer);
      sendTimer = setTimeout(function () {
        post({ type: "doodle", doodle: strokes }).then(function (d) {
          var s = wrap.querySelector("[data-canvas-state]");
          if (s && !d.error) s.textContent = wrap.dataset.savedLabel || "Saved";
        });
      }, 400);
    }
    canvas.addEventListener("pointerdown", function (e) {
      if (wrap.classList.contains("closed")) return;
      drawing = true; canvas.setPointerCapture(e.pointerId);
      last = point(e); strokes += "M" + last[0] + " " + last[1] + "l0 0"; paint();
    });
    canvas.addEventListener("pointermove", function (e) {
      if (!drawing) return;
      var p = point(e);
      if (p[0] === last[0] && p[1] === last[1]) return;
      strokes += "l" + (p[0] - last[0]) + " " + (p[1] - last[1]); last = p; paint();
    });
    function end() { if (drawing) { drawing = false; send(); } }
    canvas.addEventListener("pointerup", end);
    canvas.addEventListener("pointercancel", end);
    wrap.querySelector("[data-canvas-clear]").addEventListener("click", function () { strokes = ""; paint(); send(); });
    paint();
  }

  function bind() { restoreTyped(); bindCanvas(); tick(); }
  document.addEventListener("live:update", bind);
  syncClock();
  setInterval(syncClock, 60000);
  setInterval(tick, 100);
  bind();
})();
