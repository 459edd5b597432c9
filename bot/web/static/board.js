// Moves entered by tapping the board (the SVG's tagged elements, <g data-kind="cell" data-id="c3">), or with the
// keyboard alone: the arrow keys move a cursor over the board's places, Enter or Space picks one. The server
// (GET /g/<id>/taps) answers each step: the places that may come next (lit), the complete move once the taps make
// one, and its notation, which goes into the move field. Nothing is sent before Preview, then Play.

// how a tagged element is tapped: its kind, or the kind it stands for (checkers on a point are the point)
const KINDS = { cell: "cell", druid: "druid", point: "point", checkers: "point", bar: "bar", tray: "tray", off: "tray", spot: "spot", gap: "gap", letter: "letter" };
// the most choices also offered as buttons beside the board
const MAX_CHOICES = 8;
const SVG_NS = "http://www.w3.org/2000/svg";

export function tapLabel(tap) {
  const [kind, id] = split(tap);
  const words = {
    cell: id.toUpperCase(),
    point: `point ${id}`,
    bar: "the bar",
    tray: "off the board",
    druid: "your druid",
    spot: `position ${id}`,
    gap: `the gap at ${id}`,
    letter: `tile ${id}`,
  };
  return words[kind] ?? tap;
}

function split(tap) {
  const at = tap.indexOf(":");
  return [tap.slice(0, at), tap.slice(at + 1)];
}

// the tap an element of the board makes, or null
function tapOf(element) {
  const tagged = element.closest("[data-kind]");
  if (!tagged) return null;
  const kind = KINDS[tagged.dataset.kind];
  if (!kind || !tagged.dataset.id) return kind ? tapOf(tagged.parentElement) : null;
  return `${kind}:${tagged.dataset.id}`;
}

export class TapBoard {
  // figure: the board's <figure>; field: the move <input>; gameId, guard(): the position's #n; say(line)
  constructor({ figure, field, gameId, guard, say, status, choices, ready }) {
    Object.assign(this, { figure, field, gameId, guard, say, status, choices, ready });
    this.taps = [];
    this.root = [];
    this.answer = null;
    this.cursor = null;
    // taps are answered in the order they were made, however fast they come
    this.queue = Promise.resolve();
    figure.addEventListener("click", (event) => this.clicked(event));
    figure.addEventListener("keydown", (event) => this.key(event));
  }

  // (re)reads the board drawn in the figure and asks where the taps stand
  async start() {
    this.taps = [];
    const answer = await this.ask([]);
    if (!answer) return;
    this.root = answer.lit;
    this.show(answer);
  }

  svg() {
    return this.figure.querySelector("svg");
  }

  // every tappable place of the board: tap -> its elements
  places() {
    const found = new Map();
    for (const element of this.svg()?.querySelectorAll("[data-kind][data-id]") ?? []) {
      if (element.closest(".tap-layer")) continue;
      const tap = tapOf(element);
      if (!tap || !KINDS[element.dataset.kind]) continue;
      if (!found.has(tap)) found.set(tap, []);
      found.get(tap).push(element);
    }
    return found;
  }

  async ask(taps) {
    const query = new URLSearchParams(taps.map((tap) => ["tap", tap]));
    query.set("guard", this.guard());
    let answer;
    try {
      const response = await fetch(`/g/${this.gameId}/taps?${query}`, { headers: { Accept: "application/json" }, credentials: "same-origin" });
      answer = await response.json();
    } catch {
      answer = { ok: false, message: "The server could not be reached; try again." };
    }
    if (!answer.ok) {
      this.say(answer.message);
      return null;
    }
    return answer;
  }

  clicked(event) {
    if (!this.svg()) return;
    const taps = document.elementsFromPoint(event.clientX, event.clientY).map(tapOf).filter(Boolean);
    if (taps.length) this.pick(taps);
  }

  // a tap (or the places under a finger, the legal one chosen), once the taps before it are answered
  pick(tap) {
    this.queue = this.queue.then(() => {
      const taps = Array.isArray(tap) ? tap : [tap];
      const lit = this.answer?.lit ?? [];
      const chosen = taps.find((t) => lit.includes(t)) ?? taps.find((t) => this.root.includes(t)) ?? taps[0];
      this.cursor = chosen;
      return this.take(chosen);
    });
  }

  async take(tap) {
    this.say("");
    let taps;
    if ((this.answer?.lit ?? []).includes(tap)) {
      taps = [...this.taps, tap];
    } else if (this.root.includes(tap)) {
      taps = [tap];
    } else {
      this.status.textContent = `${tapLabel(tap)} is not a legal choice now: pick a highlighted place.`;
      this.draw();
      return;
    }
    await this.go(taps);
  }

  async go(taps) {
    const answer = await this.ask(taps);
    if (!answer) return;
    this.taps = answer.taps;
    this.show(answer);
    if (answer.move && !answer.lit.length) this.ready(answer.move);
  }

  undo() {
    this.queue = this.queue.then(() => (this.taps.length ? this.go(this.taps.slice(0, -1)) : null));
  }

  clear() {
    this.queue = this.queue.then(() => (this.taps.length ? this.go([]) : null));
  }

  show(answer) {
    this.answer = answer;
    this.field.value = answer.partial;
    if (answer.move && answer.lit.length) {
      this.status.textContent = `${answer.move} is a whole move: press Preview, or tap on.`;
    } else if (answer.move) {
      this.status.textContent = `${answer.move} is a whole move: press Preview.`;
    } else if (answer.taps.length) {
      const chosen = answer.partial || answer.taps.map(tapLabel).join(", ");
      this.status.textContent = `So far ${chosen}: pick one of the ${answer.lit.length} highlighted places next.`;
    } else if (answer.lit.length) {
      this.status.textContent = "Tap a highlighted place on the board (or move over it with the arrow keys and press Enter), or type the move.";
    } else {
      this.status.textContent = "Nothing on the board can move now: use the buttons.";
    }
    this.showChoices(answer.taps.length ? answer.lit : []);
    this.draw();
  }

  // the next places as buttons too (a tile drawn as it would lie), when there are few
  showChoices(lit) {
    const buttons = [];
    if (lit.length <= MAX_CHOICES) {
      const places = this.places();
      for (const tap of lit) {
        const button = Object.assign(document.createElement("button"), { type: "button", className: "choice" });
        const [kind] = split(tap);
        const element = places.has(tap) ? primary(places.get(tap)) : null;
        if (kind === "letter" && element) button.append(drawing(this.svg(), element));
        button.append(document.createTextNode(tapLabel(tap)));
        button.addEventListener("click", () => this.pick(tap));
        buttons.push(button);
      }
    }
    this.choices.replaceChildren(...buttons);
    this.choices.hidden = buttons.length === 0;
  }

  // the highlights: lit places dashed, chosen ones solid, the keyboard's cursor thick; each place a button
  draw() {
    const svg = this.svg();
    if (!svg) return;
    svg.querySelector(".tap-layer")?.remove();
    const layer = document.createElementNS(SVG_NS, "g");
    layer.setAttribute("class", "tap-layer");
    layer.setAttribute("aria-hidden", "true");
    const places = this.places();
    const lit = new Set(this.answer?.lit ?? []);
    for (const [tap, elements] of places) {
      const classes = [];
      if (lit.has(tap)) classes.push("tap-lit");
      if (this.taps.includes(tap)) classes.push("tap-chosen");
      if (tap === this.cursor) classes.push("tap-cursor");
      const named = primary(elements);
      named.setAttribute("role", "button");
      named.setAttribute("tabindex", tap === this.cursor ? "0" : "-1");
      if (lit.has(tap)) named.setAttribute("aria-description", "a legal choice");
      else named.removeAttribute("aria-description");
      if (!classes.length) continue;
      const box = union(elements.map((e) => e.getBBox()));
      const rect = document.createElementNS(SVG_NS, "rect");
      for (const [name, value] of Object.entries({ x: box.x + 1, y: box.y + 1, width: Math.max(2, box.width - 2), height: Math.max(2, box.height - 2), rx: 4 })) {
        rect.setAttribute(name, value);
      }
      rect.setAttribute("class", classes.join(" "));
      layer.append(rect);
    }
    this.drawSteps(layer, places);
    svg.append(layer);
    if (!this.cursor || !places.has(this.cursor)) svg.setAttribute("tabindex", "0");
  }

  // Backgammon's checkers moved so far, each an arrow from where it was to where it went
  drawSteps(layer, places) {
    const moved = this.taps.filter((tap) => /^(point|bar|tray):/.test(tap));
    for (let k = 0; k + 1 < moved.length; k += 2) {
      const [from, to] = [moved[k], moved[k + 1]].map((tap) => places.get(tap));
      if (!from || !to) continue;
      const [x1, y1] = centre(union(from.map((e) => e.getBBox())));
      const [x2, y2] = centre(union(to.map((e) => e.getBBox())));
      const line = document.createElementNS(SVG_NS, "line");
      for (const [name, value] of Object.entries({ x1, y1, x2, y2 })) line.setAttribute(name, value);
      line.setAttribute("class", "tap-step");
      line.setAttribute("marker-end", "url(#tap-arrow)");
      layer.append(line);
    }
    if (layer.querySelector(".tap-step")) layer.prepend(arrowHead());
  }

  // the keyboard: arrows move the cursor to the nearest place that way, Enter or Space picks it
  key(event) {
    const moves = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1] };
    if (event.key === "Enter" || event.key === " ") {
      if (!this.cursor) return;
      event.preventDefault();
      this.pick(this.cursor);
      return;
    }
    if (event.key === "Escape") {
      this.undo();
      return;
    }
    const way = moves[event.key];
    if (!way) return;
    event.preventDefault();
    const places = this.places();
    const centres = [...places].map(([tap, elements]) => [tap, centre(union(elements.map((e) => e.getBBox())))]);
    if (!centres.length) return;
    const here = centres.find(([tap]) => tap === this.cursor);
    let next;
    if (!here) {
      next = centres.find(([tap]) => (this.answer?.lit ?? []).includes(tap)) ?? centres[0];
    } else {
      const [x, y] = here[1];
      let best = Infinity;
      for (const [tap, [cx, cy]] of centres) {
        const along = (cx - x) * way[0] + (cy - y) * way[1];
        if (tap === here[0] || along <= 1) continue;
        const across = Math.abs((cx - x) * way[1] + (cy - y) * way[0]);
        const cost = along + 2 * across;
        if (cost < best) [best, next] = [cost, [tap]];
      }
    }
    if (!next) return;
    this.cursor = next[0];
    this.draw();
    primary(places.get(this.cursor)).focus();
  }
}

// the element of a place that carries its name (a point's, not its checkers'): the one a reader and the keyboard use
function primary(elements) {
  return elements.find((element) => element.hasAttribute("aria-label")) ?? elements[0];
}

function union(boxes) {
  const left = Math.min(...boxes.map((b) => b.x));
  const top = Math.min(...boxes.map((b) => b.y));
  const right = Math.max(...boxes.map((b) => b.x + b.width));
  const bottom = Math.max(...boxes.map((b) => b.y + b.height));
  return { x: left, y: top, width: right - left, height: bottom - top };
}

function centre(box) {
  return [box.x + box.width / 2, box.y + box.height / 2];
}

// the head of a step's arrow
function arrowHead() {
  const defs = document.createElementNS(SVG_NS, "defs");
  const marker = document.createElementNS(SVG_NS, "marker");
  for (const [name, value] of Object.entries({ id: "tap-arrow", viewBox: "0 0 10 10", refX: 8, refY: 5, markerWidth: 5, markerHeight: 5, orient: "auto" })) {
    marker.setAttribute(name, value);
  }
  const head = document.createElementNS(SVG_NS, "path");
  head.setAttribute("d", "M0,0 L10,5 L0,10 z");
  head.setAttribute("class", "tap-step-head");
  marker.append(head);
  defs.append(marker);
  return defs;
}

// a small picture of one element of the board (a tile of the legend, as it would lie)
function drawing(svg, element) {
  const box = element.getBBox();
  const picture = document.createElementNS(SVG_NS, "svg");
  picture.setAttribute("viewBox", `${box.x - 2} ${box.y - 2} ${box.width + 4} ${box.height + 4}`);
  picture.setAttribute("aria-hidden", "true");
  picture.setAttribute("class", "choice-drawing");
  const copy = element.cloneNode(true);
  copy.removeAttribute("role");
  copy.removeAttribute("tabindex");
  copy.removeAttribute("aria-label");
  picture.append(copy);
  return picture;
}
