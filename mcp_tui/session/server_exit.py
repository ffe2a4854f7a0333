"""Words for a server that failed: how its process ended, and the exception its stderr names.

A crashed stdio server is reported with its exit status ("exited with status 3", "was killed by
signal 9 (SIGKILL)") and with the stderr it wrote since the call started, never a line from an
earlier call that reads as the cause. A call that failed while the server wrote a traceback
names the exception line (the SDKs answer with a wrapper such as "Error executing tool boom" and
leave the cause on stderr). :class:`ServerEnd` keeps what those words are made of for one
connection. No ``mcp``, no Textual.
"""

from __future__ import annotations

import re
import signal
from collections.abc import Sequence
from typing import TYPE_CHECKING

from msgspec.structs import replace

from mcp_tui.session.events import CallOutcome

if TYPE_CHECKING:
    from mcp_tui.session.link import ConnectionLink

#: The SDK's code for a request whose connection closed under it. It is also the first code of
#: JSON-RPC's server-error range, which any server may send for an error of its own.
CONNECTION_CLOSED = -32000
#: A request the connection's own end cancelled, before how the server ended is known.
INTERRUPTED = "-32000 (connection closed): the connection ended during the call"

#: Characters around a line of a traceback drawn by Rich (the SDK's server logging): box edges,
#: and the timestamp and level column of its first line.
_FRAME = " \t│╭╮╰╯─❱"
#: An exception line: a (dotted) class name ending in Error/Exception/... and a message.
_EXCEPTION = re.compile(
    r"^(?:[A-Za-z_][\w]*\.)*[A-Za-z_]\w*(?:Error|Exception|Exit|Interrupt|Fault)\b(?::\s*\S.*)?$"
)


def describe_exit(returncode: int | None) -> str | None:
    """ "exited with status 3" / "was killed by signal 9 (SIGKILL)"; ``None`` when unknown."""
    if returncode is None:
        return None
    if returncode < 0:
        number = -returncode
        try:
            name = f" ({signal.Signals(number).name})"
        except ValueError:
            name = ""
        return f"was killed by signal {number}{name}"
    return f"exited with status {returncode}"


def exception_line(lines: Sequence[str]) -> str | None:
    """The first line of ``lines`` that names an exception ("ValueError: the boom went off"):
    with chained exceptions the first is the cause, the last the SDK's wrapper.

    A server's logging may have wrapped it: Rich (the SDKs' handler) writes a long exception
    line in its message column over several lines, each indented to that column, so the first
    alone read "ValueError: the booking service". The lines that follow at the same indent, up
    to a blank or a framed line, are its rest and are joined to it. An exception line at the
    start of the line (a plain traceback) is whole: what follows it is something else."""
    for index, line in enumerate(lines):
        text = line.strip(_FRAME)
        if not _EXCEPTION.match(text):
            continue
        indent = _indent(line)
        if indent == 0:
            return text
        parts = [text]
        for following in lines[index + 1 :]:
            rest = following.strip()
            if not rest or _indent(following) != indent or following.lstrip()[:1] in _FRAME:
                break
            if rest.startswith(("The above exception", "During handling")):
                break
            parts.append(rest)
        return " ".join(parts)
    return None


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def stderr_summary(lines: Sequence[str], count: int = 3) -> str:
    """What explains a failure from its stderr: the exception line, else the last lines."""
    found = exception_line(lines)
    if found is not None:
        return found
    kept = [line.strip() for line in lines if line.strip()]
    return " | ".join(kept[-count:])


def ended_under(outcome: CallOutcome) -> bool:
    """Whether the session says ``outcome``'s request ended because its connection did: marked
    ``connection_lost`` by :meth:`ServerEnd.explained` (naming how the server ended), or cancelled
    by the connection's own end (:data:`INTERRUPTED`). A -32000 the server sent is an answer."""
    return outcome.connection_lost or (
        outcome.error_code == CONNECTION_CLOSED and outcome.error == INTERRUPTED
    )


class ServerEnd:
    """How the server ended, told the same way by a failed request and by the connection's
    failure message: a part ``ServerConnection`` owns (``connection.ended``) and hands to its
    requests (``requests.py``). ``stderr`` and ``stream_closed`` read the connection's capture
    (stdio only) and whether the server closed its side of the stream; the transport reports the
    process's end to :meth:`exited`."""

    def __init__(self, link: ConnectionLink) -> None:
        self._link = link
        #: How the stdio server's process ended (``returncode``: negative for a signal), once known.
        self.exit_status: int | None = None
        #: ``StderrCapture.count`` when the last request started: what it wrote since is quoted.
        self._stderr_mark: int | None = None

    def exited(self, returncode: int) -> None:
        """The transport's ``on_exit``: the server process ended with ``returncode``."""
        self.exit_status = returncode

    def mark_stderr(self) -> int | None:
        """Note where the server's stderr stands as a request starts (stdio only)."""
        capture = self._link.stderr
        if capture is None:
            return None
        self._stderr_mark = capture.count
        return self._stderr_mark

    def _stderr_since(self, mark: int | None) -> list[str]:
        """The stderr lines written since ``mark`` (``None``: the last lines)."""
        capture = self._link.stderr
        if capture is None:
            return []
        return capture.since(mark) if mark is not None else list(capture.tail)

    def stderr_note(self) -> str:
        """For a failure: the stderr written since the last request started (earlier lines,
        from another call, would read as the cause), or the last lines if none was made."""
        lines = self._stderr_since(self._stderr_mark)
        if not lines:
            return ""
        said = stderr_summary(lines)
        if self._stderr_mark is None:
            return f" Last stderr: {said}"
        return f" Its stderr since the last request started: {said}"

    def explained(
        self, outcome: CallOutcome, mark: int | None, what: str = "request"
    ) -> CallOutcome:
        """``outcome`` with what the server's stderr said since ``mark`` when it failed, and a
        request the connection died under marked ``connection_lost``, naming how the server
        ended (the SDK reports it as a -32000 "Connection closed" error no server sent)."""
        failed = outcome.error is not None or outcome.is_error
        if not failed or outcome.cancelled:
            return outcome
        lines = tuple(self._stderr_since(mark)) if mark is not None else ()
        # A server may send -32000 itself (the start of the server-error range): only the
        # SDK's own words, or the server's end, mean the connection went.
        lost = outcome.error_code == CONNECTION_CLOSED and (
            self.exit_status is not None
            or self._link.stream_closed
            or (outcome.error or "").casefold().endswith(": connection closed")
        )
        if not lost:
            return replace(outcome, stderr=lines) if lines else outcome
        ended = describe_exit(self.exit_status)
        how = f"the server {ended} during the {what}" if ended else outcome.error
        said = f"; its stderr since the {what} started: {stderr_summary(lines)}" if lines else ""
        return CallOutcome(
            error=f"the connection was lost: {how}{said}",
            error_code=CONNECTION_CLOSED,
            connection_lost=True,
            stderr=lines,
        )
