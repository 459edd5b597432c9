"""Persistence on aiosqlite: schema and migrations, games, the move log, players, challenges, settings."""
