"""Shared test fixtures. Tests use real SQLite files in a temporary directory; nothing of ours is mocked."""
