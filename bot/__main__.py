"""``python -m bot`` is ``pbm``."""

import sys

from bot.cli import main

sys.exit(main())
