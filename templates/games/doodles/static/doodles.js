// Doodles: one hourglass for every screen, counted down to the server's deadline; the host calls
// "pencils down" at zero; typed subject cards; doodling on the phone's screen.
(function () {
  "use strict";
  var body = document.body;
  var role = body.dataset.role;
  var offset = 0;           // server clock minus this device's clock, in seconds
  var downFor = {};         // deadlines already announced (sound, pencils_down)
  var audio = null;

  // Every move goes by the page's one way to send one (static/app.js), loaded after this script.
  function act(move, options) { return window.Companion.act(move, options); }

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
      // Before a tap, Safari and other browsers keep the sound off: resume() then waits or is
      // refused, quietly (no beep on this device until someone touches the screen).
      if (audio.state === "suspended") {
        var resumed = audio.resume();
        if (resumed && typeof resumed.catch === "function") resumed.catch(function () { /* no sound yet */ });
      }
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
        if (canvas && !canvas.classList.contains("closed")) { canvas.classList.add("closed"); closeCanvas(); }
        if (!downFor[deadline]) {
          downFor[deadline] = true;
          beep();
          if (role === "host") act({ type: "pencils_down" });
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
    act({ type: "subject_card", words: words });
  });

  // Doodling on the phone: strokes as compact SVG path data in a 0-100 square.
  // Every saved stroke moves the room's version on, so app.js updates #live (and may replace the
  // canvas with it) while the players are still drawing. The drawing therefore lives here, not in the DOM: the
  // pointer is followed on the document, whichever canvas element is on the page; a fresh canvas
  // is painted before the browser shows it; finished strokes are sent one post at a time and sent
  // again until the server has them. A post carries only the strokes the server does not have yet
  // ("stroke", after the length it has), so a doodle costs the room its own size once; the whole
  // doodle goes ("doodle") when it was cleared, or when the server's no longer matches the start
  // of this one (another device of this seat, the host's undo), and then the last answer wins.
  // Posts are at least GAP ms apart: the server takes about two moves a second from a phone
  // (companion/rooms/bounds.py), and what is drawn meanwhile goes in the next post.
  var GAP = 600;
  var pad = {
    key: null,        // the round the drawing belongs to (a new round starts a blank page)
    done: "",         // finished strokes
    current: "",      // the stroke under the finger
    acked: "",        // what the server has
    ackedAt: 0,       // the room's version when it said so
    whole: false,     // send the whole doodle next (the server refused strokes that follow acked)
    sentAt: 0,        // when the last post left (Date.now())
    pointer: null, last: null,
    inFlight: false, timer: null, stopped: false, frame: 0
  };
  function padWrap() { return document.querySelector("[data-canvas]"); }
  function padCanvas() { var w = padWrap(); return w ? w.querySelector("canvas") : null; }
  function scale(d, k) { return d.replace(/-?\d+(\.\d+)?/g, function (n) { return String(parseFloat(n) * k); }); }
  function paint() {
    pad.frame = 0;
    var canvas = padCanvas();
    if (!canvas) return;
    var ctx = canvas.getContext("2d");
    ctx.fillStyle = "#fffdf6"; ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.strokeStyle = "#111"; ctx.lineWidth = 8; ctx.lineCap = "round"; ctx.lineJoin = "round";
    var d = pad.done + pad.current;
    if (d) ctx.stroke(new Path2D(scale(d, canvas.width / 100)));
  }
  function repaint() { if (!pad.frame) pad.frame = requestAnimationFrame(paint); }
  function showState() {
    var wrap = padWrap();
    if (!wrap) return;
    var pending = pad.done !== pad.acked;
    if (pending) wrap.dataset.pending = "1"; else delete wrap.dataset.pending;
    var s = wrap.querySelector("[data-canvas-state]");
    if (s && !pending && pad.acked) s.textContent = wrap.dataset.savedLabel || "Saved";
  }
  function point(event) {
    var r = padCanvas().getBoundingClientRect();
    var x = Math.round(100 * (event.clientX - r.left) / r.width), y = Math.round(100 * (event.clientY - r.top) / r.height);
    return [Math.max(0, Math.min(100, x)), Math.max(0, Math.min(100, y))];
  }
  function flushSoon(ms) {
    clearTimeout(pad.timer);
    pad.timer = setTimeout(flush, ms);
  }
  // While the hourglass is paused the server takes no stroke: what is drawn waits until it runs.
  function timeUp() {
    var hg = document.querySelector("[data-hourglass]"), deadline = hg ? parseFloat(hg.dataset.deadline) : NaN;
    return !hg || hg.dataset.phase !== "doodle" || (!hg.dataset.paused && isFinite(deadline) && deadline <= serverNow());
  }
  function paused() { var w = padWrap(); return !!(w && w.classList.contains("paused")); }
  // What to send for the drawing ``sent``: the strokes after what the server has, or all of it.
  function padAction(sent) {
    var has = pad.acked;
    if (!pad.whole && sent.length > has.length && sent.slice(0, has.length) === has) {
      return { type: "stroke", stroke: sent.slice(has.length), after: has.length };
    }
    return { type: "doodle", doodle: sent };
  }
  function flush() {
    if (pad.inFlight || pad.stopped || pad.done === pad.acked || paused()) return;
    var wait = pad.sentAt + GAP - Date.now();
    if (wait > 0) { flushSoon(wait); return; }
    var sent = pad.done, key = pad.key, action = padAction(sent);
    pad.inFlight = true;
    pad.sentAt = Date.now();
    act(action, { quiet: true }).then(function (res) {
      pad.inFlight = false;
      if (key !== pad.key) return;
      if (res.ok) {
        pad.acked = sent;
        pad.whole = false;
        pad.ackedAt = Math.max(pad.ackedAt, res.version || 0);
        showState();
        if (pad.done !== pad.acked) flushSoon(0);
      } else if (res.status === 0 || res.status >= 500 || res.status === 429) {
        flushSoon(1500);  // offline or busy for a moment: what is unsent goes again, nothing is dropped
      } else if (action.type === "stroke") {
        pad.whole = true;  // e.g. the server's doodle changed meanwhile: the whole doodle now
        flushSoon(0);
      } else {
        pad.stopped = true;  // e.g. the time is up: the server keeps what it had (a pause is lifted below)
        window.Companion.say(res.error || window.Companion.message("failed", "That did not work."));
      }
    });
  }
  function endStroke() {
    if (pad.pointer === null) return;
    pad.pointer = null;
    pad.done += pad.current; pad.current = "";
    showState();
    repaint();
    flushSoon(250);
  }
  document.addEventListener("pointerdown", function (e) {
    var canvas = e.target.closest && e.target.closest("[data-canvas] canvas");
    var wrap = canvas && canvas.closest("[data-canvas]");
    if (!canvas || pad.pointer !== null || wrap.classList.contains("closed") || wrap.classList.contains("paused")) return;
    e.preventDefault();
    pad.pointer = e.pointerId;
    try { canvas.setPointerCapture(e.pointerId); } catch (err) { /* followed on the document anyway */ }
    pad.last = point(e);
    pad.current = "M" + pad.last[0] + " " + pad.last[1] + "l0 0";
    repaint();
  });
  document.addEventListener("pointermove", function (e) {
    if (e.pointerId !== pad.pointer || !padCanvas()) return;
    var p = point(e);
    if (p[0] === pad.last[0] && p[1] === pad.last[1]) return;
    pad.current += "l" + (p[0] - pad.last[0]) + " " + (p[1] - pad.last[1]); pad.last = p;
    repaint();
  });
  function lift(e) { if (e.pointerId === pad.pointer) endStroke(); }
  document.addEventListener("pointerup", lift);
  document.addEventListener("pointercancel", lift);
  document.addEventListener("click", function (e) {
    if (!e.target.closest("[data-canvas-clear]")) return;
    var wrap = padWrap();
    if (!wrap || wrap.classList.contains("closed") || wrap.classList.contains("paused")) return;
    pad.done = ""; pad.current = ""; pad.pointer = null;
    showState(); paint(); flushSoon(0);
  });
  function bindCanvas() {
    var wrap = padWrap();
    if (!wrap) return;
    var key = wrap.dataset.round || "";
    var saved = wrap.querySelector("[data-canvas-saved]"), doodle = "";
    if (saved) { try { doodle = JSON.parse(saved.textContent) || ""; } catch (e) { doodle = ""; } }
    var live = document.querySelector("#live [data-version]");
    var version = live ? parseInt(live.dataset.version, 10) || 0 : 0;
    if (key !== pad.key) {
      // A new round (or a fresh page): start from what the server has.
      clearTimeout(pad.timer);
      pad.key = key; pad.done = doodle; pad.acked = doodle; pad.ackedAt = version; pad.current = ""; pad.pointer = null;
      pad.stopped = false; pad.whole = false;
    } else {
      if (doodle !== pad.acked && version > pad.ackedAt && pad.done === pad.acked && pad.pointer === null) {
        // The server's doodle changed another way (the host's undo, this seat's other device):
        // with nothing of ours on the way, the page takes it.
        pad.done = doodle; pad.acked = doodle; pad.ackedAt = version;
      }
      if (wrap.classList.contains("paused")) {
        if (pad.pointer !== null) endStroke();  // the pause lifts the pencil; the stroke waits
      } else if ((pad.stopped || pad.done !== pad.acked) && !timeUp()) {
        pad.stopped = false;  // running again: what waited is sent now
        flushSoon(0);
      }
    }
    showState();
    paint();  // now, before the browser shows the new canvas
  }
  // At pencils down a stroke under the finger is finished and sent at once.
  function closeCanvas() {
    if (pad.pointer !== null) endStroke();
    if (pad.done !== pad.acked) flushSoon(0);
  }

  function bind() { bindCanvas(); tick(); }
  document.addEventListener("live:update", bind);
  syncClock();
  setInterval(syncClock, 60000);
  // The hourglass starts once app.js, after this script, is there to send a move (pencils down).
  function start() { setInterval(tick, 100); bind(); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
