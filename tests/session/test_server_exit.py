"""The exception line a failed call's stderr names (``session/server_exit.py``), whole even when
a server's logging wrapped it."""

from __future__ import annotations

from mcp_tui.session.server_exit import exception_line, stderr_summary

#: As the SDK's Rich logging writes it to a stderr that is not a terminal (80 columns): the
#: message column starts at 29, long lines wrap in it.
RICH = [
    "[12/08/26 00:17:03] ERROR    Tool 'boom' raised an unexpected      server.py:455",
    "                             exception                                          ",
    "                             ╭─ Traceback (most recent call last─╮              ",
    "                             │ /tmp/srv/boom.py:6 in boom        │              ",
    "                             ╰───────────────────────────────────╯              ",
    "                             ValueError: the booking service                    ",
    "                             refused the party size of 40 because               ",
    "                             the restaurant seats twelve                        ",
    "                                                                                ",
    "                             The above exception was the direct                 ",
    "                             cause of the following exception:                  ",
    "                             UnexpectedToolError: Error executing               ",
    "                             tool boom                                          ",
]


def test_a_wrapped_exception_line_is_joined() -> None:
    assert exception_line(RICH) == (
        "ValueError: the booking service refused the party size of 40 because the restaurant "
        "seats twelve"
    )
    assert stderr_summary(RICH).startswith("ValueError: the booking service refused")


def test_a_plain_traceback_line_is_whole_and_what_follows_is_not_joined() -> None:
    lines = [
        "Traceback (most recent call last):",
        '  File "server.py", line 6, in boom',
        "ValueError: the boom went off",
        "INFO: shutting down",
    ]
    assert exception_line(lines) == "ValueError: the boom went off"


def test_a_wrapped_line_stops_at_a_frame_or_a_change_of_column() -> None:
    lines = [
        "    KeyError: 'party'",
        "    │ not part of it │",
        "    more",
    ]
    assert exception_line(lines) == "KeyError: 'party'"
    assert exception_line(["  OSError: disk", "      full", "  next"]) == "OSError: disk"
