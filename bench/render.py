"""Board pictures of every game, drawn and encoded: today's palette encoder (render.palette) side by side with the
median-cut encoder it replaced (kept below as the baseline), and the replay GIF of a 100-move game of each kind.

Each position is timed whole, drawing plus PNG encoding, as a user waits for it; baseline and new samples
alternate (A B A B) so that other load on the machine hits both alike, with wall and CPU time. Positions come
from seeded random play, so every run measures the same boards.
"""

from __future__ import annotations

import importlib
import io
import statistics
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from types import ModuleType

from PIL import Image

import render
from bench.backgammon import random_step
from bench.common import Row, timed
from bench.dragons import new_game as dragons_game
from bench.dragons import play_out
from bench.drogo import advance
from bench.drogo import new_game as drogo_game
from bench.druid import full_position
from render.replay import replay_gif
from rules import registry
from rules.backgammon import GAME as BACKGAMMON
from rules.base import GameState
from rules.druid import GAME as DRUID
from rules.druid import DruidState, Pass
from rules.rng import Rng


def median_cut_png(image: Image.Image, exact: Sequence[tuple[int, int, int]] = ()) -> bytes:
    """The encoder render.common.to_png used before render.palette: Pillow's median-cut quantiser to 256
    colours, no dithering, zlib level 6. ``exact`` is accepted and ignored (median cut keeps no colour exact)."""
    buffer = io.BytesIO()
    image.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(
        buffer, format="PNG", optimize=False, compress_level=6
    )
    return buffer.getvalue()


@contextmanager
def baseline_encoder(module: ModuleType) -> Iterator[None]:
    """Let ``module``'s renderer encode with :func:`median_cut_png`, drawing exactly as it does today."""
    saved = module.to_png
    module.to_png = median_cut_png
    try:
        yield
    finally:
        module.to_png = saved


def backgammon_middle() -> GameState:
    rng = Rng(3)
    state = BACKGAMMON.new({"force": False}, ["alice", "bob"], 3)
    for _ in range(20):
        random_step(state, rng)
    return state


def druid_26(seed: int = 1, plies: int = 900) -> DruidState:
    """The largest Druid board, ``plies`` random placements in (about 570 of its 676 cells built on)."""
    state = DRUID.new(DRUID.parse_options(["-size=26"], 2), ["p0", "p1"], seed)
    assert isinstance(state, DruidState)
    rng = Rng(seed)
    while not state.is_over and state.ply < plies:
        state.push(rng.choice([move for move in state.legal_moves if not isinstance(move, Pass)]))
    return state


def dragons_longest(games: int = 40) -> GameState:
    return max((play_out(dragons_game(seed), Rng(seed)) for seed in range(games)), key=lambda s: len(s.tiles))


#: label, what a user feels it in, how the position is built
POSITIONS: tuple[tuple[str, str, Callable[[], GameState]], ...] = (
    ("Backgammon middle game", "the board posted after every Backgammon move", backgammon_middle),
    ("Druid full 10x10", "a late Druid board posted after a move", full_position),
    ("Druid 26x26, 900 moves", "the largest Druid board, posted after a move", druid_26),
    (
        "Drogo 6x6, 300 moves",
        "the board posted after a move in a default Drogo game",
        lambda: advance(drogo_game(7), Rng(7), 300),
    ),
    (
        "Drogo 12x12, 3000 moves",
        "a late board of the largest Drogo game",
        lambda: advance(drogo_game(7, ("-size=12",)), Rng(7), 3000),
    ),
    ("Dragons 50-tile game, finished", "the last board of a default Dragons game", dragons_longest),
    (
        "Dragons 200-tile pool, finished",
        "the last board of the largest Dragons game",
        lambda: play_out(dragons_game(3, ("-tantrix", "-num_tiles=200")), Rng(3)),
    ),
)


def compare(state: GameState, repeat: int) -> tuple[list[tuple[float, float]], list[tuple[float, float]], int, int]:
    """Interleaved (wall, cpu) samples of the baseline and of the new encoder, and both PNG sizes."""
    module = importlib.import_module(f"render.{state.game.name}")
    with baseline_encoder(module):
        old_size = len(render.board_png(state))
    new_size = len(render.board_png(state))
    old, new = [], []
    for _ in range(repeat):
        with baseline_encoder(module):
            old.append(timed(lambda: render.board_png(state)))
        new.append(timed(lambda: render.board_png(state)))
    return old, new, old_size, new_size


def _median_ms(samples: list[tuple[float, float]], index: int) -> float:
    return statistics.median(sample[index] for sample in samples) * 1000


def _picture_rows(quick: bool) -> list[Row]:
    rows = []
    for label, felt, build in POSITIONS:
        old, new, old_size, new_size = compare(build(), 3 if quick else 15)
        old_wall, new_wall = _median_ms(old, 0), _median_ms(new, 0)
        old_cpu, new_cpu = _median_ms(old, 1), _median_ms(new, 1)
        ratio = new_cpu / old_cpu
        note = (
            f"{felt}: draw+encode {new_cpu:.1f} ms CPU ({new_wall:.1f} ms wall), median cut "
            f"{old_cpu:.1f} ms CPU ({old_wall:.1f} ms wall); wall ratio {new_wall / old_wall:.2f}"
        )
        rows.append(
            Row("render", f"{label}: time new/old (CPU)", ratio, "x", "<= 0.5", ratio <= 0.5, "median cut", note)
        )
        size_ratio = new_size / old_size
        note = f"{new_size / 1024:.1f} KB vs {old_size / 1024:.1f} KB"
        rows.append(
            Row("render", f"{label}: PNG size new/old", size_ratio, "x", "<= 1", size_ratio <= 1, "median cut", note)
        )
    return rows


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
