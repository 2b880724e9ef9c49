// The page of `brass serve`: everything it shows comes from the server's JSON (web/view.py);
// it knows no rule. A decision is a click on one of the listed buttons or on the board itself.
"use strict";

const $ = (id) => document.getElementById(id);
let options = null;       // GET /api/options
let current = null;       // the view shown: a game being played or a replay step
let watching = false;     // all seats are bots and the page lets them play
let shownBoard = "";      // the SVG text on the page now

// == talking to the server ===========================================================================

// A room (rooms.js) sends its link's token with every request, and its game's requests go to
// /api/rooms/ROOM (its view's `api`) instead of /api/games/ID.
let roomHeaders = {};
function gameUrl(path) {
  return `${current.api || `/api/games/${current.id}`}${path}`;
}

let pending = 0;
function busy(delta) {
  pending += delta;
  document.body.dataset.busy = pending > 0 ? "1" : "0";
  $("status").textContent = pending > 0 ? "working…" : "";
}

async function api(method, url, body) {
  busy(1);
  try {
    const init = { method, headers: { ...roomHeaders } };
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    const response = await fetch(url, init);
    const data = await response.json();
    if (!response.ok) {
      const error = new Error(data.error || `${response.status}`);
      error.failures = data.failures || [];
      error.move = data.move || "";  // a refused move in the terminal game's words
      error.status = response.status;
      throw error;
    }
    return data;
  } finally {
    busy(-1);
  }
}

function showError(error) {
  $("error").hidden = false;
  $("error").textContent = error.message;
}

function clearError() {
  $("error").hidden = true;
  $("error").textContent = "";
}

async function attempt(work) {
  clearError();
  try {
    await work();
  } catch (error) {
    showError(error);
  }
}

// == small DOM helpers ==============================================================================

function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name === "text") node.textContent = value;
    else if (name === "class") node.className = value;
    else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value);
  }
  for (const child of children) node.append(child);
  return node;
}

function fill(id, nodes) {
  $(id).replaceChildren(...nodes);
}

function readFile(input) {
  return new Promise((resolve, reject) => {
    const file = input.files[0];
    if (!file) return reject(new Error("choose a file first"));
    const reader = new FileReader();
    reader.onload = () => resolve({ name: file.name, text: reader.result });
    reader.onerror = () => reject(new Error(`cannot read ${file.name}`));
    reader.readAsText(file);
  });
}

// == the forms ======================================================================================

function showTab(name) {
  for (const tab of ["play", "replay", "scenario", "room"]) {
    $(`setup-${tab}`).hidden = tab !== name;
    $(`tab-${tab}`).classList.toggle("active", tab === name);
  }
}

function rulesetInfo() {
  return options.rulesets.find((r) => r.name === $("ruleset").value);
}

function fillPlayers() {
  const counts = rulesetInfo().players;
  const keep = Number($("players").value) || 2;
  fill("players", counts.map((n) => el("option", { value: n, text: n })));
  $("players").value = counts.includes(keep) ? keep : counts[0];
  fillSeats();
}

function fillSeats() {
  const n = Number($("players").value);
  const seats = [];
  for (let seat = 1; seat <= n; seat++) {
    const select = el("select", { id: `seat-${seat}` },
      ...options.seat_kinds.map((kind) => el("option", { value: kind, text: kind })));
    select.value = seat === 1 ? "human" : "greedy";
    seats.push(el("label", { text: `Seat ${seat} ` }, select));
  }
  fill("seats", seats);
}

function chosenSeats(players) {
  if (players !== Number($("players").value)) return undefined;  // the server's default: a person, then bots
  const seats = [];
  for (let seat = 1; seat <= players; seat++) seats.push($(`seat-${seat}`).value);
  return seats;
}

async function loadOptions() {
  options = await api("GET", "/api/options");
  fill("ruleset", options.rulesets.map((r) => el("option", { value: r.name, text: r.title })));
  $("ruleset").value = options.rulesets.some((r) => r.name === options.default) ? options.default : options.rulesets[0].name;
  fillPlayers();
  fill("trace-select", options.files.traces.map((path) => el("option", { value: path, text: shortName(path) })));
  fill("scenario-select", options.files.scenarios.map((path) => el("option", { value: path, text: shortName(path) })));
  // the --out files of comparisons below `brass serve --reports DIR`, each shown as `brass report` draws it
  fill("report-select", options.files.reports.map((path) => el("option", { value: path, text: shortName(path) })));
  $("open-report").disabled = options.files.reports.length === 0;
}

function shortName(path) {
  const parts = path.split("/");
  return parts.slice(-2).join("/");
}

// == a game being played ============================================================================

async function startGame(url, body) {
  watching = false;
  $("watch").textContent = "Let the bots play";
  showGame(await api("POST", url, body));
}

function newGame() {
  const players = Number($("players").value);
  return startGame("/api/games", {
    ruleset: $("ruleset").value, players, seed: Number($("seed").value) || 0, seats: chosenSeats(players),
  });
}

async function loadGame() {
  const { text } = await readFile($("load-file"));
  let players = 0;
  try { players = JSON.parse(text).players; } catch (error) { /* the server says what is wrong */ }
  await startGame("/api/games/load", { save: text, seats: chosenSeats(players) });
}

async function openScenario(fromFile) {
  const body = fromFile ? await readFile($("scenario-file")) : { path: $("scenario-select").value };
  await startGame("/api/games/scenario", { ...body, seats: undefined });
}

async function decide(decision) {
  await attempt(async () => {
    $("refusal").hidden = true;
    try {
      showGame(await api("POST", gameUrl("/decide"), { decision }));
    } catch (error) {
      if (error.status !== 422) throw error;
      showRefusal(JSON.stringify(decision), error);
    }
  });
}

function showRefusal(what, error) {
  const box = $("refusal");
  box.hidden = false;
  box.replaceChildren(el("strong", { text: `Refused: ${error.move || what}: ${error.message}` }),
    failureList(error.failures));
}

function failureList(failures) {
  return el("ul", { class: "failures" }, ...failures.map((f) => el("li", {},
    el("span", { class: "rule", text: f.rule || "" }), ` ${f.message} `,
    el("small", { text: f.where || "" }),
    f.rule_text ? el("div", { class: "rule-text", text: `${f.rule}: ${f.rule_text}` }) : "")));
}

function showGame(view) {
  current = view;
  $("game").hidden = false;
  $("play-panel").hidden = false;
  $("replay-panel").hidden = true;
  showPosition(view);
  $("prompt").textContent = view.prompt;
  fill("decisions", view.decisions.map((row, index) => el("button", {
    class: "decision", "data-index": index, text: row.label, title: row.help || JSON.stringify(row.decision),
    "data-decision": JSON.stringify(row.decision),
    onclick: () => decide(row.decision),
  })));
  markBoard(view);
  $("back-out").hidden = !view.can_back_out;
  $("watch").hidden = view.over || view.seats.includes("human");
  $("save").href = gameUrl("/save");
  $("blocked-count").textContent = view.blocked.length;
  fill("blocked", view.blocked.map((row) => el("div", { class: "blocked", "data-action": row.action },
    el("strong", { text: row.name }), failureList(row.failures))));
  $("viewer").textContent = view.viewer ? `(player ${view.viewer})` : "";
  $("person").hidden = !view.viewer;
  fill("hand", view.hand.map((card) => handCard(view, card)));
  showMat(view.mat, view.resources || []);
  // The server lets the bots of one request play for a couple of seconds only (so that no request
  // holds the game long): while a bot is still to decide in a game with a person, ask it to go on
  // at once; with bots only, one action at a time while the person watches.
  if (view.over) return;
  if (!view.human_to_decide && view.seats.includes("human")) advance(1000);
  else if (watching) setTimeout(watchStep, 50);
}

let boardChoices = [];  // [attribute, key, legal decisions by value] of the decision being made

function handCard(view, card) {
  // a card of the hand is clicked to choose it when the decision is a card (of any name: card, second_card …)
  const row = view.decisions.find((r) => Object.keys(r.decision).length === 1 &&
    Object.keys(r.decision)[0].endsWith("card") && Object.values(r.decision)[0] === card.id);
  const item = el("li", { "data-card": card.id, text: `${card.name} (${card.kind.replace("_", " ")})` });
  if (row) {
    item.classList.add("choosable");
    item.addEventListener("click", () => decide(row.decision));
  }
  return item;
}

function markBoard(view) {
  // The legal values on the board are outlined and clickable; the other things of the same kind are
  // clickable too, so that a click on an impossible one shows why it is refused (one listener on
  // the board finds what was clicked: the picture is replaced only when the position changed).
  for (const node of $("board").querySelectorAll(".choosable, .clickable")) node.classList.remove("choosable", "clickable");
  // each decision named on the board comes with the data- attribute of board/picture.py that marks it
  boardChoices = (view.board_keys || []).map(({ key, attribute }) => {
    const legal = new Map(view.decisions.filter((row) => row.board && row.board.key === key)
      .map((row) => [row.board.value, row.decision]));
    for (const node of $("board").querySelectorAll(`[data-${attribute}]`)) {
      node.classList.add(legal.has(node.getAttribute(`data-${attribute}`)) ? "choosable" : "clickable");
    }
    return { attribute, key, legal };
  });
}

function boardClicked(event) {
  if (!current || current.kind !== "play") return;
  for (const { attribute, key, legal } of boardChoices) {
    const node = event.target.closest(`[data-${attribute}]`);
    if (!node) continue;
    const value = node.getAttribute(`data-${attribute}`);
    decide(legal.get(value) || { [key]: value });
    return;
  }
}

function showMat(mat, resources) {
  // one column per resource of the ruleset: what building the next tile consumes
  const head = el("tr", {}, ...["industry", "left", "level", "cost", ...resources.map((r) => r.name.toLowerCase()),
    "VP", "income"].map((name) => el("th", { text: name })));
  const rows = mat.map((row) => el("tr", { "data-industry": row.industry },
    ...[row.name, row.left, row.level, row.cost === undefined ? "" : `£${row.cost}`,
      ...resources.map((r) => (row.needs ? row.needs[r.id] : undefined)),
      row.vp, row.income].map((value) => el("td", { text: value === undefined ? "–" : value }))));
  fill("mat", [head, ...rows]);
}

function showPosition(view) {
  $("header").textContent = `${view.title}: ${view.header}`;
  if (view.board !== shownBoard) {  // the server's SVG, drawn from the ruleset and the state only
    $("board").innerHTML = view.board;
    shownBoard = view.board;
  }
  const head = el("tr", {}, ...["", "seat", "who", "money", "income", "VP", "links left", "hand", "tiles"]
    .map((name) => el("th", { text: name })));
  const rows = view.players.map((p) => el("tr", { "data-seat": p.seat },
    ...[p.to_act ? "▶" : "", p.seat, p.who, `£${p.money}`, `${p.income_position} (${p.income_level >= 0 ? "+" : ""}${p.income_level})`,
      p.vp, p.links_left, p.hand, p.tiles].map((value) => el("td", { text: value }))));
  rows.forEach((row, n) => { row.children[1].style.background = view.players[n].colour; row.children[1].className = "seat"; });
  fill("players-table", [head, ...rows]);
  showCounters(view.tracks || [], view.stacks || []);
  $("over").hidden = !view.over;
  if (view.over) {
    const shead = el("tr", {}, ...["place", "seat", "VP", "income", "money"].map((name) => el("th", { text: name })));
    fill("standings", [shead, ...view.standings.map((s) => el("tr", { "data-seat": s.seat },
      el("td", { text: s.place }), el("td", { text: s.seat }), el("td", { class: "vp", text: s.vp }),
      el("td", { text: s.income_level }), el("td", { text: `£${s.money}` })))]);
  }
  fill("log", view.log.map((line) => el("li", { text: line })));
  $("log").scrollTop = $("log").scrollHeight;
}

// the ruleset's own tracks (their values) and face-down stacks (their sizes, never their order)
function showCounters(tracks, stacks) {
  const rows = [
    ...tracks.map((t) => el("li", { "data-track": t.id, text: `${t.name}: ${t.value} (${t.min}..${t.max})` })),
    ...stacks.map((s) => el("li", { "data-stack": s.id, text: `${s.name}: ${s.face_down} face down, `
      + (s.drawn.length ? `drawn ${s.drawn.join(" ")}` : "none drawn") })),
  ];
  fill("counters", rows);
  $("counters").hidden = rows.length === 0;
}

async function watchStep() {
  if (!watching || !current || current.kind !== "play" || current.over) return;
  await advance(1);
}

async function advance(actions) {
  await attempt(async () => showGame(await api("POST", gameUrl("/advance"), { actions })));
}

// == replays ========================================================================================

async function startReplay(url, body) {
  watching = false;
  showReplay(await api("POST", url, body));
}

function replayTrace() {
  const links = $("links").value ? Number($("links").value) : undefined;
  return startReplay("/api/replays/trace", { path: $("trace-select").value, links_per_player: links });
}

async function replaySave() {
  const { text } = await readFile($("replay-file"));
  await startReplay("/api/replays/save", { save: text });
}

let stepAsked = 0;  // the slider asks for many steps in a row: only the answer to the last one is shown
async function showStep(index) {
  const asked = ++stepAsked;
  await attempt(async () => {
    const view = await api("GET", `/api/replays/${current.id}/steps/${index}`);
    if (asked === stepAsked) showReplay(view);
  });
}

function showReplay(view) {
  current = view;
  $("game").hidden = false;
  $("play-panel").hidden = true;
  $("replay-panel").hidden = false;
  showPosition(view);
  $("slider").max = view.steps - 1;
  $("slider").value = view.step;
  $("step-count").textContent = `step ${view.step} of ${view.steps - 1}`;
  $("step-label").textContent = view.label;
  $("note").hidden = !view.note;
  $("note").textContent = view.note;
  $("expected").hidden = !view.expected_vp;
  if (view.expected_vp) {
    const ours = [...view.players].sort((a, b) => a.seat - b.seat).map((p) => p.vp);
    const same = JSON.stringify(ours) === JSON.stringify(view.expected_vp);
    $("expected").textContent = `The trace's final VP: ${view.expected_vp.join(" / ")}; ours: ${ours.join(" / ")}` +
      (same ? " (the same)" : " (they differ)");
    $("expected").dataset.same = same ? "1" : "0";
  }
  fill("hands", Object.entries(view.hands).map(([seat, cards]) =>
    el("p", { text: `player ${seat}: ${cards.map((c) => c.name).join(", ") || "no card"}` })));
}

// == wiring ==========================================================================================

function wire() {
  for (const tab of document.querySelectorAll(".tab")) tab.addEventListener("click", () => showTab(tab.dataset.tab));
  $("ruleset").addEventListener("change", fillPlayers);
  $("players").addEventListener("change", fillSeats);
  $("new-game").addEventListener("click", () => attempt(newGame));
  $("load-file").addEventListener("change", () => attempt(loadGame));
  $("open-scenario").addEventListener("click", () => attempt(() => openScenario(false)));
  $("scenario-file").addEventListener("change", () => attempt(() => openScenario(true)));
  $("replay-trace").addEventListener("click", () => attempt(replayTrace));
  $("open-report").addEventListener("click", () =>
    window.open(`/reports?path=${encodeURIComponent($("report-select").value)}`, "_blank", "noopener"));
  $("replay-file").addEventListener("change", () => attempt(replaySave));
  $("back-out").addEventListener("click", () => attempt(async () => {
    $("refusal").hidden = true;
    showGame(await api("POST", gameUrl("/back-out"), {}));
  }));
  $("watch").addEventListener("click", () => {
    watching = !watching;
    $("watch").textContent = watching ? "Pause the bots" : "Let the bots play";
    if (watching) watchStep();
  });
  $("slider").addEventListener("input", () => showStep(Number($("slider").value)));
  $("prev").addEventListener("click", () => current.step > 0 && showStep(current.step - 1));
  $("next").addEventListener("click", () => current.step < current.steps - 1 && showStep(current.step + 1));
  $("explain").addEventListener("click", () => attempt(explain));
  $("board").addEventListener("click", boardClicked);
}

async function explain() {
  let action;
  try { action = JSON.parse($("explain-text").value); } catch (error) { throw new Error(`not JSON: ${error.message}`); }
  const result = await api("POST", gameUrl("/explain"), { action });
  fill("explain-result", [result.legal ? el("p", { text: "legal now" }) : failureList(result.failures)]);
}

wire();
showTab("play");
attempt(loadOptions);
