"""The garbage collector of a long-running server process (`kickoff grpc`, `kickoff gateway`).

CPython frees most objects by reference counting; its cycle collector walks the tracked objects of a generation, and
every room waits while it does. A full walk (the oldest generation) costs time in proportion to everything alive, and
with the collector's defaults it came often enough to set the server's p99 latency: in `kickoff bench server --rate`
at half capacity, seven full walks in 15 s of up to 173 ms each, while the median move took 1.6 ms. Two settings, once
the process has started:

* what start-up made (modules, classes, the stubs' descriptors: some 100,000 objects) lives as long as the process, so
  it is frozen out of every later walk (``gc.freeze``);
* the youngest generation is walked after 2,000 net allocations rather than 700, so that a move's short-lived objects
  are mostly freed by their reference counts before a walk and fewer reach the older generations.

Finished rooms kept in memory drop their updates for the same reason (Room.forget_updates). The README's benchmark
section has the figures before and after.
"""

from __future__ import annotations

import gc

YOUNG_THRESHOLD = 2_000  # net allocations of tracked objects between two walks of the youngest generation


def settle() -> None:
    """Once the process has started: collect what start-up left, freeze the rest, and set the thresholds."""
    gc.collect()
    gc.freeze()
    _, middle, oldest = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, middle, oldest)
