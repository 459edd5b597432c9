"""Replay GIFs: one frame per move with the move named under the board and its place in the game, the last frame
held longer, one shared palette with the player colours exact, at most about a minute long (issue 27: 200 frames
of 0.9 s ran three minutes), and a size limit met by leaving out moves evenly (then by shrinking), as the result
and every frame say."""

from __future__ import annotations

import io
import itertools

import pytest
from PIL import Image, ImageChops, ImageSequence, ImageStat

from render.backgammon import HIT_MARK, _hit_points, render_image
from render.common import FOREGROUND, PLAYER_COLOURS
from render.palette import SEPARATION
from render.replay import (
    FASTEST_FRAME_MS,
    REPLAY_MS,
    ReplayGif,
    _counters,
    _Strip,
    caption_height,
    frame_ms_for,
    replay_gif,
)
from render.scene import readable
from rules import registry
from rules.base import GameState
from rules.rng import Rng


def recorded(
    name: str, moves: int, seed: int = 3, words: tuple[str, ...] = (), players: int = 2
) -> list[tuple[GameState, str]]:
    """The start and the state after each of ``moves`` seeded random moves, captioned as a replay would be."""
    game = registry.get(name)
    state = game.new(game.parse_options(list(words), players), ["alice", "bob", "carol", "dave"][:players], seed)
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
        strip = frame.crop((0, frame.height - caption_height(frame.width), frame.width, frame.height))
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


def test_a_mark_only_some_moves_show_keeps_its_colour_in_the_replay() -> None:
    """The palette is picked from a sample of the frames; a hit burst shown only on an unsampled frame must still
    be drawn in its own colour, not the nearest colour of the sample."""
    frames = recorded("backgammon", 60, seed=5)
    hit = next(frame for frame in frames if _hit_points(frame[0]))
    quiet = [frame for frame in frames if not _hit_points(frame[0])][:12]
    replay = replay_gif([quiet[0], hit, *quiet[1:]])  # 13 frames: every second one is sampled, the hit is not
    frame = gif_frames(replay)[1][0]
    assert sum(1 for p in frame.get_flattened_data() if near(p, HIT_MARK)) > 150


def strip_error(replay: ReplayGif, index: int, move: str, counter: str) -> int:
    """How many pixels of the caption strip of the replay's ``index``-th frame differ clearly (by more than 60 in
    lightness) from the strip saying ``move`` and ``counter``: none for the same texts, dozens for a digit
    changed."""
    frame = gif_frames(replay)[index][0]
    strip = _Strip(readable(frame.width))
    shown = frame.crop((0, frame.height - strip.height, frame.width, frame.height))
    difference = ImageChops.difference(shown, strip.image(frame.width, move, counter)).convert("L")
    return sum(1 for value in difference.get_flattened_data() if value > 60)


def test_each_frame_says_where_it_stands_in_the_game() -> None:
    frames = recorded("drogo", 5)
    replay = replay_gif(frames)
    assert strip_error(replay, 0, "the start", "start of 5 moves") < 1
    assert strip_error(replay, 3, frames[3][1], "move 3 of 5") < 1
    assert strip_error(replay, 3, frames[3][1], "move 4 of 5") > 20  # the comparison tells texts apart


def test_a_sampled_replay_says_so_on_every_frame() -> None:
    """A long game handed over every fourth position (as the bot samples one of more than 200 moves): every frame
    says which move it shows of how many, and that every 4th is shown."""
    frames = recorded("drogo", 80, players=4)[::4]
    assert [state.ply for state, _ in frames][-1] == 80
    replay = replay_gif(frames)
    assert replay.skipped == () and replay.note == ""
    assert strip_error(replay, 10, frames[10][1], "move 40 of 80 (every 4th move shown)") < 1
    assert strip_error(replay, 0, "the start", "start of 80 moves (every 4th move shown)") < 1


def test_frame_counters_read_plainly() -> None:
    assert _counters([0, 1, 2]) == ["start of 2 moves", "move 1 of 2", "move 2 of 2"]
    assert _counters([0, 1]) == ["start of 1 move", "move 1 of 1"]
    assert _counters([10, 12, 14])[1] == "move 12 of 14 (every 2nd move shown)"
    assert _counters([0, 3, 7, 10])[2] == "move 7 of 10 (about every 3rd move shown)"
    assert _counters([0, 1, 3, 4])[3] == "move 4 of 4 (4 of 5 positions shown)"
    assert _counters([0, 21, 42])[1] == "move 21 of 42 (every 21st move shown)"
    assert _counters([0, 11, 22])[1] == "move 11 of 22 (every 11th move shown)"
    assert _counters([5, 9, 7]) == ["move 5 of 9", "move 9 of 9", "move 7 of 9"]  # out of order: no claim


def test_a_long_replay_lasts_about_a_minute_keeping_the_first_and_last_positions() -> None:
    """200 moves: every one shown, quicker (the bot's most); 300: evenly spread frames, first and last kept, the
    last held longer, the skipped moves said on the frames and in the note."""
    frames = recorded("drogo", 300, seed=7)
    assert len(frames) == 301
    two_hundred = replay_gif(frames[:201])
    assert two_hundred.frames == 201 and two_hundred.skipped == ()
    assert sum(two_hundred.durations) <= REPLAY_MS and two_hundred.durations[-1] == 4000
    assert set(two_hundred.durations[:-1]) == {frame_ms_for(201, 900, 4000)} == {280}
    assert sum(duration for _frame, duration in gif_frames(two_hundred)) == sum(two_hundred.durations)
    long = replay_gif(frames)
    assert sum(long.durations) <= REPLAY_MS and set(long.durations[:-1]) == {FASTEST_FRAME_MS}
    assert long.shown[0] == 0 and long.shown[-1] == 300 and long.frames == len(long.shown) < 301
    assert long.note == f"The replay shows {long.frames} of 301 moves, evenly spaced, to last about a minute."
    assert strip_error(long, 0, "the start", "start of 300 moves") > 20
    shown = [frames[i][0].ply for i in long.shown]
    expected = _counters(shown)
    assert expected[-1] == f"move 300 of 300 ({long.frames} of 301 positions shown)"
    assert strip_error(long, long.frames - 1, frames[300][1], expected[-1]) < 1
    short = replay_gif(frames[:6])
    assert short.durations == (900,) * 5 + (4000,)
