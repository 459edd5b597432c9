"""``python -m bot`` is ``pbm``."""

import sys

from bot.cli import entry

sys.exit(entry())
