"""Words for a server that failed: how its process ended, and the exception its stderr names.

A crashed stdio server is reported with its exit status ("exited with status 3", "was killed by
signal 9 (SIGKILL)") and with the stderr it wrote since the call started, never a line from an
earlier call that reads as the cause. A call that failed while the server wrote a traceback
names the exception line (the SDKs answer with a wrapper such as "Error executing tool boom" and
leave the cause on stderr). Pure: no ``mcp``, no Textual.
"""

from __future__ import annotations

import re
import signal
from collections.abc import Sequence

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
    with chained exceptions the first is the cause, the last the SDK's wrapper."""
    for line in lines:
        text = line.strip(_FRAME)
        if _EXCEPTION.match(text):
            return text
    return None


def stderr_summary(lines: Sequence[str], count: int = 3) -> str:
    """What explains a failure from its stderr: the exception line, else the last lines."""
    found = exception_line(lines)
    if found is not None:
        return found
    kept = [line.strip() for line in lines if line.strip()]
    return " | ".join(kept[-count:])
