"""Correspondence play: clocks, quiet hours, vacation, proposals and conditional moves."""
