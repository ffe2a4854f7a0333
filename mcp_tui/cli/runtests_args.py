"""The command line of ``mcp-tui test``: its options and a ``--help`` that teaches the file."""

from __future__ import annotations

import argparse
from pathlib import Path

from mcp_tui.cli.args import ArgumentParser
from mcp_tui.errors import EXIT_CONNECTION, EXIT_OK, EXIT_TOOL_ERROR, EXIT_USAGE

ERA_CHOICES = ("auto", "2025-11-25", "2026-07-28")

TEST_DESCRIPTION = """\
Run the cases of MCP test files against their servers: each case makes one call (a tool, a
prompt, a resource), answers the elicitation and sampling requests it triggers, and checks what
came back. PATH is a test file or a folder (every *.mcptest.toml and *.mcptest.json under it);
the default is the current folder. Every file is checked before any server starts."""

TEST_EPILOG = f"""\
a first test file (tests/mcp/demo.mcptest.toml):
  server = "demo"                       # or: [server] command = ["python", "server.py"]
  [[case]]                              #     [server] url = "http://127.0.0.1:8000/mcp"
  name = "declining keeps the project"  #     [server] name = "booking"  (a config server)
  tool = "delete_project"
  arguments = {{ name = "payments-api" }}
  answers = [{{ action = "decline" }}]    # the entries of an answers file (see `call --help`)
  expect = {{ outcome = "ok", text_contains = "Kept payments-api" }}

a case: name, tool | prompt | resource, arguments, answers, elicit, sampling, eras, timeout,
task, skip, xfail, expect, setup, teardown. expect: outcome (ok, tool_error, error,
connection_lost, timeout, answer_refused), error_code, error_regex, text, text_contains,
text_regex, structured, pointers (JSON Pointer -> value), pointers_regex (JSON Pointer ->
regex), elicitation_count, elicitations (mode, message, message_regex, url_regex, schema,
action), sampling_count, sampling (message, message_regex, system_prompt_regex, max_tokens,
action), sent, not_sent (methods mcp-tui sent), within (seconds). The JSON Schema of the file:
mcp_tui/testbench/mcptest.schema.json.

state: `setup` and `teardown` (in a case, or [[setup]]/[[teardown]] once for the file) are
calls (tool | prompt | resource, arguments, answers, ...) made before and after it; a step
fails when its call fails (may_fail = true: only when unanswered) or its own `expect` does not
hold. A failed setup makes the case an ERROR and its call is not made; teardown always runs.

eras: a file's `eras` (default ["auto"]) are run for each case; --era replaces them, and a case
that names its own `eras` is skipped on the others.

secrets: write ${{VAR}} in the server's env, headers, url or command and in an answer's content
(${{VAR:-default}}, ${{env:VAR}}; $${{ is a literal ${{); nothing else is expanded. Every value
taken from the environment so is shown as *** in every report (the summary, diffs, JUnit, --json,
--watch), also inside longer text and where the server echoes it; --log keeps raw values.
--update never writes a snapshot that holds one.

GitHub Actions: where GITHUB_ACTIONS=true (or with --github), each failed expectation is also
an error annotation (::error) at its line of the test file, the path relative to
GITHUB_WORKSPACE, and a Markdown table of the run is appended to $GITHUB_STEP_SUMMARY; workflow
commands are paused while the cases run, so nothing a server sends becomes one. --no-github
turns it off.

exit codes:
  {EXIT_OK}    every case passed (or was skipped, or failed as its xfail said)
  {EXIT_TOOL_ERROR}    a case failed, or a setup or teardown step (or the tools covered fell under
       --fail-under)
  {EXIT_USAGE}    a bad test file (its file, line and key are named) or command line; nothing ran
  {EXIT_CONNECTION}    a server could not be started (or a case could not be run at all)"""


def build_test_parser() -> ArgumentParser:
    parser = ArgumentParser(
        prog="mcp-tui test",
        usage="mcp-tui test [PATH...] [-k EXPR] [--era ERA] [-j N] [--junit-xml FILE] [--json] "
        "[--update] [--coverage] [--coverage-json FILE] [--fail-under PERCENT] [--github] "
        "[--watch [--watch-path DIR]]",
        description=TEST_DESCRIPTION,
        epilog=TEST_EPILOG,
        formatter_class=lambda prog: argparse.RawDescriptionHelpFormatter(
            prog, max_help_position=30, width=100
        ),
    )
    parser.add_argument(
        "paths", nargs="*", metavar="PATH", help="test files or folders (default: .)"
    )
    parser.add_argument(
        "-k",
        metavar="EXPR",
        help="run the cases whose id (FILE::NAME[ERA]) matches: names (substrings) with and, "
        "or, not, parentheses, as in pytest",
    )
    parser.add_argument(
        "--era",
        action="append",
        choices=ERA_CHOICES,
        help="run on this era instead of the files' eras (repeatable)",
    )
    parser.add_argument(
        "-j",
        "--jobs",
        type=int,
        default=1,
        metavar="N",
        help="run N files at a time (each file's cases share one server process per era)",
    )
    parser.add_argument(
        "--junit-xml", type=Path, metavar="FILE", help="write a JUnit XML report to FILE"
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help="print the results as JSON on stdout (progress and summary go to stderr)",
    )
    parser.add_argument(
        "--update",
        action="store_true",
        help="rewrite snapshot expectations (text, structured, an elicitation's schema) that "
        "differ with what came, in place, keeping the file's comments and layout; only of a "
        "case that then passes (its other expectations held), and values that change per run "
        "(ids after #, UUIDs, timestamps) as regexes",
    )
    parser.add_argument(
        "--log",
        type=Path,
        metavar="FILE",
        help="append every JSON-RPC message of the run to FILE as JSON Lines (each connection "
        "named FILE-NAME@ERA): worth keeping as a CI artifact when a run fails. It is the wire "
        "as it was: values from ${VAR} are NOT masked there",
    )
    parser.add_argument(
        "--coverage",
        action="store_true",
        help="after the summary: the tools, prompts and resources no case touched, which of "
        "accept/decline/cancel each form met was given, and the tools with an outputSchema whose "
        "structuredContent no case checked",
    )
    parser.add_argument(
        "--coverage-json", type=Path, metavar="FILE", help="write the coverage as JSON to FILE"
    )
    parser.add_argument(
        "--fail-under",
        type=float,
        metavar="PERCENT",
        help="exit 1 when a case called fewer than PERCENT of the tools the servers offer",
    )
    parser.add_argument(
        "--github",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="GitHub Actions output (on by itself where GITHUB_ACTIONS=true): an error "
        "annotation at the line of each failed expectation in its test file, and a Markdown "
        "table of the run appended to $GITHUB_STEP_SUMMARY",
    )
    parser.add_argument(
        "-q", "--quiet", action="store_true", help="no line per case: only failures and counts"
    )
    parser.add_argument(
        "--collect-only", action="store_true", help="list the cases that would run, run none"
    )
    parser.add_argument(
        "--watch",
        action="store_true",
        help="run again each time a test file or the server's source changes, until Ctrl+C "
        "(not for the --junit-xml and --log files, .git, __pycache__, virtualenvs, caches or "
        "editors' swap files)",
    )
    parser.add_argument(
        "--watch-path",
        action="append",
        default=[],
        type=Path,
        metavar="DIR",
        help="with --watch: the server's source to watch (repeatable; default: the folder of "
        "each file's server script)",
    )
    return parser
