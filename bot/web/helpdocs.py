"""A game's rules page (``docs/<game>.md``) as HTML, with markdown-it-py: CommonMark and tables, raw HTML in the
text escaped (never passed through), tables and code blocks focusable (they scroll on a phone), links checked by
markdown-it's own rule (no ``javascript:``), a link to another game's page turned into its ``/help/<game>`` page,
any other relative link into plain text (those pages are not served), and outside links opened without handing
them this page. Rendered once per game and kept.

Where pbm was installed without its ``docs`` folder, the page is the game's help text (``<game> help``), escaped."""

from __future__ import annotations

import functools
import html
from pathlib import Path
from typing import Any

from markdown_it import MarkdownIt

from rules import registry

DOCS = Path(__file__).resolve().parents[2] / "docs"


def _markdown() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False}).enable("table")
    md.core.ruler.push("pbm_links", _rewrite_links)
    md.core.ruler.push("pbm_scrolling", _focusable_scrolling)
    return md


#: the blocks that scroll sideways on a narrow screen (wide tables, diagrams in code blocks)
SCROLLING_BLOCKS = ("table_open", "fence", "code_block")


def _focusable_scrolling(state: Any) -> None:
    """Tables and code blocks scroll sideways on a phone: each takes the keyboard's focus (``tabindex="0"``), so
    someone without a mouse or touch can scroll them with the arrow keys too."""
    for token in state.tokens:
        if token.type in SCROLLING_BLOCKS:
            token.attrSet("tabindex", "0")


def _rewrite_links(state: Any) -> None:
    """Links to another game's page go to its web page; other relative links become their text; outside links
    get ``rel="noopener noreferrer"``."""
    games = set(registry.names())
    for block in state.tokens:
        for token in block.children or ():
            if token.type != "link_open":
                continue
            href = str(token.attrGet("href") or "")
            target = href.split("#", 1)[0]
            if target.endswith(".md") and "/" not in target and target[:-3] in games:
                token.attrSet("href", f"/help/{target[:-3]}")
            elif href.startswith(("http://", "https://")):
                token.attrSet("rel", "noopener noreferrer")
            elif not href.startswith("#"):
                token.attrSet("href", "")
                token.attrSet("data-offsite", "no")
        if block.children:
            block.children = _unlink_empty(block.children)


def _unlink_empty(children: list[Any]) -> list[Any]:
    """Drop the link tags of links made empty above (their text stays)."""
    out, dropping = [], 0
    for token in children:
        if token.type == "link_open" and token.attrGet("data-offsite") == "no":
            dropping += 1
            continue
        if token.type == "link_close" and dropping:
            dropping -= 1
            continue
        out.append(token)
    return out


@functools.cache
def rules_html(game_name: str) -> str:
    """The game's rules page as HTML (the caller checked the name is a game's)."""
    path = DOCS / f"{game_name}.md"
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return _from_help(game_name)
    return _markdown().render(text)


def _from_help(game_name: str) -> str:
    game = registry.get(game_name)
    parts = [f"<h1>{html.escape(game.title)}</h1>", f"<p>{html.escape(game.summary)}</p>"]
    parts += [f"<p>{html.escape(paragraph)}</p>" for paragraph in game.help.split("\n\n")]
    parts.append(f"<h2>Moves</h2><p>{html.escape(game.notation)}</p>")
    return "\n".join(parts)
