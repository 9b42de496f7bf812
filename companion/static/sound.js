// Table Companion: sounds on the host screen and a buzz on the phones, with one mute switch per
// screen, remembered on that device. Sounds are synthesised here with the Web Audio API (nothing is
// fetched); a browser without it, or one that will not play before a tap, stays quiet without an
// error. A screen's live region says what to cue: data-cue="reveal" on a reveal (host), and
// data-turn="1" on a phone when its player must act. A game's own script calls
// TableSound.cue("tick") in the last seconds of its timer and TableSound.cue("time-up") at the end.
(function () {
  "use strict";
  var KEY = "tc_muted";
  var audio = null;
  var last = { cue: null, turn: null };

  function stored() {
    try { return window.localStorage.getItem(KEY) === "1"; } catch (e) { return false; }
  }
  var muted = stored();

  function unlock() {
    // Browsers play sound only after a tap on the page: make the context then.
    try {
      var Context = window.AudioContext || window.webkitAudioContext;
      if (!audio && Context) audio = new Context();
      if (audio && audio.state === "suspended") {
        var resumed = audio.resume();
        if (resumed && typeof resumed.catch === "function") resumed.catch(function () { /* later */ });
      }
    } catch (e) { audio = null; }
  }
  document.addEventListener("pointerdown", unlock, { passive: true });
  document.addEventListener("keydown", unlock);

  // name -> notes: [frequency Hz, start s, length s]
  var CUES = {
    "reveal": [[523, 0, 0.18], [659, 0.16, 0.18], [784, 0.32, 0.35]],
    "tick": [[880, 0, 0.07]],
    "time-up": [[440, 0, 0.22], [440, 0.3, 0.22], [330, 0.6, 0.5]],
    "turn": [[660, 0, 0.12], [880, 0.12, 0.16]]
  };

  function play(name) {
    var notes = CUES[name];
    if (muted || !notes || !audio || audio.state !== "running") return false;
    try {
      var now = audio.currentTime;
      notes.forEach(function (n) {
        var osc = audio.createOscillator(), gain = audio.createGain();
        osc.type = "sine";
        osc.frequency.value = n[0];
        gain.gain.setValueAtTime(0.0001, now + n[1]);
        gain.gain.exponentialRampToValueAtTime(0.25, now + n[1] + 0.02);
        gain.gain.exponentialRampToValueAtTime(0.0001, now + n[1] + n[2]);
        osc.connect(gain).connect(audio.destination);
        osc.start(now + n[1]);
        osc.stop(now + n[1] + n[2] + 0.05);
      });
      return true;
    } catch (e) { return false; }
  }

  function buzz(pattern) {
    if (muted || typeof navigator.vibrate !== "function") return false;
    try { return navigator.vibrate(pattern); } catch (e) { return false; }
  }

  function cue(name) {
    document.documentElement.dataset.lastCue = name;  // what was cued, for a test or a screen reader
    if (name === "turn") { buzz([120, 60, 120]); return play("turn"); }
    return play(name);
  }

  function showMute() {
    Array.prototype.forEach.call(document.querySelectorAll("[data-mute]"), function (button) {
      button.setAttribute("aria-pressed", muted ? "true" : "false");
      var label = muted ? button.dataset.unmuteLabel : button.dataset.muteLabel;
      if (label) button.textContent = label;
    });
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-mute]");
    if (!button) return;
    event.preventDefault();
    muted = !muted;
    try { window.localStorage.setItem(KEY, muted ? "1" : "0"); } catch (e) { /* private mode: this page only */ }
    showMute();
  });

  // What the live region asks for, once per change: a reveal on the host, a turn on a phone.
  function read() {
    var screen = document.querySelector("#live [data-phase]");
    if (!screen) return;
    var key = screen.dataset.cue ? screen.dataset.phase + ":" + screen.dataset.cue : null;
    if (key && last.cue !== null && key !== last.cue) cue(screen.dataset.cue);
    last.cue = key || "";
    var turn = screen.dataset.turn === "1";
    if (turn && last.turn === false) cue("turn");
    last.turn = turn;
    showMute();
  }
  document.addEventListener("live:update", read);
  read();

  window.TableSound = { cue: cue, muted: function () { return muted; } };
})();
