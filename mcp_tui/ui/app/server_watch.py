"""``--watch PATH``: restart the stdio servers when their files change.

A server author keeps the TUI open on the server they are writing: each save restarts it (a burst
of file events is one restart, ``process/watch.py``), the transcript says which file changed, the
catalog keeps the cursor on the same tool, the "refreshed: ..." line says which tools are new,
gone or changed, and ``a`` calls the last tool again with the same values.

The restart is the ``R`` reconnect (``ServerActions.restart_after_change``), one server after the
other, awaited before the next burst is taken: changes that arrive meanwhile are held by the
watcher and make one more restart after it, never two restarts racing on one server. A URL
server is not restarted (its process is not ours). What mcp-tui writes itself (its logs, the
answers and test files, exports) is never a change (``own``, ``process/watch.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Iterable, Sequence
from pathlib import Path

log = logging.getLogger(__name__)

#: What the watcher calls with each burst of changed files (the sentence's words for them).
Restart = Callable[[str], Awaitable[None]]


class ServerWatch:
    """Watches ``paths`` while the app runs and calls ``restart`` once per burst of changes."""

    def __init__(
        self,
        paths: Sequence[Path],
        restart: Restart,
        failed: Callable[[str], None],
        *,
        own: Iterable[Path | None] = (),
    ) -> None:
        from mcp_tui.process.watch import OwnFiles

        self.paths = tuple(paths)
        #: The files mcp-tui writes: never a restart (the app adds to it as it writes more).
        self.own = OwnFiles(own)
        self._restart = restart
        self._failed = failed
        self._task: asyncio.Task[None] | None = None
        #: The watches are in place: a change from now on is seen (tests wait for it).
        self.armed = False
        #: Bursts handled so far (tests wait on it; the transcript says the rest).
        self.restarts = 0

    def start(self) -> None:
        if self._task is None and self.paths:
            self._task = asyncio.create_task(self._run(), name="watch files")

    async def stop(self) -> None:
        """Stop watching (quitting): a restart under way is left to the closing connections."""
        task, self._task = self._task, None
        if task is None or task.done():
            return
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task

    def _armed(self) -> None:
        self.armed = True

    async def _run(self) -> None:
        from mcp_tui.process.watch import changed_text, watch_files

        try:
            async for files in watch_files(self.paths, armed=self._armed, own=self.own):
                await self._restart(changed_text(files, self.paths))
                self.restarts += 1
        except asyncio.CancelledError:
            raise
        except Exception as error:  # the watcher's thread or the OS refused: say so, go on
            log.warning("watching stopped", exc_info=True)
            self._failed(f"--watch stopped: {type(error).__name__}: {error}")
