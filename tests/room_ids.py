"""Room ids for tests' servers."""

from __future__ import annotations

import hashlib
import itertools
import os
from collections.abc import Callable, Iterator

_ROOM_IDS: dict[str, Iterator[int]] = {}


def room_ids_for_test() -> Callable[[], str]:
    """Room ids the same from run to run: a fair deal's game seed is bound to its room's id (deals/scheme.py), so a
    test's deals are the same from run to run only if its rooms' ids are. One sequence per test, shared by every
    server the test starts (a restart on the same store makes no id twice)."""
    test = os.environ.get("PYTEST_CURRENT_TEST", "").split(" ")[0]
    counter = _ROOM_IDS.setdefault(test, itertools.count())
    return lambda: hashlib.sha256(f"{test}/{next(counter)}".encode()).hexdigest()[:16]
