// Table Companion's service worker (companion/web/install.py renders it; docs/SECURITY.md says
// what it keeps). It keeps the app's own files and the reconnecting page, never a table's page,
// view, answer or photo: a table's page always comes from the server, and when the server cannot
// be reached the reconnecting page stands in for it, asking again by itself.
"use strict";
var CACHE = "tc-{{ version }}";
var SHELL = {{ shell | tojson }};
var OFFLINE = {{ offline | tojson }};
// A file at its fingerprinted name (/static/app.1f3e9c0a7b2d.css, a game's /games/x/static/...)
// is one content forever: kept once fetched.
var FINGERPRINTED = /^\/(?:static|games\/[a-z_]+\/static)\/.+\.[0-9a-f]{12}\.[a-z0-9]+$/;

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (cache) { return cache.addAll(SHELL); })
    .then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (keys) {
    return Promise.all(keys.filter(function (key) { return key !== CACHE; })
      .map(function (key) { return caches.delete(key); }));
  }).then(function () { return self.clients.claim(); }));
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;  // moves, photos, presence: the server's alone
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(function () { return caches.match(OFFLINE); }));
    return;
  }
  if (!FINGERPRINTED.test(url.pathname)) return;  // views, polls, QR codes: the network only
  event.respondWith(caches.match(request).then(function (kept) {
    return kept || fetch(request).then(function (response) {
      if (response.ok) {
        var copy = response.clone();
        caches.open(CACHE).then(function (cache) { cache.put(request, copy); });
      }
      return response;
    });
  }));
});
