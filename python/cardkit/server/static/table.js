// The browser table of cardkit serve: a lobby (create, join or watch a room) and the
// table of one room, driven by the server's WebSocket protocol (docs/play.md).
// Everything shown comes from this seat's view; text goes in through textContent
// only, so names and actions from other players can never become markup.
"use strict";

const LABELS = {
  en: {
    title: "cardkit table", new_room: "New room", game: "Game", options: "Rule options (JSON)",
    private: "Private room", create: "Create and sit", join_room: "Join a room", join: "Join",
    watch: "Watch", open_rooms: "Open rooms", your_hand: "Your hand", actions: "Your move",
    score: "Score", restart: "New game", standings: "Standings", table_view: "Table",
    history: "History", leave: "Leave", everything: "Everything your seat knows", seat: "Seat", human: "person", room: "Room",
    your_turn: "Your turn", waiting: "Waiting for", game_over: "Game over", you: "you",
    spectator: "Watching", eliminated: "You are out: watch the others or start a new game",
    empty: "(empty)", open_seat: "open seat", match: "match", lang: "中文",
  },
  zh: {
    title: "cardkit 牌桌", new_room: "新房间", game: "游戏", options: "规则选项 (JSON)",
    private: "私人房间", create: "创建并入座", join_room: "加入房间", join: "加入",
    watch: "观战", open_rooms: "公开房间", your_hand: "你的手牌", actions: "你的出牌",
    score: "计分", restart: "再来一局", standings: "积分", table_view: "牌桌",
    history: "记录", leave: "离开", everything: "你的座位所知的一切", seat: "座位", human: "玩家", room: "房间",
    your_turn: "轮到你了", waiting: "等待", game_over: "本局结束", you: "你",
    spectator: "观战中", eliminated: "你已出局：可以继续观战或重新开始",
    empty: "（空）", open_seat: "空座", match: "局", lang: "English",
  },
};
const SUITS = { s: ["♠", false], h: ["♥", true], d: ["♦", true], c: ["♣", false] };
const CARD = /(^|[^A-Za-z0-9])([2-9TJQKA][shdc]|BJ|RJ)(?![A-Za-z])/g;

let lang = localStorage.getItem("cardkit.lang") || "en";
let games = [];
let socket = null;
let room = null;       // the room's public description
let view = null;       // this client's latest view
let events = [];       // this client's event log for the current match
let current = null;    // the room code and token this page is connected with
let retries = 0;       // hellos retried after "seat_in_use"

const $ = (id) => document.getElementById(id);
const t = (key) => LABELS[lang][key] || key;

function el(tag, text, cls) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (cls) node.className = cls;
  return node;
}

function applyLabels() {
  document.documentElement.lang = lang === "zh" ? "zh-CN" : "en";
  for (const node of document.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  $("lang").textContent = t("lang");
  if (room) renderTable();
}

// A card chip: suit symbol, red for hearts, diamonds and the red joker.
function cardNode(text) {
  const rank = text.length === 2 && text[0] === "T" ? "10" : text.slice(0, -1);
  const suit = SUITS[text.slice(-1)];
  if (text === "BJ" || text === "RJ" || !suit) return el("span", text, "card" + (text === "RJ" ? " red" : ""));
  return el("span", rank + suit[0], "card" + (suit[1] ? " red" : ""));
}

// Text with the cards inside it drawn as chips ("play Qs Qh" -> play [Q♠] [Q♥]).
function richText(text) {
  const span = el("span");
  let last = 0;
  for (const m of text.matchAll(CARD)) {
    const start = m.index + m[1].length;
    span.append(text.slice(last, start), cardNode(m[2]));
    last = start + m[2].length;
  }
  span.append(text.slice(last));
  return span;
}

function valueText(value) {
  if (Array.isArray(value)) return value.map(valueText).join(" ");
  if (value !== null && typeof value === "object") {
    return Object.entries(value).map(([k, v]) => `${k} ${valueText(v)}`).join(", ");
  }
  return String(value);
}

function seatName(seat) {
  if (seat === null || seat === undefined) return "";
  if (view && seat === view.seat) return t("you");
  const entry = room && room.seats[seat];
  const name = entry ? entry.name || (entry.kind === "agent" ? entry.agent : t("open_seat")) : "";
  return `${t("seat")} ${seat}${name ? " (" + name + ")" : ""}`;
}

function eventLine(event) {
  const rest = Object.entries(event).filter(([k]) => !["type", "seat", "action"].includes(k));
  let head = event.type.replace(/_/g, " ");
  if ("action" in event) head = event.action;
  if ("seat" in event) head = `${seatName(event.seat)}: ${head}`;
  const tail = rest.map(([k, v]) => `${k} ${valueText(v)}`).join("; ");
  return richText(tail ? `${head} (${tail})` : head);
}

// A JSON value as nested tables (the score breakdown, the table's public state).
function tree(value) {
  if (value === null || typeof value !== "object") return richText(String(value));
  if (Array.isArray(value) && value.every((v) => v === null || typeof v !== "object")) {
    return richText(value.map(String).join(" "));
  }
  const table = el("table");
  for (const [k, v] of Object.entries(value)) {
    const row = el("tr");
    row.append(el("th", k));
    const cell = el("td");
    cell.append(tree(v));
    row.append(cell);
    table.append(row);
  }
  return table;
}

async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body),
  };
  const response = await fetch(path, init);
  const data = await response.json();
  if (!response.ok) throw new Error(data.error ? data.error.message : response.statusText);
  return data;
}

function showError(message) { $("error").textContent = message || ""; }

// -- lobby --------------------------------------------------------------------------

function renderSeats() {
  const game = games.find((g) => g.name === $("game").value);
  const box = $("seats");
  box.replaceChildren();
  if (!game) return;
  for (let seat = 0; seat < game.players; seat++) {
    const label = el("label");
    label.append(`${t("seat")} ${seat} `);
    const select = el("select");
    select.className = "seat-kind";
    for (const choice of ["human", ...game.agents]) {
      const option = el("option", choice === "human" ? t("human") : choice);
      option.value = choice;
      select.append(option);
    }
    select.value = seat === 0 ? "human" : game.default_agent;
    label.append(select);
    box.append(label);
  }
  $("options").value = JSON.stringify(game.options);
}

async function loadLobby() {
  document.body.dataset.lobby = "loading";
  games = (await api("/api/games")).games;
  const select = $("game");
  const chosen = select.value;
  select.replaceChildren(...games.map((g) => { const o = el("option", g.name); o.value = g.name; return o; }));
  // Coming back to the lobby keeps the game that was chosen.
  if (games.some((g) => g.name === chosen)) select.value = chosen;
  renderSeats();
  const list = $("rooms");
  list.replaceChildren();
  for (const r of (await api("/api/rooms")).rooms) {
    const item = el("li", `${r.code} ${r.game} `);
    const join = el("button", t("join"));
    join.onclick = () => joinRoom(r.code);
    const watch = el("button", t("watch"));
    watch.onclick = () => openRoom(r.code, null);
    item.append(join, watch);
    list.append(item);
  }
  document.body.dataset.lobby = "ready";
}

async function createRoom(event) {
  event.preventDefault();
  showError("");
  try {
    const seats = [...document.querySelectorAll(".seat-kind")].map((s) => s.value);
    const text = $("options").value.trim();
    const created = await api("/api/rooms", {
      game: $("game").value, seats, options: text ? JSON.parse(text) : {}, private: $("private").checked,
    });
    if (seats.includes("human")) await joinRoom(created.code, seats.indexOf("human"));
    else openRoom(created.code, null);
  } catch (error) {
    showError(error.message);
  }
}

async function joinRoom(code, seat) {
  showError("");
  try {
    const body = seat === undefined ? {} : { seat };
    const joined = await api(`/api/rooms/${encodeURIComponent(code)}/join`, body);
    localStorage.setItem(`cardkit.token.${joined.code}`, joined.token);
    openRoom(joined.code, joined.token);
  } catch (error) {
    showError(error.message);
  }
}

// -- table --------------------------------------------------------------------------

// Forget the room shown and empty its table: a room draws its table only when its
// first view arrives, and until then the old buttons, history and end line would
// still be there to read and click.
function clearTable() {
  room = null; view = null; events = [];
  for (const id of ["players", "hand", "actions", "standings", "summary", "observation", "score", "history"]) {
    $(id).replaceChildren();
  }
  $("status").textContent = "";
  $("room-line").textContent = "";
  $("actions-title").hidden = true;
  $("end").hidden = true;
}

function openRoom(code, token) {
  if (socket) socket.close();
  if (!current || current.code !== code) retries = 0;
  current = { code, token };
  clearTable();
  location.hash = `room=${code}`;
  $("lobby").hidden = true;
  $("table").hidden = false;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const opened = new WebSocket(`${scheme}://${location.host}/ws/${encodeURIComponent(code)}`);
  socket = opened;
  // A closed socket may still deliver what was in flight: only the current one counts.
  opened.onopen = () => opened.send(JSON.stringify(token ? { type: "hello", token } : { type: "hello" }));
  opened.onmessage = (message) => { if (socket === opened) receive(JSON.parse(message.data)); };
  opened.onclose = () => { if (socket === opened && !room) showError(`${t("room")} ${code}?`); };
}

function receive(message) {
  if (message.type === "welcome" || message.type === "room") {
    room = message.room;
    retries = 0;
  } else if (message.type === "view") {
    if (message.reset) events = [];
    events = events.concat(message.events);
    view = message;
    showError("");
  } else if (message.type === "error") {
    // A reload can reach the server before the old page's connection has closed:
    // the seat is still "in use" for a moment, so the hello is tried again.
    if (message.code === "seat_in_use" && !room && retries < 5) {
      retries += 1;
      setTimeout(() => openRoom(current.code, current.token), 500 * retries);
      return;
    }
    showError(message.message);
    return;
  } else {
    return;
  }
  renderTable();
}

function play(action) {
  if (!view) return;  // a button left from a room being left or not yet shown
  for (const button of $("actions").querySelectorAll("button")) button.disabled = true;
  socket.send(JSON.stringify({ type: "act", action, ply: view.ply }));
}

function renderTable() {
  if (!room) return;
  $("room-line").textContent = `${t("room")} ${room.code} · ${room.game} · ${t("match")} ${room.match + 1}`;
  const players = $("players");
  players.replaceChildren(...room.seats.map((s) => {
    const item = el("li", seatName(s.seat) + (s.kind === "human" && !s.connected ? " …" : ""));
    if (view && view.to_act === s.seat) item.classList.add("to-act");
    return item;
  }));
  if (!view) return;
  const mine = view.seat !== null && view.seat !== undefined;
  let status = t("spectator");
  if (view.terminal) status = t("game_over");
  else if (mine && view.eliminated) status = t("eliminated");
  else if (mine && view.legal_actions.length) status = t("your_turn");
  else if (view.to_act !== null) status = `${t("waiting")} ${seatName(view.to_act)}`;
  $("status").textContent = status;
  $("hand").replaceChildren(...(mine && view.hand.length ? view.hand.map(cardNode) : [el("span", t("empty"))]));
  $("actions-title").hidden = !(mine && view.legal_actions.length);
  const actions = $("actions");
  actions.replaceChildren(...(mine ? view.legal_actions : []).map((action) => {
    const button = el("button");
    button.append(richText(action));
    button.dataset.action = action;
    button.onclick = () => play(action);
    return button;
  }));
  $("standings").replaceChildren(tree(Object.fromEntries(
    view.standings.map((v, seat) => [seatName(seat), v]))));
  $("summary").replaceChildren(mine ? tree(view.table) : el("span", "-"));
  $("observation").replaceChildren(mine ? tree(view.observation) : el("span", "-"));
  $("end").hidden = !(view.terminal || (mine && view.eliminated));
  $("restart").hidden = !mine;
  $("score").replaceChildren(view.score ? tree(view.score) : el("span"));
  $("history").replaceChildren(...events.slice().reverse().map((e) => {
    const item = el("li");
    item.append(eventLine(e));
    return item;
  }));
}

function leave() {
  if (socket) socket.close();
  socket = null;
  clearTable();
  location.hash = "";
  $("table").hidden = true;
  $("lobby").hidden = false;
  loadLobby().catch((error) => showError(error.message));
}

function start() {
  $("lang").onclick = () => {
    lang = lang === "en" ? "zh" : "en";
    localStorage.setItem("cardkit.lang", lang);
    applyLabels();
    renderSeats();
  };
  $("game").onchange = renderSeats;
  $("create").onsubmit = createRoom;
  $("join").onsubmit = (event) => { event.preventDefault(); joinRoom($("code").value.trim().toUpperCase()); };
  $("watch").onclick = () => openRoom($("code").value.trim().toUpperCase(), null);
  $("restart").onclick = () => socket.send(JSON.stringify({ type: "restart" }));
  $("leave").onclick = leave;
  applyLabels();
  const hash = /room=([A-Z0-9]+)/.exec(location.hash);
  loadLobby().then(() => {
    // Back on a room's page (a reload): resume its seat with the stored token.
    if (hash) openRoom(hash[1], localStorage.getItem(`cardkit.token.${hash[1]}`));
  }).catch((error) => showError(error.message));
}

start();
