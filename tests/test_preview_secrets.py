"""A preview shows the position after a move and nothing the move does not yet decide: in Backgammon the next
player's dice are rolled only when the move is made, so a preview never tells them (it once printed "alice rolled
2-2" before bob had moved, in the console, Discord's preview and the web alike)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cli import main


def pbm(db: Path, command: str, capsys: pytest.CaptureFixture[str]) -> str:
    assert main(["do", "--db", str(db), "--no-images", "--now", "2026-12-01T09:00Z", command]) == 0
    return capsys.readouterr().out


def test_a_backgammon_preview_never_tells_the_next_roll(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "pbm.sqlite3"
    pbm(db, "backgammon challenge alice bob", capsys)
    assert main(["do", "--db", str(db), "--no-images", "--json", "backgammon show 1"]) == 0
    shown = json.loads(capsys.readouterr().out)
    mover, play = shown["to_move"], shown["legal_moves"][0]
    other = "alice" if mover == "bob" else "bob"
    preview = pbm(db, f"backgammon preview 1 {mover} {play}", capsys)
    assert f"{other} rolled" not in preview and f"then {other} rolls" in preview, preview
    made = pbm(db, f"backgammon move 1 {mover} {play}", capsys)
    assert f"{other} rolled" in made  # the dice come when the move is made, and only then
