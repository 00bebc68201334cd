// The narrator's page without a network (issue 35).
//
// Online, the page is the server's, as ever: this script only keeps, each time the
// page opens, the game as the phone's engine holds it (book.json, in IndexedDB) and
// asks the service worker to keep what it needs offline (the page, the engine package,
// Pyodide, the faces). When the network goes, the game goes on here: the engine (the
// server's own Python package, run by Pyodide) works out every step from the book and
// every tap is recorded in IndexedDB with the book's hash before and after it. No rule
// is written here: this script lays out what the engine says, and sends the taps back
// in order when the network returns (the server replays them and compares the hash).
//
// A browser without WebAssembly, service workers or IndexedDB gets the page as before.

const configElement = document.getElementById("offline-config");
const config = configElement ? JSON.parse(configElement.dataset.config || "{}") : {};
const capable = typeof WebAssembly === "object" && "serviceWorker" in navigator && "indexedDB" in window;
const slug = location.pathname.split("/")[2];
const root = document.documentElement;
const statusLine = document.getElementById("offline-status");

let kept = null; // {book, hash, photos, words, lang, game}: the game as last opened online
let engine = null; // the Pyodide module's bridge (``offline`` below), once loaded
let offline = false;
let syncing = false;

// --------------------------------------------------------------------------- IndexedDB

function openStore() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open("pbm-narrator", 1);
    request.onupgradeneeded = () => {
      const db = request.result;
      db.createObjectStore("books");
      db.createObjectStore("taps", { keyPath: "seq", autoIncrement: true }).createIndex("game", "game");
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

async function transact(stores, mode, work) {
  const db = await openStore();
  return new Promise((resolve, reject) => {
    const tx = db.transaction(stores, mode);
    let result;
    Promise.resolve(work(tx)).then((value) => { result = value; });
    tx.oncomplete = () => resolve(result);
    tx.onerror = () => reject(tx.error);
  });
}

function asPromise(request) {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

const saveBook = (data) => transact(["books"], "readwrite", (tx) => asPromise(tx.objectStore("books").put(data, slug)));
const loadBook = () => transact(["books"], "readonly", (tx) => asPromise(tx.objectStore("books").get(slug)));
const waitingTaps = () => transact(["taps"], "readonly",
  (tx) => asPromise(tx.objectStore("taps").index("game").getAll(slug)));
const recordTap = (tap) => transact(["taps"], "readwrite", (tx) => asPromise(tx.objectStore("taps").add({ game: slug, ...tap })));

async function dropTaps(count) {
  const taps = (await waitingTaps()).slice(0, count);
  await transact(["taps"], "readwrite", (tx) => Promise.all(taps.map((t) => asPromise(tx.objectStore("taps").delete(t.seq)))));
}

// --------------------------------------------------------------------------- what the page says

// A sentence of the server's, in pieces: its text, and where each value goes.
function word(key, params) {
  const pieces = (kept && kept.words && kept.words[key]) || [key];
  return pieces.map((p) => (typeof p === "string" ? p : String((params || {})[p.fill] ?? ""))).join("");
}

async function tellStatus(extra) {
  if (!statusLine) { return; }
  const waiting = (await waitingTaps()).length;
  const parts = [];
  if (offline) { parts.push(word("offline")); }
  if (waiting) { parts.push(word("waiting", { n: waiting })); }
  if (extra) { parts.push(extra); }
  statusLine.textContent = parts.join(" ");
  statusLine.hidden = parts.length === 0;
  root.dataset.tapsWaiting = String(waiting);
}

// --------------------------------------------------------------------------- online

async function keepForLater() {
  const registration = await navigator.serviceWorker.register(config.worker, { scope: "/g/" });
  await navigator.serviceWorker.ready;
  const worker = registration.active || navigator.serviceWorker.controller;
  const photos = Object.values((kept && kept.photos) || {});
  const statics = Array.from(document.querySelectorAll("link[rel=stylesheet], script[src]"))
    .map((e) => e.href || e.src).filter((u) => u && new URL(u).origin === location.origin);
  const urls = [location.pathname, config.engine, config.manifest, ...config.pyodide_files, ...statics, ...photos];
  await new Promise((resolve, reject) => {
    navigator.serviceWorker.addEventListener("message", function heard(event) {
      if (!event.data || !["kept", "not-kept"].includes(event.data.type)) { return; }
      navigator.serviceWorker.removeEventListener("message", heard);
      if (event.data.type === "kept") { resolve(); } else { reject(new Error(event.data.error)); }
    });
    worker.postMessage({ type: "keep", urls });
  });
  root.dataset.offlineReady = "1";
}

async function fetchBook() {
  const response = await fetch(config.book, { credentials: "same-origin", cache: "no-store" });
  if (!response.ok) { throw new Error(`book: ${response.status}`); }
  kept = await response.json();
  await saveBook(kept);
}

// A form's token expires (an hour): a night offline can be longer, so the sync asks
// the server for a fresh one (book.json carries it) before it sends the taps.
async function csrfToken() {
  const response = await fetch(config.book, { credentials: "same-origin", cache: "no-store" });
  if (!response.ok) { throw new Error(`book: ${response.status}`); }
  return (await response.json()).csrf;
}

// The taps of this phone, in order, to the server; what it could not take stays here.
async function syncNow() {
  if (syncing) { return; }
  syncing = true;
  try {
    const taps = await waitingTaps();
    if (!taps.length) { return; }
    const response = await fetch(config.sync, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": await csrfToken() },
      body: JSON.stringify({ taps: taps.map(({ seq, game, ...tap }) => tap) }),
    });
    if (!response.ok) { throw new Error(`sync: ${response.status}`); }
    const done = await response.json();
    await dropTaps(done.applied);
    root.dataset.serverHash = done.hash;
    if (done.stopped_at !== null && done.stopped_at !== undefined) {
      showConflict(done.message);
      return;
    }
    await fetchBook();
    root.dataset.synced = "1";
    location.replace(location.pathname); // the server's page again, as it stands now
  } finally {
    syncing = false;
  }
}

function showConflict(message) {
  const box = document.createElement("div");
  box.className = "flash error";
  box.id = "sync-conflict";
  box.setAttribute("role", "alert");
  box.append(el("p", {}, message));
  const drop = el("button", { type: "button", class: "quiet" }, word("drop"));
  drop.addEventListener("click", async () => {
    if (!window.confirm(word("drop_confirm"))) { return; }
    const taps = await waitingTaps();
    await dropTaps(taps.length);
    location.replace(location.pathname);
  });
  box.append(drop);
  document.querySelector("main").prepend(box);
  tellStatus();
}

// --------------------------------------------------------------------------- offline: the engine

const BRIDGE = `
import json
from engine.table_book import Book, Refused, book_hash
from engine.table_screen import screen
from engine.registry import get_ruleset

class Offline:
    def __init__(self, book, taps):
        self.book = Book.from_dict(json.loads(book))
        for tap in json.loads(taps):
            self.book.play(tap)

    def hash(self):
        return book_hash(self.book)

    def tap(self, raw, lang):
        tap = json.loads(raw)
        before, kept = book_hash(self.book), self.book.to_dict()
        try:
            self.book.play(tap)
        except Refused as exc:
            self.book = Book.from_dict(kept)  # a refused tap changes nothing
            said = get_ruleset(self.book.ruleset).describe_rejection(exc.code, exc.params, lang) if exc.by_rules else None
            return json.dumps({"refused": exc.code, "said": said})
        return json.dumps({"before": before, "after": book_hash(self.book)})

    def screen(self, lang, fix):
        return json.dumps(screen(self.book, lang, None if fix < 0 else fix))

Offline
`;

async function loadEngine() {
  if (engine) { return engine; }
  const started = performance.now();
  const { loadPyodide } = await import(config.pyodide + "pyodide.mjs");
  const pyodide = await loadPyodide({ indexURL: config.pyodide });
  const zip = await (await fetch(config.engine)).arrayBuffer();
  pyodide.unpackArchive(new Uint8Array(zip), "zip");
  const Offline = pyodide.runPython(BRIDGE);
  const taps = (await waitingTaps()).map(({ seq, game, before, after, ...tap }) => tap);
  engine = Offline(JSON.stringify(kept.book), JSON.stringify(taps));
  root.dataset.engineLoadMs = String(Math.round(performance.now() - started));
  return engine;
}

async function goOffline() {
  if (offline || !config.book) { return; }
  offline = true;
  root.dataset.offline = "1";
  kept = kept || await loadBook();
  if (!kept) { await tellStatus(word("cannot")); return; }
  await tellStatus(word("loading"));
  try {
    await loadEngine();
  } catch (error) {
    engine = null;
    await tellStatus(word("cannot"));
    return;
  }
  await tellStatus();
  render(-1);
}

async function tap(data) {
  const started = performance.now();
  const answer = JSON.parse(engine.tap(JSON.stringify(data), kept.lang));
  if (answer.refused) {
    render(-1, answer.said || word("refused"));
    return;
  }
  await recordTap({ ...data, before: answer.before, after: answer.after });
  root.dataset.phoneHash = answer.after;
  root.dataset.tapMs = String(Math.round(performance.now() - started));
  await tellStatus();
  render(-1);
}

// --------------------------------------------------------------------------- offline: the screens

function el(name, attrs, ...children) {
  const node = document.createElement(name);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value !== null && value !== undefined && value !== false) { node.setAttribute(key, value === true ? "" : value); }
  }
  for (const child of children) {
    if (child !== null && child !== undefined) { node.append(child); }
  }
  return node;
}

function say(cue, lines, cls) {
  const shown = (lines || []).filter(Boolean);
  if (!shown.length) { return null; }
  return el("div", { class: `say ${cls || ""}` }, el("p", { class: "cue" }, cue), ...shown.map((l) => el("p", {}, l)));
}

function facePicture(name) {
  const photo = kept.photos[name];
  if (photo) { return el("img", { src: photo, alt: "", width: 72, height: 72, class: "pic" }); }
  const initials = name.split(/\s+/).slice(0, 2).map((w) => w[0] || "").join("").toUpperCase();
  return el("span", { class: "pic initials", "aria-hidden": "true" }, initials);
}

function faces(choices, count, optional, alive) {
  const grid = el("fieldset", { class: "faces", "data-count": count, "data-optional": optional ? "1" : null });
  for (const name of choices) {
    grid.append(el("label", { class: alive[name] === false ? "face dead" : "face" },
      el("input", { type: "checkbox", name: "tap", value: name }), facePicture(name), el("span", { class: "name" }, name)));
  }
  return grid;
}

function tapForm(id, grid, label, send) {
  const form = el("form", { class: "tap", id }, grid,
    el("div", { class: "confirm-bar" }, el("button", { type: "submit", class: "big confirm" }, label)));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const chosen = Array.from(form.querySelectorAll("input[name=tap]:checked")).map((b) => b.value);
    form.querySelector("button").disabled = true;
    send(chosen);
  });
  if (grid && window.pbmNarratorFaces) { window.pbmNarratorFaces(grid); }
  return form;
}

// The vote the last moment published, as the server's page shows it (its numbers
// and names come from the engine's reading of the rules' own tally).
function tallyView(t, folded) {
  const rows = t.counts.map((row) => el("tr", { class: [row.chosen ? "chosen" : "", row.tied ? "tied" : ""].join(" ").trim() || null },
    el("td", {}, row.name, row.chosen ? el("span", { class: "mark" }, " ✓") : null), el("td", {}, String(row.count))));
  const parts = [
    el("table", { class: "counts-table" }, el("caption", { class: "sr-only" }, word("votes_caption")),
      el("tr", {}, el("th", { scope: "col" }, word("player")), el("th", { scope: "col" }, word("votes"))), ...rows),
    t.tie ? el("p", { class: "tie", id: "tie" }, t.tie.count
      ? word("tie", { count: t.tie.count, names: t.tie.tied.join(", "), chosen: t.tie.chosen.join(", ") })
      : word("tie_none", { chosen: t.tie.chosen.join(", ") })) : null,
    t.needed ? el("p", { class: "rule" }, t.needed) : null,
    t.votes.length ? el("details", { class: "who-voted" }, el("summary", {}, word("who_voted")),
      el("ul", { class: "votes" }, ...t.votes.map((v) => el("li", {}, `${v.voter} → ${v.choice}`)))) : null,
  ];
  if (folded) {
    return el("div", { class: "tally", id: "tally" }, el("details", { class: "vote-fold", open: t.tie ? true : null },
      el("summary", { class: "cue" }, word("the_vote")), ...parts));
  }
  return el("div", { class: "tally", id: "tally" }, el("p", { class: "cue" }, word("the_vote")), ...parts);
}

function render(fix, refusal) {
  const s = JSON.parse(engine.screen(kept.lang, fix));
  const page = document.getElementById("narrator");
  page.dataset.step = s.step;
  page.replaceChildren();
  const where = [kept.game];
  if (["night", "dawn", "answer", "fix"].includes(s.step)) { where.push(word("night", { number: s.number })); }
  if (s.step === "night") { where.push(word("call", { n: s.call_index + 1, total: s.total })); }
  if (s.step === "vote") { where.push(word("day", { number: s.number })); }
  page.append(el("p", { class: "where" }, where.join(" · ")));
  if (refusal) { page.append(el("p", { class: "flash error", role: "alert" }, refusal)); }
  if (s.step === "vote" || s.sleep) {
    if (s.announce.length) {
      page.append(el("div", { class: "announce", id: "announce" }, el("p", { class: "cue" }, word("announce")),
        ...s.announce.map((l) => el("p", {}, l))));
    }
    if (s.notes.length) { page.append(el("div", { class: "note secret" }, ...s.notes.map((l) => el("p", {}, l)))); }
    if (s.tally) { page.append(tallyView(s.tally, s.step !== "vote")); }
  }
  if (s.sleep) { page.append(say(word("read_aloud"), [s.sleep])); }
  if (s.previous && ["night", "dawn"].includes(s.step)) { page.append(say(word("read_aloud"), [s.previous.close], "then")); }
  if (s.step === "night") {
    const c = s.call;
    const grid = c.choices.length ? faces(c.choices, c.identify ? c.count : 1, c.optional, s.alive) : null;
    page.append(el("section", { class: "call", id: "call", "data-index": s.call_index },
      el("h1", {}, c.name), say(word("read_aloud"), [c.open, c.do]),
      tapForm("tap-form", grid, word("confirm"), (taps) => tap({ op: "call", index: s.call_index, taps }))));
  } else if (s.step === "fix") {
    const c = s.call;
    page.append(el("section", { class: "call fix", id: "fix", "data-index": s.call_index }, el("h1", {}, c.name),
      tapForm("tap-form", faces(c.choices, c.identify ? c.count : 1, c.optional, s.alive), word("confirm"),
        (taps) => tap({ op: "correct", index: s.call_index, taps }))));
  } else if (s.step === "answer") {
    const a = s.answer;
    const done = el("button", { type: "button", class: "big confirm" }, word("done"));
    done.addEventListener("click", () => tap({ op: "shown", index: s.call_index, mark: a.mark }));
    page.append(el("section", { class: "call answer", id: "answer", "data-index": s.call_index },
      el("h1", {}, a.name), el("p", { class: "cue secret-cue" }, word("signal")),
      a.wake ? say(word("read_aloud"), [a.wake]) : null,
      a.asked.length ? el("p", { class: "asked" }, ...a.asked.map((n) => el("span", { class: "asked-face" }, facePicture(n), " ", el("strong", {}, n)))) : null,
      el("div", { class: "told", id: "told" }, ...(a.lines.length ? a.lines : [word("nothing")]).map((l) => el("p", {}, l))),
      a.sleep ? say(word("read_aloud"), [a.sleep]) : null,
      el("div", { class: "confirm-bar" }, done)));
  } else if (s.step === "dawn") {
    const close = el("button", { type: "button", class: "big confirm" }, word("dawn"));
    close.addEventListener("click", () => tap({ op: "close", phase: s.index }));
    page.append(el("section", { class: "call", id: "dawn" }, say(word("read_aloud"), [s.wake]),
      el("div", { class: "confirm-bar", id: "close-form" }, close)));
  } else if (s.step === "vote") {
    const current = s.current;
    if (current) {
      page.append(el("section", { class: "call", id: "voter", "data-voter": current.name },
        el("h1", { class: "voter" }, facePicture(current.name), " ", word("voter", { name: current.name })),
        tapForm("tap-form", faces(current.choices, 1, false, s.alive), word("confirm"),
          (taps) => tap({ op: "vote", voter: current.name, choice: taps[0] }))));
    }
    const close = el("button", { type: "button", class: current ? "big quiet" : "big confirm" }, word("close_vote"));
    close.addEventListener("click", () => tap({ op: "close", phase: s.index }));
    page.append(el("div", { class: "confirm-bar", id: "close-form" }, close));
    page.append(el("ol", { class: "votes", id: "votes" }, ...s.voters.map((v) =>
      el("li", { class: v.choice === null ? "waiting" : null }, v.choice === null ? v.name : `${v.name} → ${v.choice}`))));
  } else {
    page.append(el("p", { class: "instr" }, word(s.step === "over" ? "over" : s.step === "setup" ? "setup" : "held")));
  }
  if (s.confirmed && s.confirmed.length && !["fix", "answer"].includes(s.step)) {
    page.append(el("section", { class: "tonight", id: "tonight" }, el("h2", {}, word("tonight")),
      el("ul", { class: "confirmed" }, ...s.confirmed.map((c) => {
        const item = el("li", { "data-index": c.index }, el("span", { class: "what" }, el("strong", {}, c.name), `: ${c.taps.join(", ") || "—"}`));
        if (c.correctable) {
          const fixLink = el("button", { type: "button", class: "fix-link" }, word("correct"));
          fixLink.addEventListener("click", () => render(c.index));
          item.append(" ", fixLink);
        }
        return item;
      }))));
  }
  window.scrollTo(0, 0);
  root.dataset.rendered = String(Number(root.dataset.rendered || 0) + 1);
}

// --------------------------------------------------------------------------- start

async function start() {
  if (!capable || !config.book) { return; } // the page as before
  // A form sent without a network would be lost: the game goes on here instead.
  document.addEventListener("submit", (event) => {
    if (!offline && navigator.onLine) { return; }
    event.preventDefault();
    goOffline();
  }, true);
  window.addEventListener("offline", () => goOffline());
  window.addEventListener("online", () => { if (offline) { syncNow().catch(() => tellStatus()); } });
  if (!navigator.onLine) { await goOffline(); return; }
  try {
    if ((await waitingTaps()).length) {
      kept = await loadBook();
      await tellStatus();
      await syncNow();
      return;
    }
    await fetchBook();
  } catch (error) {
    await goOffline();
    return;
  }
  await tellStatus();
  keepForLater().catch(() => { root.dataset.offlineReady = "0"; });
}

start();
