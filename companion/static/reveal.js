// Table Companion: the reveal as a moment, on the host screen only (templates/host.html links it;
// a phone downloads none of it). When a fragment shows a reveal ([data-reveal="<key>"] in #live),
// what it declares turns over, travels and lights up for about 1.5 s:
//   [data-reveal-flip]           turned over (a card, a pick, a marker face up), one after another;
//   [data-reveal-turn]           each of its children turned over so (a line of guesses);
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
  var memory = stored();  // the reveal last played here (kept in sessionStorage across a reload)
  var generation = 0; // the moment playing: a finished one's end must not end the next

  function stored() {
    try { return window.sessionStorage.getItem(STORE); } catch (e) { return null; }
  }
  function remember(key) {
    if (key === memory) return;  // nothing to write: most changes show no reveal, as the one before
    memory = key;
    try {
      if (key === null) window.sessionStorage.removeItem(STORE); else window.sessionStorage.setItem(STORE, key);
    } catch (e) { /* private mode: this page's memory only */ }
  }

  function moment() {
    var holder = live.querySelector("[data-reveal]");
    if (!holder) { remember(null); return; }
    var key = holder.dataset.reveal;
    if (key === memory) return;
    remember(key);
    if ((quiet && quiet.matches) || typeof holder.animate !== "function") return;
    finish();
    play(holder);
  }

  function all(holder, attribute, also) {
    return Array.prototype.filter.call(holder.querySelectorAll("[" + attribute + "]" + (also || "")), function (el) {
      return el.getClientRects().length > 0;  // laid out: a hidden one has nowhere to go
    });
  }

  // Each step's items one after another, the whole step within ``span`` ms.
  function gap(count, span, most) { return count > 1 ? Math.min(most, span / (count - 1)) : 0; }

  // Everything is read first (the boxes, the looks), then written (the copies, the animations): a
  // box read after a copy or an animation was added would lay the page out again for each item.
  function play(holder) {
    var origins = Object.create(null);  // by name: a player may be called "constructor"
    Array.prototype.forEach.call(live.querySelectorAll("[data-reveal-origin]"), function (el) {
      var name = el.dataset.revealOrigin;
      if (!origins[name] && el.getClientRects().length) origins[name] = el;
    });
    var flips = all(holder, "data-reveal-flip", ", [data-reveal-turn] > *").map(shape);
    var flies = all(holder, "data-reveal-fly").concat(all(holder, "data-reveal-deal")).map(function (el) {
      var origin = origins[el.dataset.revealFly];
      return { el: el, to: el.getBoundingClientRect(), from: origin ? origin.getBoundingClientRect() : null, look: look(el) };
    });
    var marks = all(holder, "data-reveal-mark"), pops = all(holder, "data-reveal-pop").map(shape);
    var at = 0;
    var step = gap(flips.length, 450, 90);
    flips.forEach(function (item, i) { flip(item, at + i * step); });
    if (flips.length) at += 200 + (flips.length - 1) * step;
    step = gap(flies.length, 650, 110);
    flies.forEach(function (item, i) { fly(item, at + i * step); });
    if (flies.length) at += 520 + (flies.length - 1) * step;
    marks.forEach(function (el) { mark(el, at); });
    step = gap(pops.length, 250, 40);
    pops.forEach(function (item, i) { pop(item, Math.max(0, at - 150) + i * step); });
    holder.dataset.revealPlaying = "";
    var mine = ++generation;
    Promise.all(running.map(function (a) { return a.finished.catch(function () { /* cancelled */ }); }))
      .then(function () { if (mine === generation) done(holder); });
  }

  // An inline element takes no transform: it fades up instead.
  function shape(el) { return { el: el, inline: getComputedStyle(el).display === "inline" }; }

  function run(el, keyframes, options) {
    var animation = el.animate(keyframes, Object.assign({ fill: "backwards" }, options));
    running.push(animation);
    return animation;
  }

  // From ``hidden`` (a transform and an opacity) to ``shown``, or a fade for an inline element.
  function appear(item, hidden, shown, options) {
    run(item.el, item.inline ? [{ opacity: 0 }, { opacity: 1 }] : [hidden, shown], options);
  }

  // Turned over about its upright axis.
  function flip(item, delay) {
    appear(item, { transform: "perspective(40em) rotateY(90deg)", opacity: 0.4 }, { transform: "perspective(40em) rotateY(0deg)", opacity: 1 },
      { duration: 380, delay: delay, easing: "cubic-bezier(.2,.8,.3,1)" });
  }

  // A copy travels from its origin (or the table's edge) onto the element, which shows as it lands.
  function fly(item, delay) {
    var to = item.to;
    // Dealt from the table's edge: turned up to 12 degrees there, so raised by as much as that turn
    // lowers its corner (a tenth of its width), or the copy would reach past the screen's foot.
    var from = item.from
      || { left: window.innerWidth / 2 - to.width / 2, top: window.innerHeight - to.height - to.width / 10, width: to.width, height: to.height };
    var dx = from.left + from.width / 2 - (to.left + to.width / 2), dy = from.top + from.height / 2 - (to.top + to.height / 2);
    var copy = ghost(item);
    var turn = item.from ? 0 : (Math.random() * 24 - 12);
    run(copy, [
      { transform: "translate(" + dx + "px," + dy + "px) scale(.7) rotate(" + turn + "deg)", opacity: 0 },
      { transform: "translate(" + dx + "px," + dy + "px) scale(.8) rotate(" + turn + "deg)", opacity: 1, offset: 0.12 },
      { transform: "translate(0,0) scale(1.08) rotate(0deg)", opacity: 1, offset: 0.85 },
      { transform: "none", opacity: 1 }
    ], { duration: 520, delay: delay, easing: "cubic-bezier(.3,.6,.3,1)", fill: "both" });
    run(item.el, [{ opacity: 0 }, { opacity: 0 }], { duration: delay + 520 });
  }

  // The element's look, to be copied onto its copy in the fixed layer (the page's rules do not
  // reach there): its computed styles and its children's.
  var LOOK = ["color", "backgroundColor", "fontFamily", "fontSize", "fontWeight", "fontStyle", "lineHeight",
              "letterSpacing", "textAlign", "whiteSpace", "borderTopLeftRadius", "borderTopRightRadius",
              "borderBottomLeftRadius", "borderBottomRightRadius", "borderTop", "borderRight", "borderBottom",
              "borderLeft", "paddingTop", "paddingRight", "paddingBottom", "paddingLeft", "display", "alignItems",
              "justifyContent", "gap", "boxShadow", "textTransform"];
  function look(el) {
    var computed = getComputedStyle(el), styles = {};
    LOOK.forEach(function (p) { styles[p] = computed[p]; });
    return { styles: styles, children: Array.prototype.map.call(el.children, look) };
  }
  function dress(node, worn) {
    Object.keys(worn.styles).forEach(function (p) { node.style[p] = worn.styles[p]; });
    for (var i = 0; i < node.children.length && i < worn.children.length; i++) dress(node.children[i], worn.children[i]);
  }
  function ghost(item) {
    if (!layer || !layer.isConnected) {
      layer = document.createElement("div");
      layer.className = "reveal-layer";
      layer.setAttribute("aria-hidden", "true");
      document.body.appendChild(layer);
    }
    var copy = item.el.cloneNode(true), box = item.to;
    dress(copy, item.look);
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
  function pop(item, delay) {
    appear(item, { transform: "scale(.2)", opacity: 0 }, { transform: "scale(1)", opacity: 1 },
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
  // A screen resized during the moment (the window moved to the TV, a tablet turned): the copies'
  // places are the old screen's, past the new one's edges; the moment ends there.
  window.addEventListener("resize", finish);

  // The hourglass's sand: the share of the time left, from the seconds it shows.
  var shownSand = null;
  function sand() {
    var hg = live.querySelector("[data-hourglass]");
    var out = hg && hg.querySelector("[data-countdown]");
    var total = hg ? parseFloat(hg.dataset.seconds) : NaN;
    var share = null;
    if (out && total > 0) {
      var left = hg.dataset.phase === "doodle" || hg.dataset.phase === "subject" ? parseFloat(out.textContent) : 0;
      share = (isFinite(left) ? Math.max(0, Math.min(1, left / total)) : 1).toFixed(4);
    }
    if (share === shownSand) return;  // a change of the root's style restyles the whole page: only when it moves
    shownSand = share;
    if (share === null) document.documentElement.style.removeProperty("--sand");
    else document.documentElement.style.setProperty("--sand", share);
  }
  new MutationObserver(sand).observe(live, { subtree: true, childList: true, characterData: true });

  live.addEventListener("live:update", moment);
  moment();
  sand();
  // For the tests and the game scripts: the moment playing now, finished at once.
  window.TableReveal = { finish: finish, playing: function () { return running.length > 0; } };
})();
