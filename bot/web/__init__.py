"""The web front: every game in a browser, live, over the same actions as Discord and the console.

:func:`bot.web.app.create_app` builds the application (pages, the JSON and event streams their scripts read, the
POSTs that act); :mod:`bot.web.serve` serves it alone or beside the bot. Nothing imports this package but the
command line (``pbm run``, ``pbm web``); it imports the actions, the store, the renderers and the rules, never
the Discord front (which learns of web moves through an :class:`bot.web.app.Announcer` the command line wires).
"""
