"""Pure game logic: the rules contract (``rules.base``), one module per game, and the registry."""
