"""The rule for the real-browser tests (tests/browser): skipped, with the reason, where no Chromium is found; failed,
with one clear line, where none is found under CI=true (CI installs one, so a missing one is a broken setup)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: a quick file of browser tests to run (it needs no browser to be collected)
SAMPLE = "tests/browser/test_browser_signin.py"


def run_browser_tests(**env: str) -> subprocess.CompletedProcess[str]:
    """pytest on :data:`SAMPLE` with ``PBM_CHROMIUM`` naming no file, and ``env`` on top."""
    environment = {k: v for k, v in os.environ.items() if k != "CI"}
    environment.update(PYTHONPATH=str(ROOT), PBM_CHROMIUM="/nonexistent/chromium", **env)
    command = [sys.executable, "-m", "pytest", SAMPLE, "-p", "no:cacheprovider", "-rs", "-W", "ignore"]
    return subprocess.run(command, cwd=ROOT, env=environment, capture_output=True, text=True, timeout=120, check=False)


def test_without_a_browser_the_browser_tests_are_skipped_with_the_reason() -> None:
    done = run_browser_tests()
    assert done.returncode == 0, done.stdout[-2000:]
    assert "browser tests skipped: PBM_CHROMIUM names /nonexistent/chromium, which is not a file" in done.stdout, (
        done.stdout[-2000:]
    )
    assert "4 skipped" in done.stdout


def test_under_ci_a_missing_browser_fails_the_run() -> None:
    done = run_browser_tests(CI="true")
    assert done.returncode == 1, done.stdout[-2000:]
    line = "CI=true needs the browser tests to run, but PBM_CHROMIUM names /nonexistent/chromium, which is not a file."
    assert line in done.stdout and "4 errors" in done.stdout, done.stdout[-2000:]
