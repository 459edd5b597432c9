"""Board pictures of every game, drawn and encoded, beside version 1's renderer; and the replay GIF of a 100-move
game of each kind.

Each board is a game replayed from its seed: today's rules play it (seeded random moves) and record the move texts,
and each version replays them with its own rules in a worker process (:mod:`bench.worker`, version 1 extracted
from git by :mod:`bench.baseline`), then draws and encodes the board as a user waits for it. The two workers
take turns, sample after sample (A B A B), so other load on the machine hits both alike; wall and CPU time are
both kept, the ratio is of CPU time. A replay that ends elsewhere in version 1 (other rules) is reported, not
compared.
"""

from __future__ import annotations

import statistics
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.backgammon import random_step
from bench.baseline import ROOT, Worker, extract_baseline
from bench.common import Row, timed
from bench.dragons import next_move
from bench.drogo import advance
from bench.druid import VARIANTS, fill
from render.replay import replay_gif
from rules import registry
from rules.base import GameState
from rules.druid import Pass
from rules.rng import Rng


@dataclass(frozen=True)
class Position:
    """A board of the bench as a game to replay: what both versions are given."""

    label: str
    #: what a user feels this board in
    felt: str
    game: str
    options: tuple[str, ...]
    players: tuple[str, ...]
    seed: int
    #: every move pushed, forced ones included, as its text
    moves: tuple[str, ...]

    def request(self) -> dict[str, Any]:
        return {
            "key": self.label,
            "game": self.game,
            "options": list(self.options),
            "players": list(self.players),
            "seed": self.seed,
            "moves": list(self.moves),
        }

    def state(self) -> GameState:
        """The position replayed by today's rules."""
        game = registry.get(self.game)
        state = game.new(game.parse_options(list(self.options), len(self.players)), list(self.players), self.seed)
        for text in self.moves:
            state.push(state.parse_move(text, state.to_move))
        return state


def played(
    label: str,
    felt: str,
    game: str,
    options: tuple[str, ...],
    seed: int,
    play: Callable[[GameState], object],
    players: tuple[str, ...] = ("p0", "p1"),
) -> tuple[Position, GameState]:
    """A new game that ``play`` moves on (pushing on the state it is given), its moves recorded as texts; and the
    state it reached, checked to be what the texts replay to."""
    definition = registry.get(game)
    state = definition.new(definition.parse_options(list(options), len(players)), list(players), seed)
    texts: list[str] = []
    push, clone = state.push, state.clone

    def recording(move: object) -> object:
        texts.append(state.move_text(move))
        return push(move)

    def unrecorded_clone() -> GameState:  # a trial copy (Druid's fill tries moves on one) records nothing
        copy = clone()
        del copy.push, copy.clone
        return copy

    state.push, state.clone = recording, unrecorded_clone  # type: ignore[method-assign]
    try:
        play(state)
    finally:
        del state.push, state.clone
    position = Position(label, felt, game, options, players, seed, tuple(texts))
    if position.state().to_json() != state.to_json():
        raise RuntimeError(f"{label}: the recorded moves do not replay to the position")
    return position, state


def _random_placements(plies: int, seed: int) -> Callable[[GameState], None]:
    def play(state: GameState) -> None:
        rng = Rng(seed)
        while not state.is_over and state.ply < plies:
            state.push(rng.choice([move for move in state.legal_moves if not isinstance(move, Pass)]))

    return play


def _to_the_end(seed: int) -> Callable[[GameState], None]:
    def play(state: GameState) -> None:
        rng = Rng(seed)
        while not state.is_over:
            state.push(next_move(state, rng))

    return play


def _backgammon_steps(steps: int, seed: int) -> Callable[[GameState], None]:
    def play(state: GameState) -> None:
        rng = Rng(seed)
        for _ in range(steps):
            random_step(state, rng)

    return play


def positions() -> list[Position]:
    """The boards of issue 17's render figures, each built the same way in every run."""
    felt = "the last board of a default Dragons game"
    label = "Dragons 50-tile game, finished"
    longest = max(
        (played(label, felt, "dragons", (), seed, _to_the_end(seed)) for seed in range(40)),
        key=lambda built: len(built[1].tiles),
    )
    square, players = VARIANTS["square 10"]
    return [
        played(
            "Backgammon middle game",
            "the board posted after every Backgammon move",
            "backgammon",
            (),
            3,
            _backgammon_steps(20, 3),
            ("alice", "bob"),
        )[0],
        played(
            "Druid full 10x10",
            "a late Druid board posted after a move",
            "druid",
            square,
            1,
            lambda state: fill(state, Rng(1)),
            tuple(f"p{i}" for i in range(players)),
        )[0],
        played(
            "Druid 26x26, 900 moves",
            "the largest Druid board, posted after a move",
            "druid",
            ("-size=26",),
            1,
            _random_placements(900, 1),
        )[0],
        played(
            "Drogo 6x6, 300 moves",
            "the board posted after a move in a default Drogo game",
            "drogo",
            (),
            7,
            lambda state: advance(state, Rng(7), 300),
        )[0],
        played(
            "Drogo 12x12, 3000 moves",
            "a late board of the largest Drogo game",
            "drogo",
            ("-size=12",),
            7,
            lambda state: advance(state, Rng(7), 3000),
        )[0],
        longest[0],
        played(
            "Dragons 200-tile pool, finished",
            "the last board of the largest Dragons game",
            "dragons",
            ("-tantrix", "-num_tiles=200"),
            3,
            _to_the_end(3),
        )[0],
    ]


def _median_ms(samples: list[tuple[float, float]], index: int) -> float:
    return statistics.median(sample[index] for sample in samples) * 1000


def _samples(workers: list[Worker], position: Position, repeat: int) -> dict[str, dict[str, Any]]:
    """Each worker's render samples of ``position`` ((wall, cpu) seconds) and PNG size, the workers taking turns;
    a worker whose rules replay the game elsewhere than ours is left out (its answer kept as ``diverged``)."""
    answers = {worker.name: worker.call("position", **position.request()) for worker in workers}
    ours = answers["ours"]
    out: dict[str, dict[str, Any]] = {}
    for worker in workers:
        if answers[worker.name] != ours:
            out[worker.name] = {"diverged": answers[worker.name]}
            continue
        out[worker.name] = {"samples": [], "bytes": worker.call("render", key=position.label)["bytes"]}
    timed_workers = [worker for worker in workers if "samples" in out[worker.name]]
    for _ in range(repeat):
        for worker in timed_workers:
            answer = worker.call("render", key=position.label)
            out[worker.name]["samples"].append((answer["wall"], answer["cpu"]))
    return out


def _picture_rows(quick: bool) -> list[Row]:
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        workers = [Worker.start("ours", ROOT)]
        baseline = extract_baseline(Path(tmp) / "v1")
        if baseline is not None:
            workers.append(Worker.start("version 1", baseline))
        try:
            for position in positions():
                rows += _position_rows(position, _samples(workers, position, 3 if quick else 15))
        finally:
            for worker in workers:
                worker.stop()
    return rows


def _position_rows(position: Position, measured: dict[str, dict[str, Any]]) -> list[Row]:
    ours = measured["ours"]
    wall, cpu = _median_ms(ours["samples"], 0), _median_ms(ours["samples"], 1)
    felt = f"{position.felt}: draw+encode {cpu:.1f} ms CPU ({wall:.1f} ms wall)"
    old = measured.get("version 1")
    if old is None or "samples" not in old:
        why = "version 1 not available (no git)" if old is None else f"version 1 replays it elsewhere: {old}"
        return [Row("render", f"{position.label}: draw+encode (CPU)", cpu, "ms", "<= 0.5x version 1", False, why, felt)]
    old_wall, old_cpu = _median_ms(old["samples"], 0), _median_ms(old["samples"], 1)
    ratio = cpu / old_cpu
    note = f"{felt}, version 1 {old_cpu:.1f} ms CPU ({old_wall:.1f} ms wall); wall ratio {wall / old_wall:.2f}"
    peer = "version 1's renderer, live"
    size = ours["bytes"] / old["bytes"]
    return [
        Row("render", f"{position.label}: time today/version 1 (CPU)", ratio, "x", "<= 0.5", ratio <= 0.5, peer, note),
        Row(
            "render",
            f"{position.label}: PNG size today/version 1",
            size,
            "x",
            "<= 1",
            size <= 1,
            peer,
            f"{ours['bytes'] / 1024:.1f} KB vs {old['bytes'] / 1024:.1f} KB",
        ),
    ]


def recorded(name: str, seed: int, words: tuple[str, ...] = (), moves: int = 100) -> list[tuple[GameState, str]]:
    """A replay's frames: the start and the state after each of up to ``moves`` seeded random moves (forced ones
    as the server makes them), each captioned with who played what."""
    game = registry.get(name)
    state = game.new(game.parse_options(list(words), 2), ["alice", "bob"], seed)
    rng = Rng(seed)
    frames = [(state.clone(), "the start")]
    while len(frames) <= moves and not state.is_over:
        move = state.forced_move()
        if move is None:
            move = rng.choice(list(state.legal_moves))
        caption = f"{state.players[state.to_move]} played {state.move_text(move)}"
        state.push(move)
        frames.append((state.clone(), caption))
    return frames


#: game, what is replayed, how the frames are built
REPLAYS: tuple[tuple[str, str, Callable[[], list[tuple[GameState, str]]]], ...] = (
    ("Backgammon", "100 moves", lambda: recorded("backgammon", 1)),
    ("Druid", "100 moves, 10x10", lambda: recorded("druid", 1)),
    ("Drogo", "100 moves, 6x6", lambda: recorded("drogo", 1)),
    (
        "Dragons",
        "85 moves, 200-tile pool (no Dragons game reaches 100: auto moves use the pool up)",
        lambda: max((recorded("dragons", seed, ("-tantrix", "-num_tiles=200")) for seed in range(12)), key=len),
    ),
)


def _replay_rows(quick: bool) -> list[Row]:
    rows = []
    for game, what, build in REPLAYS:
        frames = build()
        samples = [timed(lambda frames=frames: replay_gif(frames)) for _ in range(1 if quick else 3)]
        replay = replay_gif(frames)
        wall, cpu = _median_ms(samples, 0) / 1000, _median_ms(samples, 1) / 1000
        mib = len(replay.data) / 1024 / 1024
        felt = f"the replay GIF a player asks for after a game: {len(frames)} frames, {replay.frames} kept"
        rows += [
            Row("render", f"replay GIF, {game} {what}", wall, "s", "<= 3 s", wall <= 3, note=felt),
            Row("render", f"replay GIF, {game}, CPU time", cpu, "s", "<= 3 s", cpu <= 3, note="not inflated by load"),
            Row("render", f"replay GIF size, {game}", mib, "MiB", "<= 4 MiB", mib <= 4, note=replay.note),
        ]
    return rows


def run(quick: bool = False) -> list[Row]:
    return _picture_rows(quick) + _replay_rows(quick)
