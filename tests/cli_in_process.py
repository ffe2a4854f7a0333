"""``mcp-tui ARGS`` run by the command line's ``main`` in the test's own process (a helper).

A child ``python -m mcp_tui`` costs a second of CPU before its first request, nearly all of it
importing the SDK again, which the test's process has already imported. Tests about what a
command does with a server (its exit code, what it prints, what it sends) run it here; the
server is still a real child process, started by the same code. The tests about the command's
own process (start-up, signals, ``--help`` without the SDK) keep their child: ``tests/cli``.

Output is read with pytest's ``capfd`` (file descriptors 1 and 2, so whatever a server child
writes to the stderr it shares is seen too, as it would be in the child's captured stderr) or
``capsys``, and handed back as a finished process's would be.
"""

from __future__ import annotations

import subprocess
from collections.abc import Sequence

import pytest

from mcp_tui.cli.main import main


def run_mcp_tui(
    capture: pytest.CaptureFixture[str], argv: Sequence[str]
) -> subprocess.CompletedProcess[str]:
    """``mcp-tui *argv``: its exit code, stdout and stderr, as ``subprocess.run`` returns them."""
    capture.readouterr()  # what the test printed before is not the command's
    try:
        code = main(list(argv))
    except SystemExit as exit:  # argparse's own usage errors, as a child would exit
        code = exit.code if isinstance(exit.code, int) else 1
    out, err = capture.readouterr()
    return subprocess.CompletedProcess(["mcp-tui", *argv], code, out, err)
