"""``mcp-tui``: parse the command line, load the config, then run the TUI or a headless command.

``main`` never lets bad input end in a traceback: every mistake is one paragraph on stderr and a
documented exit code (see ``mcp-tui --help``). ``mcp``, ``textual`` and the config loader (pydantic)
are imported only once they are needed, so ``mcp-tui --help`` and argument errors are instant and
the TUI's first frame does not wait for them.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec
from msgspec import Struct

from mcp_tui.cli.args import (
    SUBCOMMANDS,
    build_demo_parser,
    build_main_parser,
    parse_tool_args,
    split_command,
)
from mcp_tui.cli.call import run_headless
from mcp_tui.cli.target import (
    check_url_argument,
    command_line_spec,
    command_line_target,
    parse_env,
    with_env,
    with_mode,
    with_roots,
)
from mcp_tui.config.located import load_located_config
from mcp_tui.config.options import AppOptions, ToolCallRequest
from mcp_tui.config.paths import theme_file
from mcp_tui.config.servers import HttpTarget, ServerSpec, StdioTarget
from mcp_tui.config.settings import AppSettings
from mcp_tui.errors import (
    EXIT_CONNECTION,
    EXIT_INTERRUPTED,
    EXIT_USAGE,
    ConfigError,
    ConnectionFailed,
    McpTuiError,
    UsageError,
)
from mcp_tui.process.startup import pause_collector, resume_collector

if TYPE_CHECKING:
    import argparse

    from textual.app import App

    from mcp_tui.config.chat_settings import ChatSettings
    from mcp_tui.config.load import LoadedConfig

GETTING_STARTED = (
    "No server to open, and no config file at {path}. To start, try the bundled demo with "
    "`mcp-tui demo`; launch a stdio server with `mcp-tui -- python server.py`; connect over HTTP "
    "with `mcp-tui http://127.0.0.1:8000/mcp`; or write a config file (config.example.toml "
    "documents every key) and open it with `mcp-tui --config FILE`. `mcp-tui --help` lists "
    "every option."
)


def main(argv: list[str] | None = None) -> int:
    """Run ``mcp-tui`` with ``argv`` (default: ``sys.argv[1:]``); returns the exit code."""
    args = sys.argv[1:] if argv is None else list(argv)
    pause_collector()  # resumed once start-up's imports are done (``startup``)
    try:
        return _dispatch(args, os.environ)
    except (UsageError, ConfigError) as exc:
        return _fail(exc, EXIT_USAGE)
    except ConnectionFailed as exc:
        return _fail(exc, EXIT_CONNECTION)
    except McpTuiError as exc:
        return _fail(exc, EXIT_USAGE)
    except KeyboardInterrupt:
        print("mcp-tui: interrupted.", file=sys.stderr)
        return EXIT_INTERRUPTED
    except SystemExit as exc:  # argparse's --help and --version
        return exc.code if isinstance(exc.code, int) else 0
    finally:
        resume_collector()


def _fail(exc: Exception, code: int) -> int:
    print(f"mcp-tui: {exc}", file=sys.stderr)
    return code


def _dispatch(args: list[str], environ: Mapping[str, str]) -> int:
    before, command = split_command(args)
    if before and before[0] in SUBCOMMANDS:
        sub, rest = before[0], before[1:]
        if sub == "demo":
            if command is not None:
                raise UsageError(
                    "`mcp-tui demo` runs the bundled server; it takes no `--` command."
                )
            return run_demo(rest, environ)
        if sub == "auth":
            from mcp_tui.cli.auth import run_auth

            return run_auth(rest, environ)
        if sub == "chat":
            return run_chat(rest, command, environ)
        if sub == "check":
            from mcp_tui.cli.check import run_check_command

            return run_check_command(rest, command, environ)
        if sub == "test":
            if command is not None:
                raise UsageError(
                    "`mcp-tui test` reads its servers from the test files; it takes no `--` "
                    "command (write it as `command = [...]` in the file's [server] table)."
                )
            from mcp_tui.cli.runtests import run_test_command

            return run_test_command(rest, environ)
        return run_headless(sub, rest, command, environ)
    return run_main(before, command, environ)


def run_main(
    before: list[str],
    command: list[str] | None,
    environ: Mapping[str, str],
    chat: ChatSettings | None = None,
) -> int:
    """The TUI on the servers the command line names (``chat``: with the chat open at start)."""
    ns, extra = build_main_parser().parse_known_args(before)
    if ns.url is not None and ns.url not in SUBCOMMANDS:
        check_url_argument(ns.url, extra)  # explains how to give a command (after `--`)
    if extra:
        raise UsageError(
            f"Unrecognized arguments: {' '.join(extra)}. Run `mcp-tui --help` for usage."
        )
    if ns.url in SUBCOMMANDS:
        raise UsageError(
            f"Give the subcommand first, before any option: mcp-tui {ns.url} [options] ..."
        )
    plan = plan_tui(ns, command, environ)
    _print_notes(plan.notes)
    options = plan.options if chat is None else msgspec.structs.replace(plan.options, chat=chat)
    return run_tui(plan.servers, options)


def run_chat(args: list[str], command: list[str] | None, environ: Mapping[str, str]) -> int:
    """``mcp-tui chat``: the chat's options, then the TUI (or the demo) with the chat open."""
    from mcp_tui.cli.chat import parse_chat_command

    if "-h" in args or "--help" in args:
        from mcp_tui.cli.chat import build_chat_parser

        build_chat_parser().print_help()
        return 0
    config_path = _option_value(args, "--config")
    _, config = load_located_config(config_path, environ)
    configured = config.settings.chat if config is not None else None
    chat, rest = parse_chat_command(args, configured, environ)
    if chat.demo:
        if command is not None:
            raise UsageError("`mcp-tui chat --demo` runs the bundled server; it takes no `--`.")
        return run_demo(rest, environ, chat=chat.settings)
    return run_main(rest, command, environ, chat=chat.settings)


def checked_save_answers(path: Path | None) -> Path | None:
    """``--save-answers FILE``: its name must say the format it is written in."""
    if path is None:
        return None
    from mcp_tui.config.answers import answers_format

    try:
        answers_format(path)
    except ValueError as exc:
        raise UsageError(f"--save-answers: {exc}.") from None
    return path


def _option_value(args: Sequence[str], option: str) -> str | None:
    """The value of ``--option VALUE`` or ``--option=VALUE`` in ``args``, if given."""
    for i, arg in enumerate(args):
        if arg == option and i + 1 < len(args):
            return args[i + 1]
        if arg.startswith(option + "="):
            return arg.split("=", 1)[1]
    return None


# ---- the TUI ------------------------------------------------------------------------------------


class TuiPlan(Struct, frozen=True):
    """What the command line asks the TUI to do."""

    servers: list[ServerSpec]
    options: AppOptions
    #: Notes about the config file (skipped keys of another client's JSON) for stderr.
    notes: tuple[str, ...] = ()


def plan_tui(
    ns: argparse.Namespace, command: list[str] | None, environ: Mapping[str, str]
) -> TuiPlan:
    """Servers and options for the TUI from parsed arguments; every mistake is a usage error."""
    target = command_line_target(ns.url, command, transport=ns.transport, headers=ns.header)
    if ns.name is not None and target is None:
        raise UsageError(
            "--name names a server given by URL or after `--`; servers of a config file keep "
            "the names they have there."
        )
    if ns.args is not None and ns.call is None:
        raise UsageError("--args goes with --call TOOL: mcp-tui --call TOOL --args JSON ...")
    arguments = parse_tool_args(ns.args)
    location, config = load_located_config(ns.config, environ)
    settings = config.settings if config is not None else AppSettings()
    specs: list[ServerSpec] = []
    if ns.server:
        if config is None:
            raise UsageError(
                f"--server picks servers from a config file, and there is none at "
                f"{location.path}. Name one with --config FILE or MCP_TUI_CONFIG."
            )
        specs = config.select(ns.server)
    elif target is None:
        if config is None:
            raise UsageError(GETTING_STARTED.format(path=location.path))
        specs = config.default_servers()
        if not specs:
            raise ConfigError(_no_enabled_servers(config))
    if target is not None:
        specs.append(command_line_spec(target, ns.name, settings, [s.name for s in specs]))
    call = ToolCallRequest(ns.call, arguments, ask=ns.args is None) if ns.call is not None else None
    options = settings.to_options(
        call=call,
        traffic_log=ns.log,
        save_answers=checked_save_answers(ns.save_answers),
        theme_file=theme_file(),
        stderr_log=ns.stderr_log,
        connect_timeout=ns.connect_timeout,
        watch=_watch_paths(ns.watch, specs) or None,
        record=_record_path(ns.record),
    )
    notes = config.notes if config is not None else ()
    specs = with_env(specs, parse_env(ns.env))
    return TuiPlan(with_mode(with_roots(specs, ns.root, ns.no_roots), ns.mode), options, notes)


def _watch_paths(paths: Sequence[Path], specs: Sequence[ServerSpec]) -> tuple[Path, ...]:
    """``--watch``: the paths, checked (they exist, and a stdio server is there to restart)."""
    if not paths:
        return ()
    from mcp_tui.process.watch import check_watch_paths

    problems = check_watch_paths(paths)
    if problems:
        raise UsageError("; ".join(problems) + ". Give a file or directory that exists.")
    if not any(isinstance(spec.target, StdioTarget) for spec in specs):
        raise UsageError(
            "--watch restarts stdio servers (a command after `--`, or a config server with "
            "`command`); none of the servers here is one. A URL server is restarted by whoever "
            "runs it."
        )
    return tuple(paths)


def _record_path(path: Path | None) -> Path | None:
    """``--record FILE``: a test file name ``mcp-tui test`` finds."""
    if path is not None and not path.name.endswith((".mcptest.toml", ".mcptest.json")):
        raise UsageError(
            f"--record {path}: name the file *.mcptest.toml (or *.mcptest.json), as mcp-tui test "
            "looks for those."
        )
    return path


def _no_enabled_servers(config: LoadedConfig) -> str:
    if config.names:
        return (
            f"Config file {config.path} has no enabled server; open one with --server NAME "
            f"(the servers in this file: {', '.join(config.names)})."
        )
    return (
        f"Config file {config.path} has no servers; add a [servers.NAME] table "
        "(see config.example.toml) or give a server on the command line."
    )


def _print_notes(notes: Sequence[str]) -> None:
    for note in notes:
        print(f"mcp-tui: note: {note}", file=sys.stderr)


def build_app(servers: list[ServerSpec], options: AppOptions) -> App[Any]:
    """The Textual app for these servers; tests build it the same way."""
    from mcp_tui.ui.app import McpTuiApp

    app: App[Any] = McpTuiApp(servers, options)
    return app


def run_tui(servers: list[ServerSpec], options: AppOptions) -> int:
    """Run the TUI. Library logging goes to a file first (``process/logs.py``): Textual owns the
    terminal, and a stray warning on stderr would be drawn over the screen."""
    from mcp_tui.process.logs import tui_logging

    with tui_logging():
        app = build_app(servers, options)
        # The app resumes the collector once the connection code is imported (``startup``).
        app.run()
    return app.return_code or 0


# ---- demo ---------------------------------------------------------------------------------------


def run_demo(
    args: Sequence[str], environ: Mapping[str, str], chat: ChatSettings | None = None
) -> int:
    ns = build_demo_parser().parse_args(list(args))
    if ns.args is not None and ns.call is None:
        raise UsageError("--args goes with --call TOOL: mcp-tui demo --call TOOL --args JSON")
    if ns.tour and ns.call is not None:
        raise UsageError("--tour calls the demo's tools itself: give either --tour or --call.")
    arguments = parse_tool_args(ns.args)
    _, config = load_located_config(ns.config, environ)
    settings = config.settings if config is not None else AppSettings()
    options = settings.to_options(
        call=ToolCallRequest(ns.call, arguments, ask=ns.args is None)
        if ns.call is not None
        else None,
        traffic_log=ns.log,
        save_answers=checked_save_answers(ns.save_answers),
        theme_file=theme_file(),
        stderr_log=ns.stderr_log,
        chat=chat,
        start_notes=_chat_hint(chat or settings.chat, environ),
        connect_timeout=ns.connect_timeout,
        record=_record_path(ns.record),
        tour=ns.tour,
    )
    mode = ns.mode or settings.mode
    from mcp_tui.cli.demo import demo_http_server, demo_stdio_spec

    if ns.http and ns.watch:
        raise UsageError(
            "--watch restarts stdio servers: use it with `mcp-tui demo` (stdio), not --http."
        )
    if ns.watch:
        watch = _watch_paths(ns.watch, [demo_stdio_spec(mode)])
        options = msgspec.structs.replace(options, watch=watch)
    if ns.http:
        with demo_http_server() as url:
            return run_tui([ServerSpec("demo", HttpTarget(url), mode=mode)], options)
    return run_tui([demo_stdio_spec(mode)], options)


def _chat_hint(chat: ChatSettings | None, environ: Mapping[str, str]) -> tuple[str, ...]:
    """The demo's note that a model is there to chat with (extra installed, provider known)."""
    from mcp_tui.chat import available
    from mcp_tui.config.chat_settings import ChatSettings, resolve

    if chat is not None and chat.open_at_start:
        return ()  # the chat opens by itself
    settings = resolve(chat or ChatSettings(), environ)
    if settings.provider is None or not available():
        return ()
    return (
        f"Try the demo through a model: press m to chat with {settings.describe()} — it calls "
        "the demo's tools, and their forms open in the conversation.",
    )
