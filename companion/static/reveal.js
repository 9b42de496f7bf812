// Table Companion: the reveal as a moment, on the host screen only (templates/host.html links it;
// a phone downloads none of it). When a fragment shows a reveal ([data-reveal="<key>"] in #live),
// what it declares turns over, travels and lights up for about 1.5 s:
//   [data-reveal-flip]           turned over (a card, a guess, a marker face up), one after another;
//   [data-reveal-fly="<name>"]   travels from [data-reveal-origin="<name>"] (a voter's row) to its
//                                place (a vote onto the card it chose); no such origin: dealt in;
//   [data-reveal-deal]           dealt in from the table's edge (the bottom of the screen);
//   [data-reveal-mark]           marked once the rest has landed (the storyteller's card);
//   [data-reveal-pop]            a score's gain, popping up as the rest lands.
// Decoration only: the fragment arrives whole, its words and scores in the page at once; the
// movement is the Web Animations API over them (no library: it is the browser's own), and nothing is
// ever inserted on a timer but the travelling copies, which are drawn in a layer fixed over the
// screen (so no page ever scrolls for them) and dropped at the end. A tap, a click or a key
// finishes it at once; prefers-reduced-motion plays nothing. It plays once per reveal: the key
// (the game's round and step) is remembered, in sessionStorage too, so a re-render of the same
// reveal (a phone's tick, the next poll) or a reload of the screen does not play it again; a screen
// that shows no reveal forgets it (an undo, then the same round revealed again, plays again).
// The hourglass ([data-hourglass] with [data-countdown]) is drawn by its sand: --sand, the share of
// the time left, follows the number the game's script counts down, on the root element (the fragments'
// swaps reset an element's own style).
(function () {
  "use strict";
  var live = document.getElementById("live");
  if (!live) return;
  var STORE = "tc_reveal:" + window.location.pathname;
  var quiet = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;
  var running = [];   // the animations of the moment playing
  var layer = null;   // the travelling copies' layer
  var memory = null;  // where sessionStorage is refused
  var generation = 0; // the moment playing: a finished one's end must not end the next

  function remembered() {
    try { return window.sessionStorage.getItem(STORE); } catch (e) { return memory; }
  }
  function remember(key) {
    memory = key;
    try {
      if (key === null) window.sessionStorage.removeItem(STORE); else window.sessionStorage.setItem(STORE, key);
    } catch (e) { /* private mode: this page's memory only */ }
  }

  function moment() {
    var holder = live.querySelector("[data-reveal]");
    if (!holder) { remember(null); return; }
    var key = holder.dataset.reveal;
    if (key === remembered()) return;
    remember(key);
    if ((quiet && quiet.matches) || typeof holder.animate !== "function") return;
    finish();
    play(holder);
  }

  function all(holder, attribute) {
    return Array.prototype.filter.call(holder.querySelectorAll("[" + attribute + "]"), function (el) {
      return el.getClientRects().length > 0;  // laid out: a hidden one has nowhere to go
    });
  }

  // Each step's items one after another, the whole step within ``span`` ms.
  function gap(count, span, most) { return count > 1 ? Math.min(most, span / (count - 1)) : 0; }

  function play(holder) {
    var flips = all(holder, "data-reveal-flip");
    var flies = all(holder, "data-reveal-fly").concat(all(holder, "data-reveal-deal"));
    var marks = all(holder, "data-reveal-mark"), pops = all(holder, "data-reveal-pop");
    var at = 0;
    var step = gap(flips.length, 450, 90);
    flips.forEach(function (el, i) { flip(el, at + i * step); });
    if (flips.length) at += 200 + (flips.length - 1) * step;
    step = gap(flies.length, 650, 110);
    flies.forEach(function (el, i) { fly(el, at + i * step); });
    if (flies.length) at += 520 + (flies.length - 1) * step;
    marks.forEach(function (el) { mark(el, at); });
    step = gap(pops.length, 250, 40);
    pops.forEach(function (el, i) { pop(el, Math.max(0, at - 150) + i * step); });
    holder.dataset.revealPlaying = "";
    var mine = ++generation;
    Promise.all(running.map(function (a) { return a.finished.catch(function () { /* cancelled */ }); }))
      .then(function () { if (mine === generation) done(holder); });
  }

  function run(el, keyframes, options) {
    var animation = el.animate(keyframes, Object.assign({ fill: "backwards" }, options));
    running.push(animation);
    return animation;
  }

  // From ``hidden`` (a transform and an opacity) to ``shown``; an inline element, which takes no
  // transform, fades up instead.
  function appear(el, hidden, shown, options) {
    var inline = getComputedStyle(el).display === "inline";
    run(el, inline ? [{ opacity: 0 }, { opacity: 1 }] : [hidden, shown], options);
  }

  // Turned over about its upright axis.
  function flip(el, delay) {
    appear(el, { transform: "perspective(40em) rotateY(90deg)", opacity: 0.4 }, { transform: "perspective(40em) rotateY(0deg)", opacity: 1 },
      { duration: 380, delay: delay, easing: "cubic-bezier(.2,.8,.3,1)" });
  }

  // A copy travels from its origin (or the table's edge) onto the element, which shows as it lands.
  function fly(el, delay) {
    var to = el.getBoundingClientRect();
    var name = el.dataset.revealFly;
    var origin = name ? originOf(name) : null;
    var from = origin ? origin.getBoundingClientRect()
      : { left: window.innerWidth / 2 - to.width / 2, top: window.innerHeight - to.height, width: to.width, height: to.height };
    var dx = from.left + from.width / 2 - (to.left + to.width / 2), dy = from.top + from.height / 2 - (to.top + to.height / 2);
    var copy = ghost(el, to);
    var turn = origin ? 0 : (Math.random() * 24 - 12);
    run(copy, [
      { transform: "translate(" + dx + "px," + dy + "px) scale(.7) rotate(" + turn + "deg)", opacity: 0 },
      { transform: "translate(" + dx + "px," + dy + "px) scale(.8) rotate(" + turn + "deg)", opacity: 1, offset: 0.12 },
      { transform: "translate(0,0) scale(1.08) rotate(0deg)", opacity: 1, offset: 0.85 },
      { transform: "none", opacity: 1 }
    ], { duration: 520, delay: delay, easing: "cubic-bezier(.3,.6,.3,1)", fill: "both" });
    run(el, [{ opacity: 0 }, { opacity: 0 }], { duration: delay + 520 });
  }

  function originOf(name) {
    var found = null;
    Array.prototype.some.call(live.querySelectorAll("[data-reveal-origin]"), function (el) {
      if (el.dataset.revealOrigin === name && el.getClientRects().length) found = el;
      return found !== null;
    });
    return found;
  }

  // The element's look, copied onto a copy in the fixed layer (its page's rules do not reach there).
  var LOOK = ["color", "backgroundColor", "fontFamily", "fontSize", "fontWeight", "fontStyle", "lineHeight",
              "letterSpacing", "textAlign", "whiteSpace", "borderTopLeftRadius", "borderTopRightRadius",
              "borderBottomLeftRadius", "borderBottomRightRadius", "borderTop", "borderRight", "borderBottom",
              "borderLeft", "paddingTop", "paddingRight", "paddingBottom", "paddingLeft", "display", "alignItems",
              "justifyContent", "gap", "boxShadow", "textTransform"];
  function dress(from, to) {
    var look = getComputedStyle(from);
    LOOK.forEach(function (p) { to.style[p] = look[p]; });
    for (var i = 0; i < from.children.length && i < to.children.length; i++) dress(from.children[i], to.children[i]);
  }
  function ghost(el, box) {
    if (!layer || !layer.isConnected) {
      layer = document.createElement("div");
      layer.className = "reveal-layer";
      layer.setAttribute("aria-hidden", "true");
      document.body.appendChild(layer);
    }
    var copy = el.cloneNode(true);
    dress(el, copy);
    Array.prototype.forEach.call([copy].concat(Array.prototype.slice.call(copy.querySelectorAll("*"))), function (node) {
      node.removeAttribute("id");
      Object.keys(node.dataset).forEach(function (k) { delete node.dataset[k]; });
    });
    copy.style.position = "absolute";
    copy.style.margin = "0";
    copy.style.boxSizing = "border-box";
    copy.style.left = box.left + "px";
    copy.style.top = box.top + "px";
    copy.style.width = box.width + "px";
    copy.style.height = box.height + "px";
    layer.appendChild(copy);
    return copy;
  }

  // Lit up once the rest has landed: a ring that grows and settles.
  function mark(el, delay) {
    run(el, [
      { boxShadow: "0 0 0 0 rgba(242,179,61,0)", filter: "brightness(1)" },
      { boxShadow: "0 0 0 .35em rgba(242,179,61,.95)", filter: "brightness(1.35)", offset: 0.4 },
      { boxShadow: "0 0 0 .12em rgba(242,179,61,.6)", filter: "brightness(1)" }
    ], { duration: 700, delay: delay, easing: "ease-out", fill: "none" });
  }

  // A gain pops up from nothing to its own size (never larger: no page grows for it).
  function pop(el, delay) {
    appear(el, { transform: "scale(.2)", opacity: 0 }, { transform: "scale(1)", opacity: 1 },
      { duration: 360, delay: delay, easing: "cubic-bezier(.2,.9,.3,1)" });
  }

  function done(holder) {
    if (holder) delete holder.dataset.revealPlaying;
    running = [];
    if (layer) { layer.remove(); layer = null; }
  }

  // Finished at once: every animation of the moment to its end, the copies gone.
  // A game's own CSS animation of the reveal (a token taken, ringed) ends with it; one that repeats
  // (the hourglass's falling grains) goes on.
  function finish() {
    if (!running.length) return;
    var own = live.getAnimations ? live.getAnimations({ subtree: true }) : [];
    own.filter(function (a) { return isFinite(a.effect.getComputedTiming().endTime); })
      .concat(running).forEach(function (a) { try { a.finish(); } catch (e) { a.cancel(); } });
    generation += 1;
    done(live.querySelector("[data-reveal-playing]"));
  }
  document.addEventListener("pointerdown", finish, true);
  document.addEventListener("keydown", finish, true);

  // The hourglass's sand: the share of the time left, from the seconds it shows.
  function sand() {
    var hg = live.querySelector("[data-hourglass]");
    var out = hg && hg.querySelector("[data-countdown]");
    var total = hg ? parseFloat(hg.dataset.seconds) : NaN;
    if (!out || !(total > 0)) { document.documentElement.style.removeProperty("--sand"); return; }
    var left = hg.dataset.phase === "doodle" || hg.dataset.phase === "subject" ? parseFloat(out.textContent) : 0;
    var share = isFinite(left) ? Math.max(0, Math.min(1, left / total)) : 1;
    document.documentElement.style.setProperty("--sand", share.toFixed(4));
  }
  new MutationObserver(sand).observe(live, { subtree: true, childList: true, characterData: true });

  live.addEventListener("live:update", moment);
  moment();
  sand();
  // For the tests and the game scripts: the moment playing now, finished at once.
  window.TableReveal = { finish: finish, playing: function () { return running.length > 0; } };
})();
