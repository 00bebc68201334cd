// The narrator's service worker (issue 35): a narrator's page opened once online opens
// again without a network. It looks after the narrator's pages only:
// - the page itself (/g/<game>/narrator): from the network when there is one (kept for
//   later), else the copy kept; a tap posted without a network comes back to it;
// - what the page runs (the site's static files, the engine package, Pyodide) and the
//   faces' pictures: kept once, then served from the copy (their addresses change when
//   they do: the engine's carries its version, Pyodide's its release);
// - the game itself is not kept here: the page keeps it in IndexedDB.
"use strict";

const CACHE = "pbm-narrator-v1";
const PAGE = /^\/g\/[^/]+\/narrator$/;
const POSTED = /^\/g\/[^/]+\/narrator\/(call|shown|correct|vote|close)$/;
// Fresh from the network when there is one (they change in place), else the copy.
const FRESH = [/^\/static\//, /^\/g\/[^/]+\/narrator\/manifest\.webmanifest$/];
// Never changed in place: the copy, once kept.
const KEPT = [/^\/narrator\/engine\.zip$/, /^\/narrator\/pyodide\//, /^\/g\/[^/]+\/narrator\/photo\/\d+$/];

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

async function keep(urls) {
  const cache = await caches.open(CACHE);
  for (const url of urls) {
    if (await cache.match(url)) { continue; }
    const response = await fetch(url, { credentials: "same-origin" });
    if (response.ok) { await cache.put(url, response); }
  }
}

// The page asks for what it needs offline to be kept now (not at its first use offline).
self.addEventListener("message", (event) => {
  if (!event.data || event.data.type !== "keep") { return; }
  event.waitUntil(keep(event.data.urls).then(
    () => event.source.postMessage({ type: "kept" }),
    (error) => event.source.postMessage({ type: "not-kept", error: String(error) })));
});

async function fresh(request, path) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok && request.method === "GET") { await cache.put(path, response.clone()); }
    return response;
  } catch (error) {
    const kept = await cache.match(path);
    if (kept) { return kept; }
    throw error;
  }
}

async function kept(request) {
  const cache = await caches.open(CACHE);
  const copy = await cache.match(request.url);
  if (copy) { return copy; }
  const response = await fetch(request);
  if (response.ok) { await cache.put(request.url, response.clone()); }
  return response;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) { return; }
  if (request.method === "GET" && PAGE.test(url.pathname) && request.mode === "navigate") {
    event.respondWith(fresh(request, url.pathname));
  } else if (request.method === "POST" && request.mode === "navigate" && POSTED.test(url.pathname)) {
    // A tap sent as the network went: back to the page, which goes on offline.
    const back = url.pathname.replace(/\/[a-z]+$/, "");
    event.respondWith(fetch(request).catch(() => Response.redirect(back, 303)));
  } else if (request.method === "GET" && FRESH.some((pattern) => pattern.test(url.pathname))) {
    event.respondWith(fresh(request, url.pathname));
  } else if (request.method === "GET" && KEPT.some((pattern) => pattern.test(url.pathname))) {
    event.respondWith(kept(request));
  }
});
