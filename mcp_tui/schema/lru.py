"""A small thread-safe least-recently-used map, shared by the schema engine's caches.

``parse_cache`` (parsed forms by schema JSON), ``passed`` (answers a validator passed) and
``compiled.ValidatorCache`` (compiled validators by schema JSON, and by form) each keep the last
few entries; a worker thread may validate while the event loop does, so every step holds a lock.
The validator cache also bounds its keys' total size (a compiled copy of a schema is held as
Python objects, several times its JSON size): ``weigh`` and ``budget``.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Lru(Generic[K, V]):
    """At most ``size`` entries; the least recently read or written goes first.

    Given ``weigh`` (a key's cost, e.g. ``len``), also at most ``budget`` in the weights of all
    keys held: entries are dropped, least recently used first, until both bounds hold.
    """

    def __init__(
        self, size: int, *, budget: int | None = None, weigh: Callable[[K], int] | None = None
    ) -> None:
        self.size = size
        self.budget = budget
        self._weigh = weigh
        self._weight = 0
        self._entries: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._entries)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._weight = 0

    def get(self, key: K) -> V | None:
        with self._lock:
            value = self._entries.get(key)
            if value is not None:
                self._entries.move_to_end(key)
            return value

    def put(self, key: K, value: V) -> None:
        weigh = self._weigh
        with self._lock:
            if weigh is not None and key not in self._entries:
                self._weight += weigh(key)
            self._entries[key] = value
            self._entries.move_to_end(key)
            while len(self._entries) > self.size or self._over_budget():
                old, _ = self._entries.popitem(last=False)
                if weigh is not None:
                    self._weight -= weigh(old)

    def _over_budget(self) -> bool:
        return self.budget is not None and self._weight > self.budget
