"""The argument parsers of ``mcp-tui``, the help text of its exit codes, and ``--args`` JSON.

Separate from :mod:`mcp_tui.cli.main` so the parsing can be tested without any app (the server
named on the command line is :mod:`mcp_tui.cli.target`): every function here is pure
(no ``mcp``, no ``textual``) and every mistake raises :class:`~mcp_tui.errors.UsageError` with one
paragraph that says what to write instead.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from mcp_tui.config.servers import DEFAULT_CONNECT_TIMEOUT
from mcp_tui.errors import (
    EXIT_CONNECTION,
    EXIT_ELICITATION,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_TOOL_ERROR,
    EXIT_USAGE,
    UsageError,
)

SUBCOMMANDS = ("demo", "call", "read", "get", "list", "check", "test", "auth", "chat")
MODES = ("auto", "legacy", "2026-07-28")
ELICIT_POLICIES = ("accept-defaults", "decline", "cancel")

EXIT_CODES_HELP = f"""\
exit codes:
  {EXIT_OK}    success
  {EXIT_TOOL_ERROR}    the tool call failed: the result has isError, or the server answered the
       request with a JSON-RPC error (call, read, get)
  {EXIT_USAGE}    usage error: bad arguments, a missing or invalid config or answers file
  {EXIT_CONNECTION}    the server could not be started or reached, or the connection was lost
       (call, read, get, list; the server's exit status is named)
  {EXIT_ELICITATION}    an elicitation request could not be answered validly: a scripted
       answer (or the schema's defaults) does not fit the requested schema (call, read, get)
  {EXIT_INTERRUPTED}  interrupted (Ctrl+C)"""

MAIN_USAGE = """\
mcp-tui [options] -- COMMAND [ARGS...]
       mcp-tui [options] URL
       mcp-tui [options] [--config FILE] [--server NAME]...
       mcp-tui demo [--http] [--tour] [options]
       mcp-tui call TOOL [--args JSON] [--answers FILE] [--elicit POLICY] [--json] TARGET
       mcp-tui read URI [--answers FILE] [--elicit POLICY] [--json] TARGET
       mcp-tui get PROMPT [--args JSON] [--answers FILE] [--elicit POLICY] [--json] TARGET
       mcp-tui list [--json] TARGET
       mcp-tui check [--json] [--strict] TARGET
       mcp-tui test [PATH...] [-k EXPR] [--era ERA] [-j N] [--junit-xml FILE] [--update]
       mcp-tui auth list | forget NAME|URL
       mcp-tui chat [--provider P] [--model M] [--base-url URL] [--demo] [options]"""

MAIN_DESCRIPTION = """\
A terminal client for the Model Context Protocol that shows a server's elicitation requests as
real forms and URL consent screens.

Servers come from the words after `--` (a stdio server started as a child process), from a URL
(Streamable HTTP, or the legacy HTTP+SSE transport with --transport sse), or from a config file:
mcp-tui's own TOML, or the JSON of Claude Desktop / Cursor / Claude Code ({"mcpServers": ...}) or
VS Code ({"servers": ...}). The config file is --config FILE, else $MCP_TUI_CONFIG, else
config.toml in the platform config directory. With no server named, every enabled server of the
config file opens.

subcommands (give them first):
  demo    the TUI on the bundled demo server (--http: over Streamable HTTP on 127.0.0.1;
          --tour: a guided tour of every kind of elicitation)
  call    call one tool without a UI, answering elicitations from a file or a policy
  read    read one resource the same way (resources/read)
  get     get one prompt the same way (prompts/get)
  list    print a server's tools, prompts and resources
  check   report what other clients will refuse in a server (names, schemas, eras)
  test    run the cases of test files (*.mcptest.toml): calls, answers, expectations
  auth    list or forget stored OAuth sign-ins (signing in happens in the TUI)
  chat    the TUI with a chat: a model calls the tools, you approve (the chat extra)
  Run `mcp-tui call --help` (and so on) for their options."""

MAIN_EPILOG = f"""\
examples:
  mcp-tui demo
  mcp-tui -- python server.py --flag
  mcp-tui http://127.0.0.1:8000/mcp --header "Authorization: Bearer $TOKEN"
  mcp-tui --config ~/.cursor/mcp.json --server github
  mcp-tui --call book_table --args '{{"party": 2}}' -- python server.py
  mcp-tui --watch src -- python src/server.py    # restarted when a file under src/ changes

{EXIT_CODES_HELP}"""

TARGET_HELP = """\
TARGET is one of:
  URL                       a Streamable HTTP server (it may be the last argument)
  --config FILE --server N  a server of a config file (--server may be left out when the
                            file has one server)
  -- COMMAND [ARGS...]      a stdio server
  --demo                    the bundled demo server"""

ANSWERS_HELP = """\
answers files (--answers FILE): TOML (by a .toml name) or JSON; `mcp-tui --save-answers FILE`
  records one in the TUI. A list of answers, each accept (with content), decline or cancel:
    TOML: one [[answers]] table per answer   JSON: {"answers": [...]} or just the list
      [[answers]]                              {"answers": [
      action = "accept"                          {"action": "accept",
      content = {name = "Ada", age = 36}          "content": {"name": "Ada", "age": 36}},
      [[answers]]                                {"action": "decline", "match": "(?i)delete"}
      action = "decline"                       ]}
      match = "(?i)delete"
  Answers are used in order, or for every request whose message matches the regex `match`.
  Accepted content is completed with the schema's defaults and validated before it is sent.
  URL-mode requests are printed with their checked URL and never opened: they get the file's
  answer, or decline."""

#: What exit codes 0 and 1 mean for each headless verb.
_OUTCOMES = {
    "call": (
        "success: the tool returned a result without isError",
        "the tool call failed: the result has isError, or the server answered the\n"
        "       call with a JSON-RPC error (an unknown tool, ...)",
    ),
    "read": (
        "success: the server returned the resource",
        "the server answered with a JSON-RPC error (an unknown resource, ...)",
    ),
    "get": (
        "success: the server returned the prompt",
        "the server answered with a JSON-RPC error (an unknown prompt, ...)",
    ),
}


def headless_epilog(verb: str) -> str:
    """The ``--help`` epilog of ``call``, ``read``, ``get`` or ``list``: the targets, the
    answers-file syntax (the verbs that answer elicitations) and the exit codes that apply."""
    if verb == "list":
        codes = exit_codes_help(
            ok="success: the server's lists were printed",
            usage="usage error: bad arguments, a missing or invalid config file",
        )
        return f"{TARGET_HELP}\n\n{codes}"
    ok, failed = _OUTCOMES[verb]
    codes = exit_codes_help(
        ok=ok,
        failed=failed,
        elicitation="an elicitation request could not be answered validly: a scripted\n"
        "       answer (or the schema's defaults) does not fit the requested schema, or the\n"
        "       schema cannot be shown as a form",
    )
    return f"{TARGET_HELP}\n\n{ANSWERS_HELP}\n\n{codes}"


def exit_codes_help(
    *,
    ok: str,
    usage: str = "usage error: bad arguments, a missing or invalid config or answers file",
    failed: str | None = None,
    connection: str | None = "the server could not be started or reached, the connection was\n"
    "       lost (the server's exit status is named), or --timeout ran out",
    elicitation: str | None = None,
) -> str:
    """An "exit codes:" section listing only the codes a command can end with."""
    rows = [(EXIT_OK, ok), (EXIT_TOOL_ERROR, failed), (EXIT_USAGE, usage)]
    rows += [(EXIT_CONNECTION, connection), (EXIT_ELICITATION, elicitation)]
    rows.append((EXIT_INTERRUPTED, "interrupted (Ctrl+C)"))
    lines = [f"  {code:<4} {text}" for code, text in rows if text is not None]
    return "exit codes:\n" + "\n".join(lines)


#: The TUI's (``mcp-tui demo``): a server's failures are shown in it, not as exit codes.
TUI_EXIT_CODES_HELP = exit_codes_help(
    ok="the TUI was quit",
    usage="usage error: bad arguments, a missing or invalid config file",
    connection=None,
)


class ArgumentParser(argparse.ArgumentParser):
    """An argparse parser whose errors become :class:`UsageError` instead of ``exit(2)``."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message[0].upper()}{message[1:]}. Run `{self.prog} --help` for usage.")


def help_formatter(prog: str) -> argparse.HelpFormatter:
    return argparse.RawDescriptionHelpFormatter(prog, max_help_position=30, width=100)


def _add_target_options(parser: argparse.ArgumentParser, *, headless: bool) -> None:
    group = parser.add_argument_group("server")
    group.add_argument(
        "--transport",
        choices=("streamable-http", "sse"),
        help="transport for a URL: streamable-http (default) or sse (legacy HTTP+SSE)",
    )
    group.add_argument(
        "--header",
        action="append",
        default=[],
        metavar='"NAME: VALUE"',
        help="an HTTP header sent to a URL server; repeatable",
    )
    group.add_argument(
        "--env",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="an environment variable for the stdio server; repeatable. A server after `--` "
        "inherits your whole environment (as from a shell) and gets these over it; a config "
        "server gets HOME LOGNAME PATH SHELL TERM USER, its `env` (all of yours with "
        "inherit_env = true) and then these",
    )
    group.add_argument(
        "--name", help="what to call the server given by URL or after `--` (default: derived)"
    )
    group.add_argument(
        "--config",
        metavar="FILE",
        help="config file: mcp-tui TOML, or mcpServers / VS Code JSON "
        "(default: $MCP_TUI_CONFIG, else the platform config directory)",
    )
    if headless:
        group.add_argument("--server", metavar="NAME", help="the server of the config file to use")
        group.add_argument("--demo", action="store_true", help="use the bundled demo server")
    else:
        group.add_argument(
            "--server",
            action="append",
            default=[],
            metavar="NAME",
            help="open only this server of the config file; repeatable",
        )
    group.add_argument(
        "--root",
        action="append",
        default=None,
        metavar="DIR",
        help="a directory offered to the server as a root (file:// URI); repeatable; "
        "overrides the config's roots (default: the current directory, except for a stdio "
        "server whose command line names directories: it is offered none and keeps those)",
    )
    group.add_argument(
        "--no-roots",
        action="store_true",
        help="offer the server no roots (an empty list); a server such as server-filesystem "
        "then keeps the directories it was started with",
    )
    group.add_argument(
        "--mode",
        choices=MODES,
        help="protocol era: auto (default: 2025-11-25 through initialize, which carries "
        "ctx.elicit() questions; 2026-07-28 for a server that refuses initialize, and a tool "
        "that fails on 2025-11-25 for want of 2026-07-28 is called again there), legacy "
        "(2025-11-25 only) or 2026-07-28 (to test the new era); overrides the config",
    )


def _add_log_option(parser: argparse._ActionsContainer) -> None:
    parser.add_argument(
        "--log",
        metavar="FILE",
        type=Path,
        help="append every JSON-RPC message in and out to FILE as JSON Lines, flushed per message",
    )


def _add_tui_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("session")
    group.add_argument(
        "--call",
        metavar="TOOL",
        help="call TOOL as soon as its server is ready (in the TUI); without --args, a tool "
        "with required arguments opens its arguments form instead",
    )
    group.add_argument(
        "--args", metavar="JSON", help='arguments for --call, a JSON object: \'{"city": "Paris"}\''
    )
    _add_log_option(group)
    group.add_argument(
        "--save-answers",
        metavar="FILE",
        type=Path,
        help="write every elicitation answer given in the TUI to FILE, for `mcp-tui call "
        "--answers FILE` to replay: TOML ([[answers]]) for *.toml, JSON for *.json; other "
        "names are refused",
    )
    group.add_argument(
        "--record",
        metavar="FILE",
        type=Path,
        help="append every call that finishes to the test file FILE (*.mcptest.toml) as a case: "
        "its arguments, your answers, what came back; `mcp-tui test FILE` replays and checks it",
    )
    group.add_argument(
        "--watch",
        action="append",
        default=[],
        metavar="PATH",
        type=Path,
        help="restart the stdio servers when a file under PATH (a file or a directory) changes, "
        "keeping the catalog's place; `a` then calls the last tool again; repeatable. What "
        "mcp-tui writes itself never restarts them (--log, --stderr-log, --save-answers, "
        "--record, test files, exports), nor .git, __pycache__, virtualenvs, caches or editors' "
        "swap files",
    )
    group.add_argument(
        "--stderr-log",
        metavar="FILE",
        type=Path,
        help="write server stderr to FILE (default: the platform log directory)",
    )
    group.add_argument(
        "--connect-timeout",
        metavar="SECONDS",
        type=_positive_seconds,
        help="how long a server may take to answer the handshake before it is shown as failed "
        f"(default: {DEFAULT_CONNECT_TIMEOUT:g}, or connect_timeout in the config's [app] table)",
    )


def _positive_seconds(text: str) -> float:
    """``--connect-timeout``: a positive number of seconds, with a message naming what is wrong."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"{text!r}: give a number of seconds above 0")
    return value


class _VersionAction(argparse.Action):
    """``--version``: several lines (:mod:`mcp_tui.cli.version`), built only when asked."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        kwargs.pop("nargs", None)
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: object,
        option_string: str | None = None,
    ) -> None:
        from mcp_tui.cli.version import version_text

        print(version_text())  # on stdout, as argparse's own version action does
        parser.exit()


def build_main_parser() -> ArgumentParser:
    parser = ArgumentParser(
        prog="mcp-tui",
        usage=MAIN_USAGE,
        description=MAIN_DESCRIPTION,
        epilog=MAIN_EPILOG,
        formatter_class=help_formatter,
    )
    parser.add_argument(
        "url",
        nargs="?",
        metavar="URL",
        help="an http:// or https:// MCP endpoint (stdio servers go after `--` instead)",
    )
    parser.add_argument(
        "--version",
        action=_VersionAction,
        help="show mcp-tui's version, its distribution, the SDK's and Textual's versions and the "
        "protocol eras it speaks, and exit",
    )
    _add_target_options(parser, headless=False)
    _add_tui_options(parser)
    return parser


def build_demo_parser() -> ArgumentParser:
    parser = ArgumentParser(
        prog="mcp-tui demo",
        description="Open the TUI on the demo MCP server that ships with mcp-tui: forms of every\n"
        "kind, a booking wizard, URL-mode consent, progress and logs. Needs nothing else.",
        epilog=TUI_EXIT_CODES_HELP,
        formatter_class=help_formatter,
    )
    parser.add_argument(
        "--http",
        action="store_true",
        help="serve the demo over Streamable HTTP on 127.0.0.1 (a free port) and connect to it",
    )
    parser.add_argument(
        "--tour",
        action="store_true",
        help="a guided tour of every kind of elicitation, step by step with a note on what the "
        "spec asks and what went over the wire (Space or → for the next step); with --mode "
        "2026-07-28 it shows the input_required round too; it calls the demo's tools itself, so "
        "not with --call",
    )
    parser.add_argument("--mode", choices=MODES, help="protocol mode (see mcp-tui --help)")
    parser.add_argument("--config", metavar="FILE", help="read [app] settings from FILE")
    _add_tui_options(parser)
    return parser


def build_call_parser() -> ArgumentParser:
    parser = ArgumentParser(
        prog="mcp-tui call",
        usage="mcp-tui call TOOL [--args JSON] [--answers FILE] [--elicit POLICY] "
        "[--sampling POLICY] [--task] [--json] [options] TARGET",
        description="Connect, call TOOL once and answer every elicitation without a UI.\n"
        "The result goes to stdout; each elicitation and the answer given go to stderr.",
        epilog=headless_epilog("call"),
        formatter_class=help_formatter,
    )
    parser.add_argument("tool", metavar="TOOL", help="the tool to call")
    parser.add_argument("url", nargs="?", metavar="URL", help="the server's URL (see TARGET)")
    parser.add_argument(
        "--args", metavar="JSON", help="the tool's arguments, a JSON object: '{\"n\": 3}'"
    )
    add_answer_options(parser)
    parser.add_argument(
        "--task",
        action="store_true",
        help="2025-11-25: call a tool whose taskSupport is optional as a task (tasks/get, "
        "tasks/result); a tool that requires tasks is always called as one. 2026-07-28: the "
        "server decides which calls become tasks (the io.modelcontextprotocol/tasks extension, "
        "declared on every request: tasks/get polled, what a task asks answered with "
        "tasks/update), so --task changes nothing there",
    )
    add_headless_common(parser)
    return parser


def build_read_parser() -> ArgumentParser:
    parser = ArgumentParser(
        prog="mcp-tui read",
        usage="mcp-tui read URI [--answers FILE] [--elicit POLICY] [--sampling POLICY] [--json] "
        "[options] TARGET",
        description="Connect, read the resource URI once (resources/read) and answer every\n"
        "elicitation the server asks meanwhile without a UI, as `mcp-tui call` does.\n"
        "The contents go to stdout; each elicitation and the answer given go to stderr.",
        epilog=headless_epilog("read"),
        formatter_class=help_formatter,
    )
    parser.add_argument("tool", metavar="URI", help="the resource's URI (a template's filled in)")
    parser.add_argument("url", nargs="?", metavar="URL", help="the server's URL (see TARGET)")
    add_answer_options(parser)
    add_headless_common(parser)
    return parser


def build_get_parser() -> ArgumentParser:
    parser = ArgumentParser(
        prog="mcp-tui get",
        usage="mcp-tui get PROMPT [--args JSON] [--answers FILE] [--elicit POLICY] "
        "[--sampling POLICY] [--json] [options] TARGET",
        description="Connect, get the prompt PROMPT once (prompts/get) and answer every\n"
        "elicitation the server asks meanwhile without a UI, as `mcp-tui call` does.\n"
        "The messages go to stdout, each after its role ([user], [assistant]); each\n"
        "elicitation and the answer given go to stderr.",
        epilog=headless_epilog("get"),
        formatter_class=help_formatter,
    )
    parser.add_argument("tool", metavar="PROMPT", help="the prompt's name")
    parser.add_argument("url", nargs="?", metavar="URL", help="the server's URL (see TARGET)")
    parser.add_argument(
        "--args",
        metavar="JSON",
        help='the prompt\'s arguments, a JSON object of strings: \'{"name": "Ada"}\'',
    )
    add_answer_options(parser)
    add_headless_common(parser)
    return parser


def add_answer_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--answers", metavar="FILE", type=Path, help="answer elicitations from FILE (TOML or JSON)"
    )
    parser.add_argument(
        "--elicit",
        choices=ELICIT_POLICIES,
        default="cancel",
        help="how to answer requests the answers file does not cover: accept-defaults (accept "
        "with the schema's defaults; URL requests are declined), decline, or cancel (default)",
    )
    parser.add_argument(
        "--sampling",
        choices=("decline", "cancel"),
        default="decline",
        help="how to refuse sampling requests (sampling/createMessage) the answers file does not "
        "answer: decline (default; the server gets 'User rejected sampling request') or cancel",
    )


def build_list_parser() -> ArgumentParser:
    parser = ArgumentParser(
        prog="mcp-tui list",
        usage="mcp-tui list [--json] [options] TARGET",
        description="Connect and print the server's tools, prompts, resources and resource\n"
        "templates, with their schemas.",
        epilog=headless_epilog("list"),
        formatter_class=help_formatter,
    )
    parser.add_argument("url", nargs="?", metavar="URL", help="the server's URL (see TARGET)")
    add_headless_common(parser)
    return parser


def add_headless_common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print the whole result as JSON")
    parser.add_argument(
        "--timeout",
        metavar="SECONDS",
        type=float,
        help="give up (exit 3) when the whole run takes longer than this",
    )
    parser.add_argument(
        "-q",
        "--quiet",
        action="store_true",
        help="print no server stderr, server log messages or library warnings on stderr",
    )
    parser.add_argument(
        "--log-level",
        choices=("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"),
        default="debug",
        help="the server log messages asked for, this level and up (default: debug): "
        "logging/setLevel, or each request's _meta on 2026-07-28",
    )
    _add_log_option(parser)
    _add_target_options(parser, headless=True)


# ---- meaning ------------------------------------------------------------------------------------


def split_command(argv: Sequence[str]) -> tuple[list[str], list[str] | None]:
    """Split at the first ``--``: the words before, and the stdio command after (or ``None``)."""
    words = list(argv)
    if "--" not in words:
        return words, None
    at = words.index("--")
    return words[:at], words[at + 1 :]


def parse_tool_args(raw: str | None, option: str = "--args") -> dict[str, Any]:
    """``--args`` as a JSON object; anything else is a usage error that shows an example."""
    if raw is None:
        return {}
    try:
        value = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise UsageError(
            f"{option} is not valid JSON ({exc.msg} at column {exc.colno}); give a JSON object "
            f'such as \'{{"city": "Paris"}}\' (quote it for your shell).'
        ) from None
    if not isinstance(value, dict):
        raise UsageError(
            f"{option} must be a JSON object of argument names and values, such as "
            f'\'{{"city": "Paris"}}\', not a {_json_kind(value)}.'
        )
    return value


def parse_prompt_args(raw: str | None) -> dict[str, str]:
    """``get --args``: a JSON object of strings (prompt arguments are strings in MCP)."""
    arguments = parse_tool_args(raw)
    for name, value in arguments.items():
        if not isinstance(value, str):
            quoted = f"{{{json.dumps(name)}: {json.dumps(json.dumps(value))}}}"
            raise UsageError(
                f"--args: {name!r} is a {_json_kind(value)}, but prompt arguments are strings in "
                f"MCP: write it in quotes, as in '{quoted}'."
            )
    return arguments


def _json_kind(value: object) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    return {list: "list", str: "string", type(None): "null"}.get(type(value), "value")
