// Rooms (docs/web.md, "Host a playtest"): the Room tab creates one and lists its links; a page opened
// by a link (/#room=ROOM&token=TOKEN) plays that link's seat(s). Every request then carries the
// token (app.js's roomHeaders); the room is asked for every second and shown again when it moved on
// (its `version`). app.js draws the game (showGame); this file adds the room's own parts.
"use strict";

const room = { id: null, token: null, timer: null };
const POLL_MS = 1000;

// == creating a room ================================================================================

function fillRoomForm() {
  if (!options) return setTimeout(fillRoomForm, 100);  // app.js is still asking for the options
  if ($("room-ruleset").options.length) return;
  fill("room-ruleset", options.rulesets.map((r) => el("option", { value: r.name, text: r.title })));
  $("room-ruleset").value = options.rulesets.some((r) => r.name === options.default) ? options.default
    : options.rulesets[0].name;
  fillRoomPlayers();
}

function fillRoomPlayers() {
  const counts = options.rulesets.find((r) => r.name === $("room-ruleset").value).players;
  const keep = Number($("room-players").value) || 2;
  fill("room-players", counts.map((n) => el("option", { value: n, text: n })));
  $("room-players").value = counts.includes(keep) ? keep : counts[0];
  fillRoomSeats();
}

function fillRoomSeats() {
  const seats = [];
  for (let seat = 1; seat <= Number($("room-players").value); seat++) {
    const select = el("select", { id: `room-seat-${seat}` },
      ...options.seat_kinds.map((kind) => el("option", { value: kind, text: kind === "human" ? "a person" : kind })));
    select.value = "human";
    seats.push(el("label", { text: `Seat ${seat} ` }, select));
  }
  fill("room-seats", seats);
}

async function createRoom() {
  const players = Number($("room-players").value);
  const seats = [];
  for (let seat = 1; seat <= players; seat++) seats.push($(`room-seat-${seat}`).value);
  const body = { ruleset: $("room-ruleset").value, players, seats, hotseat: $("room-hotseat").checked };
  if ($("room-seed").value !== "") body.seed = Number($("room-seed").value);
  const made = await api("POST", "/api/rooms", body);
  $("room-links").hidden = false;
  fill("room-links", [el("p", { text: `Room ${made.room} (${made.title}): send each player their own link.` }),
    linkList(made)]);
}

function linkList(made) {
  const row = (label, link) => el("li", { "data-seats": link.seats.join(" ") },
    `${label}: `, el("input", { class: "room-link", readonly: "", value: link.url, size: 40 }), " ",
    el("a", { href: link.url, text: "open here" }));
  return el("ul", { class: "room-links" },
    ...made.links.map((link) => row(link.seats.length > 1 ? `Seats ${link.seats.join(", ")} (one screen)`
      : `Seat ${link.seats[0]}`, link)),
    row("Spectators", made.spectator), row("Host (sees no hand; may download the save at any time)", made.host));
}

// == the page of a link ================================================================================

function linkInAddress() {
  const params = new URLSearchParams(location.hash.slice(1));
  return params.get("room") && params.get("token") ? { id: params.get("room"), token: params.get("token") } : null;
}

async function openRoom() {
  const link = linkInAddress();
  if (!link) return;
  room.id = link.id;
  room.token = link.token;
  roomHeaders = { Authorization: `Bearer ${link.token}` };
  for (const setup of document.querySelectorAll(".setup")) setup.hidden = true;  // a player needs no form
  for (const tab of document.querySelectorAll(".tab")) tab.classList.remove("active");
  watching = false;
  showGame(await api("GET", `/api/rooms/${room.id}`));
  if (room.timer === null) room.timer = setInterval(poll, POLL_MS);
}

function leaveRoom() {
  room.id = null;
  roomHeaders = {};
  if (room.timer !== null) clearInterval(room.timer);
  room.timer = null;
  const bar = $("room-bar");
  if (bar) bar.hidden = true;
  $("save").hidden = false;
}

async function poll() {
  // only between requests of this page; a failed look (the server restarting) is tried again next time
  if (!room.id || !current || !current.room || document.body.dataset.busy !== "0") return;
  try {
    const response = await fetch(`/api/rooms/${room.id}?since=${current.version}`, { headers: roomHeaders });
    if (!response.ok || !current || current.room !== room.id) return;
    const view = await response.json();
    if (!view.unchanged && view.version >= current.version && document.body.dataset.busy === "0") showGame(view);
  } catch (error) { /* no answer: next time */ }
}

function roomBar() {
  let bar = $("room-bar");
  if (!bar) {
    bar = el("div", { id: "room-bar", class: "room-bar" }, el("p", { id: "room-who" }),
      el("button", { id: "room-confirm", hidden: "" }), el("div", { id: "room-host-links" }));
    $("play-panel").prepend(bar);
    $("room-confirm").addEventListener("click", () => attempt(confirmSeat));
  }
  return bar;
}

function showRoomParts(view) {
  roomBar().hidden = false;
  const who = view.role === "seat" ? (view.you.length > 1 ? `players ${view.you.join(", ")} on one screen`
    : `player ${view.you[0]}`) : view.role;
  $("room-who").textContent = `Room ${view.room}: you are ${who}` + (view.viewer ? ` (player ${view.viewer}'s hand)` : "");
  $("room-confirm").hidden = !view.confirm;
  if (view.confirm) $("room-confirm").textContent = `I am seat ${view.confirm}`;
  $("save").hidden = !(view.over || view.role === "host");  // a save shows every hand
  if (view.links) fill("room-host-links", [linkList(view)]);
  else if (view.role !== "host") fill("room-host-links", []);
}

async function confirmSeat() {
  // the person at a hotseat screen says who they are: their hand shows while they decide
  roomHeaders = { ...roomHeaders, "X-Brass-Seat": String(current.confirm) };
  showGame(await api("GET", `/api/rooms/${room.id}`));
}

async function downloadSave(event) {
  // a room's save needs the link's token, which a plain link cannot send
  if (!current || !current.room) return;
  event.preventDefault();
  await attempt(async () => {
    const response = await fetch(gameUrl("/save"), { headers: roomHeaders });
    if (!response.ok) throw new Error((await response.json()).error);
    const url = URL.createObjectURL(await response.blob());
    const name = /filename="([^"]+)"/.exec(response.headers.get("content-disposition") || "");
    const a = el("a", { href: url, download: name ? name[1] : "brass-room.json" });
    a.click();
    URL.revokeObjectURL(url);
  });
}

// app.js draws every game; a room's view also gets the room's bar, and any other view ends the room
const showGameWithoutRoom = showGame;
showGame = function showGameInRoom(view) {  // eslint-disable-line no-func-assign
  showGameWithoutRoom(view);
  if (view.room) showRoomParts(view);
  else leaveRoom();
};

$("tab-room").addEventListener("click", fillRoomForm);
$("room-ruleset").addEventListener("change", fillRoomPlayers);
$("room-players").addEventListener("change", fillRoomSeats);
$("create-room").addEventListener("click", () => attempt(createRoom));
$("save").addEventListener("click", downloadSave);
window.addEventListener("hashchange", () => attempt(openRoom));
if (linkInAddress()) attempt(openRoom);
