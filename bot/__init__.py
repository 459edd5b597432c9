"""Actions (transport-free), the console front and the Discord front. Importing this package imports nothing of
Discord: the Discord front lives in ``bot.discord`` and is loaded only by ``pbm run`` and ``pbm sync``."""
