"""Screenshots of the web UI's pages, to look at them: every kind of page at 360 px (a phone) and 1280 px (a
desktop), in light and dark, as a visitor and as the player to move.

    PYTHONPATH=. python -m tests.browser.shots [OUT_DIR [PAGE ...]]     (default: /tmp/pbm-shots, every page)
    PYTHONPATH=. python -m tests.browser.shots --readme                 (docs/web-game.png, shown by the README)

The pages come from a temporary database with a game of each kind under way (the same games the accessibility
test reads), served as the browser tests serve them; the PNGs are named ``<page>-<width>-<scheme>.png``.
"""

from __future__ import annotations

import contextlib
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tests.browser.live import SIZES, BackgroundLoop, Chromium, LiveSite, missing_browser, sample_games
from tests.webtools import serving

#: moves that would end a game or stop it on a question (the pictures show games under way)
AVOIDED = ("resign", "double", "drop", "manual", "auto")
#: the README's picture: a Backgammon game under way on a desktop, in light (the browser's window, not the page)
README_SHOT = Path(__file__).resolve().parents[2] / "docs" / "web-game.png"


def play_some(site: LiveSite, game_id: int, moves: int) -> None:
    """Play ``moves`` legal moves of game ``game_id``, picked evenly through the legal list (not the first, so
    the board looks like a game rather than a corner)."""
    for number in range(moves):
        legal = site.run(site.actions.moves(game_id, limit=None))
        choices = [m for m in legal.legal_moves if m.split()[0] not in AVOIDED] or legal.legal_moves
        move = choices[(number * 7 + len(choices) // 2) % len(choices)]
        assert site.run(site.actions.move(game_id, legal.to_move, move)).ok, move


def pages(ids: dict[str, int]) -> list[tuple[str, str, bool]]:
    """(name, path, as the player to move) of every page photographed."""
    druid = ids["druid"]
    return [
        ("lobby", "/", False),
        ("lobby-signed-in", "/", True),
        ("game-druid", f"/g/{druid}", True),
        ("game-druid-viewer", f"/g/{druid}", False),
        ("game-druid-3d", f"/g/{druid}?view=3d", False),
        ("game-backgammon", f"/g/{ids['backgammon']}", False),
        ("game-dragons", f"/g/{ids['dragons']}", False),
        ("game-drogo", f"/g/{ids['drogo']}", False),
        ("game-finished", f"/g/{ids['finished']}", False),
        ("replay", f"/g/{druid}/replay?at=2", False),
        ("ratings", "/ratings/druid", False),
        ("profile", "/u/alice", False),
        ("help", "/help/druid", False),
        ("settings", "/settings", True),
        ("signin", "/signin", False),
        ("refusal", "/g/999", False),
    ]


@contextlib.contextmanager
def sample_site() -> Iterator[tuple[LiveSite, dict[str, int]]]:
    """The web UI on a temporary database with the sample games, a few more moves made in each."""
    background = BackgroundLoop()
    stack = contextlib.AsyncExitStack()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "pbm.sqlite3"
        site = LiveSite(background, background.run(stack.enter_async_context(serving(db, live=True))), db)
        try:
            ids = sample_games(site)
            for name, moves in (("backgammon", 9), ("dragons", 6), ("drogo", 6)):
                play_some(site, ids[name], moves)
            yield site, ids
        finally:
            background.run(stack.aclose())
            background.close()


def shoot(out: Path, only: list[str] | None = None) -> list[Path]:
    """Save the screenshots of every page (or of those named in ``only``) in ``out``; the files written."""
    out.mkdir(parents=True, exist_ok=True)
    chromium = Chromium()
    written: list[Path] = []
    with sample_site() as (site, ids):
        player = site.run(site.actions.players_of(ids["druid"]))[1]  # bob is to move in the Druid game
        try:
            for viewport in SIZES.values():
                for scheme in ("light", "dark"):
                    written += _shoot_all(site, chromium.browser(), ids, player, out, viewport, scheme, only)
        finally:
            chromium.stop()
    return written


def shoot_readme(target: Path = README_SHOT) -> Path:
    """The README's picture (:data:`README_SHOT`)."""
    chromium = Chromium()
    with sample_site() as (site, ids):
        try:
            context = chromium.browser().new_context(viewport=SIZES["desktop"], color_scheme="light")
            tab = context.new_page()
            tab.goto(site.url(f"/g/{ids['backgammon']}"))
            tab.wait_for_load_state("networkidle")
            tab.screenshot(path=str(target))
            context.close()
        finally:
            chromium.stop()
    return target


def _shoot_all(
    site: LiveSite,
    browser: Any,
    ids: dict[str, int],
    player: str,
    out: Path,
    viewport: dict[str, int],
    scheme: str,
    only: list[str] | None,
) -> list[Path]:
    """One size and scheme: a visitor's and the player's pages."""
    contexts = {signed_in: browser.new_context(viewport=viewport, color_scheme=scheme) for signed_in in (False, True)}
    tabs = {signed_in: context.new_page() for signed_in, context in contexts.items()}
    site.sign_in(tabs[True], player)
    written = []
    for name, path, signed_in in pages(ids):
        if only and name not in only:
            continue
        tab = tabs[signed_in]
        tab.goto(site.url(path))
        tab.wait_for_load_state("networkidle") if "replay" not in path else tab.locator("#play").wait_for()
        target = out / f"{name}-{viewport['width']}-{scheme}.png"
        tab.screenshot(path=str(target), full_page=True)
        written.append(target)
    for context in contexts.values():
        context.close()
    return written


def main(argv: list[str]) -> int:
    reason = missing_browser()
    if reason is not None:
        print(f"shots: {reason}", file=sys.stderr)
        return 2
    if argv == ["--readme"]:
        print(f"wrote {shoot_readme()}")
        return 0
    out = Path(argv[0]) if argv else Path("/tmp/pbm-shots")
    written = shoot(out, argv[1:] or None)
    print(f"{len(written)} screenshots in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
