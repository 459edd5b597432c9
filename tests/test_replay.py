"""Replay GIFs: one frame per move with the move named under the board, the last frame held longer, one shared
palette with the player colours exact, and a size limit met by leaving out moves evenly (then by shrinking), as
the result says."""

from __future__ import annotations

import io
import itertools

import pytest
from PIL import Image, ImageChops, ImageSequence, ImageStat

from render.backgammon import render_image
from render.common import FOREGROUND, PLAYER_COLOURS
from render.palette import SEPARATION
from render.replay import CAPTION_H, ReplayGif, replay_gif
from rules import registry
from rules.base import GameState
from rules.rng import Rng


def recorded(name: str, moves: int, seed: int = 3, words: tuple[str, ...] = ()) -> list[tuple[GameState, str]]:
    """The start and the state after each of ``moves`` seeded random moves, captioned as a replay would be."""
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


def near(pixel: tuple[int, ...], colour: tuple[int, int, int]) -> bool:
    """Within a palette step (render.palette.SEPARATION) of ``colour``."""
    return max(abs(a - b) for a, b in zip(pixel, colour, strict=True)) < SEPARATION


def gif_frames(replay: ReplayGif) -> list[tuple[Image.Image, int]]:
    image = Image.open(io.BytesIO(replay.data))
    assert image.format == "GIF"
    return [(frame.convert("RGB"), frame.info["duration"]) for frame in ImageSequence.Iterator(image)]


@pytest.mark.parametrize(("name", "words"), [("backgammon", ()), ("dragons", ("-tantrix", "-num_tiles=200"))])
def test_one_frame_per_move_each_named_and_the_last_held_longer(name: str, words: tuple[str, ...]) -> None:
    frames = recorded(name, 6, words=words)
    replay = replay_gif(frames, frame_ms=700, last_frame_ms=3000)
    decoded = gif_frames(replay)
    assert replay.frames == len(decoded) == len(frames) == 7
    assert replay.skipped == () and replay.scale == 1.0 and replay.note == ""
    assert [duration for _frame, duration in decoded] == [700] * 6 + [3000] == list(replay.durations)
    captions = []
    for frame, _duration in decoded:
        strip = frame.crop((0, frame.height - CAPTION_H, frame.width, frame.height))
        text = [p for p in strip.get_flattened_data() if near(p, FOREGROUND)]
        assert len(text) > 80  # the move (or "the start"), in the text colour
        captions.append(strip.tobytes())
    assert len(set(captions)) == len(captions)  # every frame names its own move


def test_frames_share_one_palette_with_the_player_colours_exact() -> None:
    replay = replay_gif(recorded("dragons", 5, words=("-tantrix", "-num_tiles=200")))
    image = Image.open(io.BytesIO(replay.data))
    palettes = {bytes(frame.getpalette() or []) for frame in ImageSequence.Iterator(image)}
    assert len(palettes - {b""}) == 1  # frames without a palette of their own use the global one
    last = gif_frames(replay)[-1][0]
    for seat in range(2):
        assert sum(1 for p in last.get_flattened_data() if p == PLAYER_COLOURS[seat][0]) > 500


def test_an_oversized_replay_leaves_out_moves_evenly_and_says_so() -> None:
    frames = recorded("backgammon", 24)
    full = replay_gif(frames)
    limit = len(full.data) * 55 // 100
    replay = replay_gif(frames, frame_ms=500, last_frame_ms=2500, max_bytes=limit)
    assert len(replay.data) <= limit
    assert replay.scale == 1.0 and 2 < replay.frames < len(frames)
    shown = replay.shown
    assert shown[0] == 0 and shown[-1] == len(frames) - 1
    gaps = [b - a for a, b in itertools.pairwise(shown)]
    assert max(gaps) - min(gaps) <= 1  # evenly spread
    assert sorted(shown + replay.skipped) == list(range(len(frames)))
    assert len(gif_frames(replay)) == replay.frames and replay.durations[-1] == 2500
    assert f"shows {replay.frames} of {len(frames)} moves" in replay.note


def test_a_tiny_limit_shrinks_the_pictures_and_an_impossible_one_is_refused() -> None:
    frames = recorded("backgammon", 4)
    full = replay_gif(frames)
    first = gif_frames(full)[0][0]
    limit = len(replay_gif([frames[0], frames[-1]]).data) * 7 // 10  # not even the first and last frames fit
    replay = replay_gif(frames, max_bytes=limit)
    assert len(replay.data) <= limit and replay.scale < 1.0 and replay.frames == 2
    small = gif_frames(replay)[0][0]
    assert small.width < first.width and small.height < first.height
    assert "drawn at" in replay.note and "shows 2 of 5 moves" in replay.note
    with pytest.raises(ValueError, match="does not fit"):
        replay_gif(frames, max_bytes=2000)
    with pytest.raises(ValueError, match="at least one frame"):
        replay_gif([])


def test_every_frame_decodes_to_its_own_board() -> None:
    """Frames are stored as changes over the frame before; decoded, each must still be its position's board."""
    frames = recorded("backgammon", 8)
    decoded = gif_frames(replay_gif(frames))
    for (frame, _duration), (state, _caption) in zip(decoded, frames, strict=True):
        board = render_image(state)
        shown = frame.crop((0, 0, board.width, board.height))
        error = ImageStat.Stat(ImageChops.difference(shown, board)).mean
        assert max(error) < 1.5, error
