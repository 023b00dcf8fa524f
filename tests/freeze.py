"""The relay the tests freeze, reset and refuse (benchmarks/relay.py: `kickoff bench nemesis` cuts its nodes with it
too)."""

from benchmarks.relay import Freezer

__all__ = ["Freezer"]
