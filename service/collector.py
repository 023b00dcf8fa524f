"""The garbage collector of a long-running server process (`kickoff grpc`, `kickoff gateway`).

CPython frees most objects by reference counting; its cycle collector walks the tracked objects of a generation, and
every room waits while it does. With the collector's defaults those walks set the server's p99 latency: in `kickoff
bench server --rate` at half capacity, seven full walks in 15 s of up to 173 ms each, and middle-generation walks of
up to 30 ms, while the median move took 1.6 ms; with the collector off the same load had a p99 of 10-13 ms. So, once
the process has started:

* what start-up made (modules, classes, the stubs' descriptors: some 100,000 objects) lives as long as the process, so
  it is frozen out of every later walk (``gc.freeze``);
* the middle generation is walked after every 5 walks of the youngest (not 10), so that each of its walks is short;
* the oldest generation is walked after 100 walks of the middle one (not 10; CPython also waits until a quarter more
  objects than survived the last full walk have reached it). A full walk costs about the same however long it waited
  (140-260 ms under the benchmark's load, most of it walking the live rooms), so it now comes every 30-50 s rather
  than every 2-5 s. What waits for it is mostly grpc's own garbage: each call leaves a small reference cycle (its
  method lookup's closure and call details, five objects), some 95,000 objects a minute under that load.

Finished rooms kept in memory drop their updates, and the memory store keeps its log as plain tuples, for the same
reason: fewer objects for each walk. docs/benchmarks.md has the figures.
"""

from __future__ import annotations

import gc

THRESHOLDS = (1_000, 5, 100)  # the youngest generation's allocations, then walks of the one below, per walk


def settle() -> None:
    """Once the process has started: collect what start-up left, freeze the rest, and set the thresholds."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)
