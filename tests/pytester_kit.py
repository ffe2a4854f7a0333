"""Running pytest inside a test, in this process (pytester), as the plugin tests need it.

A pytest run in a subprocess costs a second of interpreter, import and plugin start-up before its
first test, several under load; these runs need no process of their own, so they run in
process. Two things of the outer run must stay out of the inner one: the snapshot plugin, whose
session-wide temporary folder (named in the environment) an inner session would delete under
the outer one, and an inner Ctrl+C, which pytester would otherwise raise in the outer test.
"""

from __future__ import annotations

import pytest

#: Options every inner run gets: no cache folder written, no snapshot plugin.
INNER = ("-p", "no:cacheprovider", "-p", "no:textual-snapshot")


def run_in_process(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    """``pytest *args`` in ``pytester.path``, in this process, with plugins loaded by their entry
    points as a project's run loads them (this suite's ``-p no:mcp-tui`` is not the inner
    run's: it reads no ini file of this repository)."""
    return pytester.runpytest_inprocess(*INNER, *args, no_reraise_ctrlc=True)
