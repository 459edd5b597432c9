// The game page, live: a new position arrives by Server-Sent Events and is shown in place (the board, whose
// turn, the clocks, the move list); the clocks count down by themselves. For a player, moves are previewed and
// played without leaving the page, always with the move number (#n) they were made on.
import { TapBoard } from "./board.js";
import { setClock, startClocks } from "./clock.js";

const root = document.getElementById("game");
const gameId = root.dataset.gameId;
// the board's view ("top" or "3d"): every address this page asks for keeps it
const viewQuery = root.dataset.view === "top" ? "" : `view=${root.dataset.view}`;
const csrf = document.querySelector("meta[name=csrf-token]").content;
const errorLine = document.getElementById("status-error");
const previewBox = document.getElementById("preview");

startClocks(root);

function say(message) {
  errorLine.textContent = message || "";
  errorLine.hidden = !message;
}

async function post(path, fields) {
  const response = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json", "Accept": "application/json", "X-CSRF-Token": csrf },
    body: JSON.stringify(fields),
    credentials: "same-origin",
  });
  try {
    return await response.json();
  } catch {
    return { ok: false, message: `The server answered ${response.status}; try again.` };
  }
}

function showBoard(figure, board) {
  figure.replaceChildren();
  // pbm's own drawing (render.svg escapes every text in it)
  figure.insertAdjacentHTML("afterbegin", board.svg);
}

function showHistory(view) {
  const list = document.getElementById("history");
  const items = [link(0, "Start")];
  for (const entry of view.history) {
    if (entry.n === null) {
      const li = document.createElement("li");
      li.className = "note";
      li.textContent = entry.text;
      items.push(li);
    } else {
      items.push(link(entry.n, `${entry.n}. ${entry.text}`));
    }
  }
  list.replaceChildren(...items);
  list.scrollTop = list.scrollHeight;
}

function link(at, text) {
  const li = document.createElement("li");
  const a = document.createElement("a");
  a.href = `/g/${gameId}?at=${at}${viewQuery ? `&${viewQuery}` : ""}`;
  a.textContent = text;
  li.append(a);
  return li;
}

// the server's clock minus this browser's, from the stream's "time" event: a view built a while ago (a page
// that connects later gets the one already built) has its clocks counted from when they were read
let serverAhead = 0;

function serverNow() {
  return Date.now() / 1000 + serverAhead;
}

function showPlayers(view) {
  const since = Math.max(0, serverNow() - view.as_of);
  for (const li of document.querySelectorAll("#players li")) {
    const name = li.querySelector("a").textContent;
    li.classList.toggle("to-move", name === view.to_move);
    const clock = li.querySelector(".clock");
    if (clock) {
      const left = view.clock[name];
      const running = name === view.running;
      setClock(clock, left === undefined ? "" : left - (running ? since : 0), running);
      clock.textContent = view.clock_notes[name] || "";
    }
    for (const badge of li.querySelectorAll(".badge")) badge.remove();
    if (name === view.to_move) li.append(badge("to move"));
    if (view.winners.includes(name)) li.append(badge("won", "win"));
  }
  document.getElementById("rating-words").textContent = view.rating_words;
  const matchWords = document.getElementById("match-words");
  matchWords.textContent = view.match_words || "";
  matchWords.hidden = !view.match_words;
  const nextGame = document.getElementById("next-game");
  nextGame.hidden = !view.next_game;
  if (view.next_game) {
    const link = nextGame.querySelector("a");
    link.href = `/g/${view.next_game}`;
    link.textContent = `game ${view.next_game}`;
  }
}

function badge(text, extra) {
  const span = document.createElement("span");
  span.className = extra ? `badge ${extra}` : "badge";
  span.textContent = text;
  return span;
}

function typing() {
  const active = document.activeElement;
  return active && active.tagName === "INPUT" && active.type !== "hidden" && active.value !== "";
}

let shownTurn = root.querySelector("#move-form") !== null;

async function apply(view) {
  if (view.version === root.dataset.version) return;
  root.dataset.version = view.version;
  document.getElementById("headline").textContent = view.headline;
  document.title = `${view.headline} · pbm`;
  showBoard(document.getElementById("board"), view.board);
  showPlayers(view);
  showHistory(view);
  if (root.dataset.plays !== "1") return;
  const mine = await (await fetch(`/g/${gameId}.json${viewQuery ? `?${viewQuery}` : ""}`, { headers: { "Accept": "application/json" } })).json();
  const myTurn = Boolean(mine.my_move);
  if (myTurn !== shownTurn || view.status !== "active") {
    if (typing()) {
      say("The game has moved on: reload the page to play.");
    } else {
      location.reload();
    }
    return;
  }
  for (const guard of root.querySelectorAll("input[name=guard]")) guard.value = view.guard ?? "";
  if (tapBoard) tapBoard.start();
  const legal = document.getElementById("legal");
  if (legal) {
    legal.replaceChildren(...mine.legal_moves.map((m) => Object.assign(document.createElement("option"), { value: m })));
  }
}

if (root.dataset.live === "1" && "EventSource" in window) {
  const source = new EventSource(`/g/${gameId}/events${viewQuery ? `?${viewQuery}` : ""}`);
  source.addEventListener("time", (event) => {
    serverAhead = JSON.parse(event.data).now - Date.now() / 1000;
  });
  source.addEventListener("position", (event) => apply(JSON.parse(event.data)));
}

const moveForm = document.getElementById("move-form");
const tapBox = document.getElementById("taps");
// the board as a keypad for the move field (the game's SVG board, the player's turn)
let tapBoard = null;
if (moveForm && tapBox && document.querySelector("#board svg")) {
  tapBoard = new TapBoard({
    figure: document.getElementById("board"),
    field: moveForm.move,
    gameId,
    guard: () => moveForm.guard.value,
    say,
    status: document.getElementById("tap-status"),
    choices: document.getElementById("tap-choices"),
    ready: () => moveForm.requestSubmit(),
  });
  document.getElementById("tap-undo").addEventListener("click", () => tapBoard.undo());
  document.getElementById("tap-clear").addEventListener("click", () => tapBoard.clear());
  tapBox.hidden = false;
  tapBoard.start();
}
if (moveForm) {
  moveForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    say("");
    const fields = { move: moveForm.move.value, guard: moveForm.guard.value };
    const answer = await post(`/g/${gameId}/preview`, fields);
    if (!answer.ok) {
      say(answer.message);
      return;
    }
    showPreview(answer);
  });
}

function showPreview(answer) {
  const { preview } = answer;
  const title = document.createElement("h2");
  title.id = "preview-title";
  title.textContent = "Preview: not played yet";
  const lines = preview.lines.map((line) => Object.assign(document.createElement("p"), { textContent: line }));
  const figure = document.createElement("figure");
  figure.className = "board";
  showBoard(figure, preview.board);
  const play = Object.assign(document.createElement("button"), {
    className: "primary",
    textContent: `Play ${preview.move.split("#")[0]}`,
  });
  const cancel = Object.assign(document.createElement("button"), { type: "button", textContent: "Cancel" });
  play.addEventListener("click", async () => {
    play.disabled = true;
    const done = await post(`/g/${gameId}/move`, { move: preview.move });
    play.disabled = false;
    if (!done.ok) {
      say(done.message);
      return;
    }
    previewBox.hidden = true;
    moveForm.reset();
  });
  cancel.addEventListener("click", () => {
    previewBox.hidden = true;
    moveForm.move.focus();
  });
  previewBox.replaceChildren(title, ...lines, figure, play, cancel);
  previewBox.setAttribute("aria-labelledby", "preview-title");
  previewBox.hidden = false;
  play.focus();
}

for (const form of root.querySelectorAll("form.word")) {
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    say("");
    const answer = await post(`/g/${gameId}/move`, { move: form.move.value, guard: form.guard.value });
    if (!answer.ok) say(answer.message);
  });
}
