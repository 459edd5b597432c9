// The replay: a slider over every position, previous and next, play and pause; the arrow keys step and the space
// bar plays. Boards are fetched as they are shown (SVG) and kept.
const box = document.getElementById("replay");
const gameId = box.dataset.gameId;
const slider = document.getElementById("position");
const caption = document.getElementById("caption");
const figure = document.getElementById("board");
const playButton = document.getElementById("play");
const previous = document.getElementById("previous");
const next = document.getElementById("next");
const kept = new Map();
let frames = [];
let index = Number(box.dataset.index);
let timer = null;

async function board(at) {
  if (!kept.has(at)) {
    const response = await fetch(`/g/${gameId}/board.svg?at=${at}`);
    kept.set(at, await response.text());
  }
  return kept.get(at);
}

async function show(position) {
  index = Math.max(0, Math.min(frames.length - 1, position));
  const frame = frames[index];
  slider.value = String(frame.at);
  slider.setAttribute("aria-valuetext", frame.caption);
  caption.textContent = frame.caption;
  const drawn = await board(frame.at);
  if (frames[index] !== frame) return; // moved on meanwhile
  figure.replaceChildren();
  figure.insertAdjacentHTML("afterbegin", drawn); // pbm's own drawing
  history.replaceState(null, "", `/g/${gameId}/replay?at=${frame.at}`);
}

function nearest(at) {
  let best = 0;
  frames.forEach((frame, k) => {
    if (frame.at <= at) best = k;
  });
  return best;
}

function toggle() {
  if (timer !== null) {
    clearInterval(timer);
    timer = null;
    playButton.textContent = "Play";
    playButton.setAttribute("aria-pressed", "false");
    return;
  }
  if (index >= frames.length - 1) show(0);
  playButton.textContent = "Pause";
  playButton.setAttribute("aria-pressed", "true");
  timer = setInterval(() => {
    if (index >= frames.length - 1) {
      toggle();
      return;
    }
    show(index + 1);
  }, 900);
}

async function start() {
  const answer = await (await fetch(`/g/${gameId}/replay.json`)).json();
  if (!answer.ok) return;
  frames = answer.frames;
  playButton.hidden = false;
  playButton.addEventListener("click", toggle);
  previous.addEventListener("click", (event) => {
    event.preventDefault();
    show(index - 1);
  });
  next.addEventListener("click", (event) => {
    event.preventDefault();
    show(index + 1);
  });
  slider.addEventListener("input", () => show(nearest(Number(slider.value))));
  document.addEventListener("keydown", (event) => {
    if (event.target.tagName === "INPUT" && event.target.type !== "range") return;
    if (event.key === "ArrowLeft") {
      event.preventDefault();
      show(index - 1);
    } else if (event.key === "ArrowRight") {
      event.preventDefault();
      show(index + 1);
    } else if (event.key === " ") {
      event.preventDefault();
      toggle();
    }
  });
}

start();
