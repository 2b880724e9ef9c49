// What a table of people reads beside the board (issue 25, "A table people read"): the last action
// outlined on the map, the eras' score breakdowns, the cards played this era and those not seen yet,
// "thinking…" on the bot seat to decide, taking back an action, and the map's zoom and pan. All of it
// comes from the server's JSON (web/table.py); this file only draws it. It extends app.js's
// showPosition and showGame, as rooms.js extends showGame.
"use strict";

const MIN_LABEL_PX = 11;  // the smallest text of the map at the default zoom
const zoom = { level: null, natural: null, readable: 1, drag: null };

// == the map: zoom and pan ==========================================================================

function boardSvg() {
  return $("board").querySelector("svg");
}

// The zoom at which the picture's smallest text is MIN_LABEL_PX pixels.
function readableZoom(svg) {
  const sizes = [...svg.querySelectorAll("text")].map((t) => parseFloat(t.getAttribute("font-size")))
    .filter((size) => size > 0);
  return sizes.length ? MIN_LABEL_PX / Math.min(...sizes) : 1;
}

function applyZoom() {
  const svg = boardSvg();
  if (!svg || !zoom.natural) return;
  svg.style.width = `${zoom.natural.width * zoom.level}px`;
  svg.style.height = `${zoom.natural.height * zoom.level}px`;
  $("zoom-level").textContent = `${Math.round(zoom.level * 100)}%`;
}

function setZoom(level, around) {
  const wrap = $("board-wrap");
  const old = zoom.level;
  zoom.level = Math.min(4, Math.max(0.2, level));
  // keep the point under the cursor (or the middle of the frame) where it was
  const box = wrap.getBoundingClientRect();
  const x = around ? around.x - box.left : wrap.clientWidth / 2;
  const y = around ? around.y - box.top : wrap.clientHeight / 2;
  const mapX = (wrap.scrollLeft + x) / old, mapY = (wrap.scrollTop + y) / old;
  applyZoom();
  wrap.scrollLeft = mapX * zoom.level - x;
  wrap.scrollTop = mapY * zoom.level - y;
}

function fitZoom() {
  const wrap = $("board-wrap");
  return Math.min(wrap.clientWidth / zoom.natural.width, wrap.clientHeight / zoom.natural.height);
}

// A new picture (the position changed): its natural size; the zoom the reader chose is kept.
function boardDrawn() {
  const svg = boardSvg();
  if (!svg) return;
  const box = svg.viewBox.baseVal;
  zoom.natural = { width: box.width || svg.width.baseVal.value, height: box.height || svg.height.baseVal.value };
  zoom.readable = readableZoom(svg);
  if (zoom.level === null) zoom.level = zoom.readable;
  applyZoom();
}

function wireZoom() {
  const wrap = $("board-wrap");
  $("zoom-in").addEventListener("click", () => setZoom(zoom.level * 1.25));
  $("zoom-out").addEventListener("click", () => setZoom(zoom.level / 1.25));
  $("zoom-fit").addEventListener("click", () => setZoom(fitZoom()));
  $("zoom-read").addEventListener("click", () => setZoom(zoom.readable));
  wrap.addEventListener("wheel", (event) => {
    if (!event.ctrlKey) return;  // a plain wheel scrolls the map
    event.preventDefault();
    setZoom(zoom.level * (event.deltaY < 0 ? 1.15 : 1 / 1.15), { x: event.clientX, y: event.clientY });
  }, { passive: false });
  // dragging moves the map; a drag of a few pixels is still a click (a choice on the board)
  wrap.addEventListener("mousedown", (event) => {
    if (event.button !== 0) return;
    zoom.drag = { x: event.clientX, y: event.clientY, left: wrap.scrollLeft, top: wrap.scrollTop, moved: false };
  });
  window.addEventListener("mousemove", (event) => {
    const drag = zoom.drag;
    if (!drag) return;
    const dx = event.clientX - drag.x, dy = event.clientY - drag.y;
    if (!drag.moved && Math.abs(dx) + Math.abs(dy) < 5) return;
    drag.moved = true;
    wrap.classList.add("panning");
    wrap.scrollLeft = drag.left - dx;
    wrap.scrollTop = drag.top - dy;
  });
  window.addEventListener("mouseup", () => {
    if (zoom.drag && zoom.drag.moved) {
      // the click that ends a drag chooses nothing
      wrap.addEventListener("click", (event) => event.stopPropagation(), { capture: true, once: true });
    }
    zoom.drag = null;
    wrap.classList.remove("panning");
  });
}

// == the last action ================================================================================

function markLastAction(view) {
  for (const node of $("board").querySelectorAll(".last")) node.classList.remove("last");
  const last = view.last_action;
  $("last-action").hidden = !last;
  if (!last) return;
  $("last-action").textContent = `Last action: ${last.text}`;
  for (const slot of last.slots) {
    const node = $("board").querySelector(`[data-slot="${CSS.escape(slot)}"]`);
    if (node) node.classList.add("last");
  }
  for (const link of last.links) {
    const node = $("board").querySelector(`[data-link="${CSS.escape(link)}"]`);
    if (node) node.classList.add("last");
  }
}

// == scores and cards ===============================================================================

function showScores(scores) {
  $("scores").hidden = !scores || scores.eras.length === 0;
  if ($("scores").hidden) return;
  const tables = scores.eras.map((era) => {
    const industries = [...new Set(era.seats.flatMap((row) => Object.keys(row.tiles)))].sort();
    const head = el("tr", {}, ...["seat", "links", ...industries, "total"].map((name) => el("th", { text: name })));
    const rows = era.seats.map((row) => el("tr", { "data-seat": row.seat },
      el("td", { text: `P${row.seat}` }), el("td", { "data-key": "links", text: row.links }),
      ...industries.map((name) => el("td", { "data-key": "tile", "data-industry": name, text: row.tiles[name] || 0 })),
      el("td", { "data-key": "total", text: row.total })));
    return el("table", { class: "era-score", "data-era": era.era }, el("caption", { text: `${era.era}: scored` }),
      head, ...rows);
  });
  const eras = scores.eras.map((era) => era.era);
  const head = el("tr", {}, ...["seat", ...eras, "other VP", "VP", "money"].map((name) => el("th", { text: name })));
  const rows = scores.players.map((p) => el("tr", { "data-seat": p.seat }, el("td", { text: `P${p.seat}` }),
    ...scores.eras.map((era) => el("td", { "data-key": "era", text: era.seats.find((r) => r.seat === p.seat).total })),
    el("td", { "data-key": "other", title: "merchants' bonuses, VP lost to unpaid income …", text: p.other }),
    el("td", { "data-key": "vp", text: p.vp }), el("td", { text: `£${p.money}` })));
  fill("score-tables", [...tables, el("table", { class: "vp-sum" },
    el("caption", { text: "VP: the eras' scoring and the rest" }), head, ...rows)]);
}

function showCards(view) {
  fill("played", (view.played || []).map((row) => el("p", { "data-seat": row.seat },
    `P${row.seat}: ${row.cards.join(", ") || "none"}`)));
  const unseen = view.unseen || [];
  const total = unseen.reduce((sum, row) => sum + row.count, 0);
  fill("unseen", [el("p", { text: `${total} card(s):` }), el("ul", { class: "unseen" },
    ...unseen.map((row) => el("li", { "data-card-name": row.name, text: `${row.name} × ${row.count}` })))]);
}

// == bots thinking, taking back ====================================================================

function markThinking(view) {
  for (const row of $("players-table").querySelectorAll("tr[data-seat]")) {
    const thinking = !view.over && view.thinking === Number(row.dataset.seat);
    const who = row.children[2];
    who.classList.toggle("thinking", thinking);
    if (thinking) who.textContent = `${who.textContent} thinking…`;
  }
}

async function takeBack() {
  $("refusal").hidden = true;
  showGame(await api("POST", gameUrl("/take-back"), {}));
}

// == wiring into app.js =============================================================================

const showPositionPlain = showPosition;
showPosition = function showPositionAtTable(view) {  // eslint-disable-line no-func-assign
  const before = shownBoard;
  showPositionPlain(view);
  if (shownBoard !== before) boardDrawn();
  markLastAction(view);
  showScores(view.scores);
  showCards(view);
  markThinking(view);
};

const showGamePlain = showGame;
showGame = function showGameAtTable(view) {  // eslint-disable-line no-func-assign
  showGamePlain(view);
  $("take-back").hidden = !view.can_take_back;
};

wireZoom();
$("take-back").addEventListener("click", () => attempt(takeBack));
