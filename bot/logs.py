"""The bot's log lines: one line per event wherever they go, so a service's journal or a log collector keeps each
event whole.

* ``text`` (the default): ``[2026-12-01 09:00:00] [INFO    ] pbm.discord: ...``; a traceback, or a message with
  line breaks in it, stays on its line, each break written ``\\n``.
* ``json`` (``PBM_LOG_FORMAT=json``): one JSON object per line, with ``time`` (UTC, ISO 8601 with milliseconds),
  ``level``, ``logger``, ``message`` and, after a failure, ``exception`` (the traceback).

On a terminal the text format is discord.py's coloured one instead, tracebacks on lines of their own, for a person
watching (see :func:`bot.discord.client.setup_logging`)."""

from __future__ import annotations

import datetime
import json
import logging

TEXT_FORMAT = "[{asctime}] [{levelname:<8}] {name}: {message}"
TIME_FORMAT = "%Y-%m-%d %H:%M:%S"


def one_line(text: str) -> str:
    """``text`` with its line breaks written ``\\n`` (and carriage returns ``\\r``)."""
    return text.replace("\r", "\\r").replace("\n", "\\n")


class OneLineFormatter(logging.Formatter):
    """The text format, every event on one line (its traceback too)."""

    def __init__(self) -> None:
        super().__init__(TEXT_FORMAT, TIME_FORMAT, style="{")

    def format(self, record: logging.LogRecord) -> str:
        return one_line(super().format(record))


class JsonFormatter(logging.Formatter):
    """One JSON object per event, on one line."""

    def format(self, record: logging.LogRecord) -> str:
        moment = datetime.datetime.fromtimestamp(record.created, datetime.UTC)
        event = {
            "time": moment.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            event["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            event["exception"] = record.exc_text
        if record.stack_info:
            event["stack"] = self.formatStack(record.stack_info)
        return json.dumps(event, ensure_ascii=False)


def formatter(kind: str) -> logging.Formatter:
    """The formatter of a ``PBM_LOG_FORMAT`` (``text`` or ``json``) for a stream that is not a terminal."""
    return JsonFormatter() if kind == "json" else OneLineFormatter()
