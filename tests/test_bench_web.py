"""The web benchmark (``python -m bench web``) end to end at a tiny size, on SQLite: a real server process, its
pages, PNGs and event streams read by the bench's own clients, moves through the console's way and through the
web; every request answered, every stream given every move, and rows that say when a target is missed."""

from __future__ import annotations

import copy
from pathlib import Path

from bench.web import TINY, measure, rows

METRICS = [
    f"game page (HTML + SVG), {TINY.viewers} viewers in the same instant, p95",
    f"game page, {TINY.viewers} viewers each asking once a second at random, p95",
    f"game page right after a move, {TINY.viewers} viewers at once, p95",
    f"{TINY.streams:,} event streams: commit to the last one's event, worst of {TINY.stream_rounds}",
    "move through the web: POST to the event in another browser, p95",
]


async def test_a_tiny_web_bench_serves_everything_and_its_rows_can_fail(tmp_path: Path) -> None:
    report = await measure(TINY, tmp_path)
    pages = report.pages
    assert report.server_exit == 0
    assert pages.failures == 0
    assert len(pages.page) == len(pages.png) == len(pages.tiny) == TINY.viewers * TINY.page_rounds
    assert len(pages.moved) == TINY.viewers * TINY.moved_rounds
    # the page went out compressed, much smaller than the PNG of the same board
    assert 0 < report.page_bytes < pages.sizes["png"]
    assert len(report.live.pbm) == len(report.live.bare) == TINY.stream_rounds
    assert all(len(r) == TINY.streams and None not in r for r in report.live.pbm + report.live.bare)
    assert len(report.moves.event) == TINY.web_moves and report.moves.refused == []
    # views are shared: far fewer built than pages served
    assert 0 < report.stats["builds"] < len(pages.page) + len(pages.moved)
    made = rows(TINY, report)
    assert [r.metric for r in made] == METRICS
    assert all(r.value > 0 and r.peer for r in made)
    # generous at this size on a shared machine: the live targets hold
    assert made[3].ok and made[4].ok
    # a stream that never got its event, a page that failed: the rows say so
    lost = copy.deepcopy(report)
    lost.live.pbm[0][0] = None
    failed = copy.deepcopy(report)
    failed.pages.failures = 1
    assert rows(TINY, lost)[3].ok is False and "1 event missing" in rows(TINY, lost)[3].note
    assert not any(r.ok for r in rows(TINY, failed)[:3]) and "1 request failed" in rows(TINY, failed)[0].note
