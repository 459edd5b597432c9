// Clocks that count down in the page, without asking the server: the seconds left when the page (or the last
// event) was drawn, and the time since. Worded as the server words them (bot.correspondence.periods.format_left).

/** A duration as pbm writes it: two units at most, rounded down ("6d 23h", "4h", "12m"). */
export function formatLeft(seconds) {
  if (!(seconds > 0)) return "no time";
  seconds = Math.ceil(seconds);
  if (seconds < 60) return "less than a minute";
  const minutesAll = Math.floor(seconds / 60);
  const days = Math.floor(minutesAll / (24 * 60));
  const rest = minutesAll % (24 * 60);
  const units = [[days, "d"], [Math.floor(rest / 60), "h"], [rest % 60, "m"]];
  const first = units.findIndex(([n]) => n);
  return units.slice(first, first + 2).filter(([n]) => n).map(([n, u]) => `${n}${u}`).join(" ");
}

/** Set a clock to `left` seconds as of now. */
export function setClock(clock, left, running) {
  clock.dataset.left = String(left);
  clock.dataset.since = String(performance.now());
  clock.dataset.running = running ? "1" : "0";
}

/** Count down every running clock in `root` once a second. */
export function startClocks(root) {
  const loaded = performance.now();
  const tick = () => {
    const now = performance.now();
    for (const clock of root.querySelectorAll(".clock[data-running='1']")) {
      const left = Number(clock.dataset.left);
      const since = Number(clock.dataset.since || loaded);
      if (clock.dataset.left !== "" && Number.isFinite(left)) {
        clock.textContent = `${formatLeft(left - (now - since) / 1000)} left`;
      }
    }
  };
  tick();
  return setInterval(tick, 1000);
}
