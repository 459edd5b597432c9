"""The web UI from the command line, as a newcomer meets it: ``pbm run`` without a token serves it for the local
user and says how to add the token; ``pbm web`` serves it alone, trusting nobody; ``pbm web-link`` and
``pbm web-logout`` sign a player in and out; bad settings and a taken port are one line."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.fakediscord.pbm import FakeClock
from tests.webtools import serving

ROOT = Path(__file__).resolve().parent.parent
ADDRESS = re.compile(r"^The web UI is at (http://127\.0\.0\.1:\d+) \(Ctrl-C stops it\)\.$")


def environment(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "PBM_"))}
    env.update({"PBM_DATA_DIR": str(tmp_path / "data"), "PBM_WEB_PORT": "0", **extra})
    return env


def pbm(tmp_path: Path, *args: str, **extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=environment(tmp_path, **extra),
        timeout=60,
        check=False,
    )


@contextmanager
def serving_process(tmp_path: Path, *args: str, **extra: str) -> Iterator[tuple[str, list[str]]]:
    """``pbm ARGS`` serving in the background: its address and what it printed before it; stopped with SIGTERM,
    which must end it cleanly (exit 0)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "bot", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=environment(tmp_path, **extra),
    )
    said: list[str] = []
    try:
        assert process.stdout is not None
        for line in process.stdout:  # the address comes within moments; a process that dies ends the loop
            said.append(line.rstrip("\n"))
            found = ADDRESS.match(said[-1])
            if found:
                yield found.group(1), said
                break
        else:
            raise AssertionError(f"no address printed: {said} {process.stderr.read() if process.stderr else ''}")
    finally:
        process.send_signal(signal.SIGTERM)
        code = process.wait(timeout=30)
    assert code == 0, process.stderr.read() if process.stderr else ""


def fetch(url: str) -> str:
    with urllib.request.urlopen(url, timeout=10) as answer:
        return answer.read().decode()


def test_pbm_run_without_a_token_serves_the_web_ui_for_the_local_user(tmp_path: Path) -> None:
    with serving_process(tmp_path, "run") as (address, said):
        lobby = fetch(f"{address}/")
    assert said[:3] == [
        "No Discord token: set DISCORD_TOKEN (or pass --token) to run the bot.",
        "Meanwhile the web UI serves the games on this machine, without Discord: whoever opens it here plays as the",
        'name they type. The console works too: pbm console   (or one command: pbm do "druid help")',
    ]
    assert said[3] == f"Games are kept in {tmp_path / 'data' / 'pbm.sqlite3'}."
    assert '<label for="play-as">Play as</label>' in lobby
    assert (tmp_path / "data" / "pbm.sqlite3").exists()


def test_pbm_web_serves_without_trusting_anyone(tmp_path: Path) -> None:
    db = tmp_path / "pbm.sqlite3"
    assert pbm(tmp_path, "do", "--no-images", "--db", str(db), "druid challenge -size=5 alice bob").returncode == 0
    with serving_process(tmp_path, "web", "--db", str(db)) as (address, said):
        lobby = fetch(f"{address}/")
        game = fetch(f"{address}/g/1")
    assert said == [f"Games are kept in {db}.", f"The web UI is at {address} (Ctrl-C stops it)."]
    assert "Play as" not in lobby and '<a href="/signin">Sign in</a>' in lobby
    assert "Druid 1: alice to move (move 1)" in game


async def test_web_link_and_web_logout(tmp_path: Path) -> None:
    db = tmp_path / "pbm.sqlite3"
    local = pbm(tmp_path, "web-link", "alice", "--db", str(db), PBM_WEB_PORT="8080")
    public = pbm(tmp_path, "web-link", "alice", "--db", str(db), PBM_WEB_PUBLIC_URL="https://pbm.example.org/")
    assert local.returncode == 0 and local.stdout.startswith(
        "Sign-in link for alice (works once, for 15 minutes): http://127.0.0.1:8080/signin/link/"
    )
    assert public.returncode == 0 and "https://pbm.example.org/signin/link/" in public.stdout
    path = "/signin/link/" + local.stdout.strip().rsplit("/", 1)[1]
    async with serving(db, clock=FakeClock()) as site, site.browser() as browser:
        await browser.get(path)
        assert (await browser.post(path)).status == 303
        assert "Sign out" in (await browser.get("/")).text
        out = pbm(tmp_path, "web-logout", "alice", "--db", str(db))
        assert "Sign out" not in (await browser.get("/")).text
    assert out.returncode == 0 and out.stdout == "alice is signed out of the web UI (1 session ended)\n"
    again = pbm(tmp_path, "web-logout", "alice", "--db", str(db))
    assert again.stdout == "alice is signed out of the web UI (0 sessions ended)\n"


def test_a_name_that_cannot_sign_in_is_one_line(tmp_path: Path) -> None:
    for name, said in (
        ("ai:1", "pbm: ai:1 is a computer player: only people sign in\n"),
        ("a b", "pbm: 'a b' cannot be a player name: use 1 to 32 letters, digits, '_', '.' or '-'\n"),
    ):
        done = pbm(tmp_path, "web-link", name, "--db", str(tmp_path / "pbm.sqlite3"))
        assert done.returncode == 1 and done.stderr == said and done.stdout == ""


def test_bad_web_settings_are_one_line(tmp_path: Path) -> None:
    for setting, value, said in (
        ("PBM_WEB_PORT", "x", "pbm: PBM_WEB_PORT must be a port number from 1 to 65535 (0: any free one), not 'x'"),
        (
            "PBM_WEB_PUBLIC_URL",
            "pbm.example.org/games",
            "pbm: PBM_WEB_PUBLIC_URL must be an http:// or https:// address without a path, like"
            " https://pbm.example.org, not 'pbm.example.org/games'",
        ),
    ):
        for command in ("run", "web"):
            done = pbm(tmp_path, command, "--db", str(tmp_path / "pbm.sqlite3"), **{setting: value})
            assert done.returncode == 2 and done.stderr == said + "\n", (command, done.stderr)


def test_a_taken_port_is_one_line(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = pbm(tmp_path, "web", "--db", str(tmp_path / "pbm.sqlite3"), PBM_WEB_PORT=str(port))
    assert done.returncode == 2
    assert done.stderr == f"pbm: the web UI cannot listen at 127.0.0.1:{port} (address already in use)\n"
