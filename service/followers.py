"""The streams a node serves that follow something by key: a matchmaking ticket (service/matches), a player's inbox
(service/inbox), a player's friends' presence (service/presence). Each watch keeps its own followers here, bounded,
and reads the store for the keys followed; this holds only who follows what."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Generic, TypeVar

from service.errors import ResourceExhausted

F = TypeVar("F")


class Followers(Generic[F]):
    """The followers of each key, at most ``limit`` in all (past it, ResourceExhausted too_many_followers, whose
    message says ``what`` is followed). ``make``: a new follower of a key; ``left``: called when a key's last follower
    goes (the watch forgets what it read for it)."""

    def __init__(
        self, limit: int, what: str, make: Callable[[str], F], left: Callable[[str], None] = lambda key: None
    ) -> None:
        self.limit = limit
        self.what = what
        self._make = make
        self._left = left
        self._by_key: dict[str, set[F]] = {}
        self.count = 0  # followers now

    def __iter__(self) -> Iterator[str]:
        return iter(self._by_key)

    def __contains__(self, key: object) -> bool:
        return key in self._by_key

    def of(self, key: str) -> set[F] | tuple[()]:
        """The followers of ``key`` (none: an empty tuple)."""
        return self._by_key.get(key, ())

    @contextlib.contextmanager
    def follow(self, key: str) -> Iterator[F]:
        if self.count >= self.limit:
            raise ResourceExhausted(
                f"this node serves as many {self.what} as it may ({self.limit}); try again later",
                code="too_many_followers",
                retry_after=5.0,
            )
        follower = self._make(key)
        self._by_key.setdefault(key, set()).add(follower)
        self.count += 1
        try:
            yield follower
        finally:
            self.count -= 1
            followers = self._by_key.get(key)
            if followers is not None:
                followers.discard(follower)
                if not followers:
                    del self._by_key[key]
                    self._left(key)
