"""Bounded, batched buffering of session events between the connections and the widgets.

A server may send a thousand log notifications a second. The session sink therefore does O(1)
work per event (append to a bounded deque, overwrite a dict slot) and a timer drains everything
into one :class:`Batch` every few dozen milliseconds, so widgets are touched once per frame, never
once per message. When a buffer is full the oldest entries are dropped and counted, so the user
sees "N lines dropped" instead of the UI falling behind.

Pure Python (no Textual), so it is tested directly.
"""

from __future__ import annotations

from collections import deque

from msgspec import Struct, field

from mcp_tui.session.events import (
    CatalogChanged,
    ElicitationCompleted,
    ElicitationPauseChanged,
    ElicitationRefused,
    LogReceived,
    Notice,
    ProgressReceived,
    ResourceUpdated,
    ServerStateChanged,
    SessionEvent,
    StderrReceived,
    TrafficRecorded,
)

LogLine = LogReceived | StderrReceived
NoteEvent = ElicitationRefused | ElicitationCompleted | ResourceUpdated | Notice


class Batch(Struct):
    """Everything that arrived since the last drain, ready to be shown at once."""

    #: Every state change in arrival order (few: they matter individually, e.g. "failed: why").
    states: list[ServerStateChanged] = field(default_factory=list)
    #: Catalogs per server, merged (a newer list of the same kind replaces an older one).
    catalogs: dict[str, CatalogChanged] = field(default_factory=dict)
    logs: list[LogLine] = field(default_factory=list)
    logs_dropped: int = 0
    traffic: list[TrafficRecorded] = field(default_factory=list)
    traffic_dropped: int = 0
    #: The latest progress per call id (older updates of the same call are superseded).
    progress: dict[int, ProgressReceived] = field(default_factory=dict)
    notes: list[NoteEvent] = field(default_factory=list)
    notes_dropped: int = 0
    #: "Stop asking" changes, in order (the rate limit may pause a server on its own).
    pauses: list[ElicitationPauseChanged] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(
            self.states
            or self.catalogs
            or self.logs
            or self.logs_dropped
            or self.traffic
            or self.traffic_dropped
            or self.progress
            or self.notes
            or self.notes_dropped
            or self.pauses
        )


def _merge_catalog(old: CatalogChanged, new: CatalogChanged) -> CatalogChanged:
    return CatalogChanged(
        server=new.server,
        tools=new.tools if new.tools is not None else old.tools,
        prompts=new.prompts if new.prompts is not None else old.prompts,
        resources=new.resources if new.resources is not None else old.resources,
        full=old.full or new.full,
    )


class EventBuffer:
    """Collects session events cheaply; :meth:`drain` hands them over as one :class:`Batch`."""

    def __init__(
        self,
        *,
        log_limit: int = 2000,
        traffic_limit: int = 1000,
        note_limit: int = 200,
        state_limit: int = 200,
    ) -> None:
        self._states: deque[ServerStateChanged] = deque(maxlen=state_limit)
        self._catalogs: dict[str, CatalogChanged] = {}
        self._logs: deque[LogLine] = deque(maxlen=log_limit)
        self._logs_dropped = 0
        self._traffic: deque[TrafficRecorded] = deque(maxlen=traffic_limit)
        self._traffic_dropped = 0
        self._progress: dict[int, ProgressReceived] = {}
        self._notes: deque[NoteEvent] = deque(maxlen=note_limit)
        self._notes_dropped = 0
        self._pauses: list[ElicitationPauseChanged] = []
        self._pending = False

    @property
    def pending(self) -> bool:
        """True when something arrived since the last :meth:`drain`."""
        return self._pending

    def add(self, event: SessionEvent) -> None:
        """Record one event; constant time, never touches a widget."""
        self._pending = True
        if isinstance(event, (LogReceived, StderrReceived)):
            if len(self._logs) == self._logs.maxlen:
                self._logs_dropped += 1
            self._logs.append(event)
        elif isinstance(event, TrafficRecorded):
            if len(self._traffic) == self._traffic.maxlen:
                self._traffic_dropped += 1
            self._traffic.append(event)
        elif isinstance(event, ProgressReceived):
            self._progress[event.call_id] = event
        elif isinstance(event, ServerStateChanged):
            self._states.append(event)
        elif isinstance(event, CatalogChanged):
            old = self._catalogs.get(event.server)
            self._catalogs[event.server] = event if old is None else _merge_catalog(old, event)
        elif isinstance(event, ElicitationPauseChanged):
            if len(self._pauses) >= 100:  # only the latest matters; keep the list short
                del self._pauses[0]
            self._pauses.append(event)
        else:
            if len(self._notes) == self._notes.maxlen:
                self._notes_dropped += 1
            self._notes.append(event)

    def drain(self) -> Batch:
        """Hand over everything buffered and start empty again."""
        batch = Batch(
            states=list(self._states),
            catalogs=self._catalogs,
            logs=list(self._logs),
            logs_dropped=self._logs_dropped,
            traffic=list(self._traffic),
            traffic_dropped=self._traffic_dropped,
            progress=self._progress,
            notes=list(self._notes),
            notes_dropped=self._notes_dropped,
            pauses=self._pauses,
        )
        self._states.clear()
        self._catalogs = {}
        self._logs.clear()
        self._logs_dropped = 0
        self._traffic.clear()
        self._traffic_dropped = 0
        self._progress = {}
        self._notes.clear()
        self._notes_dropped = 0
        self._pauses = []
        self._pending = False
        return batch
