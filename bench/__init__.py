"""Benchmarks, run on demand with ``python -m bench``; results are appended to BENCHMARKS.md."""
