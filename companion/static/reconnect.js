// The reconnecting page (templates/offline.html), which the service worker shows in place of a
// table's page while the server cannot be reached: it speaks the device's language and asks for
// the page again, sooner when the device says it is online, then loads it as soon as it answers.
(function () {
  "use strict";
  var words = JSON.parse(document.body.dataset.words);
  var wanted = (navigator.languages || [navigator.language || "en"]).map(function (l) { return l.slice(0, 2); });
  var lang = wanted.filter(function (l) { return words[l]; })[0] || "en";
  document.documentElement.lang = lang;
  document.title = words[lang].title;
  document.getElementById("reconnect-title").textContent = words[lang].title;
  document.getElementById("reconnect-says").textContent = words[lang].says;

  var delay = 1000, timer = null;
  function attempt() {
    clearTimeout(timer);
    fetch(window.location.href, { method: "HEAD", cache: "no-store", credentials: "same-origin" })
      .then(function (r) { if (r.status < 500) window.location.reload(); else later(); }, later);
  }
  function later() {
    timer = setTimeout(attempt, delay);
    delay = Math.min(delay * 1.5, 10000);
  }
  window.addEventListener("online", function () { delay = 1000; attempt(); });
  later();
})();
