"""``mcp-tui call``, ``read``, ``get`` and ``list``: their options, their one server, then the
headless run.

Apart from :mod:`mcp_tui.cli.main` (which dispatches here) because choosing the one server of a
headless run has rules of its own: exactly one of a URL, ``-- COMMAND``, ``--demo`` or a config
server. The headless runner itself (and the SDK) is imported only once the arguments are good.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from mcp_tui.cli.args import (
    build_call_parser,
    build_get_parser,
    build_list_parser,
    build_read_parser,
    parse_prompt_args,
    parse_tool_args,
)
from mcp_tui.cli.target import (
    command_line_spec,
    command_line_target,
    parse_env,
    with_env,
    with_mode,
    with_roots,
)
from mcp_tui.config.located import load_located_config
from mcp_tui.config.servers import ServerSpec
from mcp_tui.config.settings import AppSettings
from mcp_tui.errors import UsageError

if TYPE_CHECKING:
    import argparse

    from mcp_tui.headless.run import HeadlessOptions


#: The parser of each headless subcommand.
_PARSERS = {
    "call": build_call_parser,
    "read": build_read_parser,
    "get": build_get_parser,
    "list": build_list_parser,
}


def run_headless(
    sub: str, args: Sequence[str], command: list[str] | None, environ: Mapping[str, str]
) -> int:
    ns = _PARSERS[sub]().parse_intermixed_args(list(args))
    if ns.timeout is not None and not ns.timeout > 0:
        raise UsageError(f"--timeout must be a positive number of seconds, not {ns.timeout}.")
    arguments: dict[str, object] = {}
    if sub == "call":
        arguments = parse_tool_args(ns.args)
    elif sub == "get":
        arguments = dict(parse_prompt_args(ns.args))
    answers = None
    if sub != "list" and ns.answers is not None:
        from mcp_tui.config.answers import load_answers

        answers = load_answers(ns.answers)
    spec = headless_target(ns, command, environ, sub)
    options = headless_options(ns)
    from mcp_tui.headless import run as headless

    # The collector stays off until the SDK is imported (``headless``), then comes back on:
    # a headless run may be long.
    if sub == "list":
        return headless.run_list(spec, options)
    plan = headless.CallPlan(
        ns.tool,
        arguments,
        answers=answers,
        policy=ns.elicit,
        sampling=ns.sampling,
        as_task=getattr(ns, "task", False),
        verb=sub,
    )
    return headless.run_call(spec, plan, options)


def headless_options(ns: argparse.Namespace) -> HeadlessOptions:
    from mcp_tui.headless.run import HeadlessOptions

    return HeadlessOptions(
        json_output=ns.json,
        traffic_log=ns.log,
        timeout=ns.timeout,
        quiet=ns.quiet,
        log_level=ns.log_level,
    )


def headless_target(
    ns: argparse.Namespace, command: list[str] | None, environ: Mapping[str, str], sub: str
) -> ServerSpec:
    """The one server of ``call``/``list``: URL, ``-- COMMAND``, ``--demo`` or the config."""
    target = command_line_target(ns.url, command, transport=ns.transport, headers=ns.header)
    given = [
        what
        for what, present in (
            ("a URL or `--` command", target is not None),
            ("--demo", ns.demo),
            ("--server", ns.server is not None),
        )
        if present
    ]
    if len(given) > 1:
        raise UsageError(f"`mcp-tui {sub}` talks to one server; got {' and '.join(given)}.")
    if ns.name is not None and target is None and not ns.demo:
        raise UsageError("--name names a server given by URL or after `--`.")
    if ns.demo:
        from mcp_tui.cli.demo import demo_stdio_spec

        spec = demo_stdio_spec()
        if ns.name:
            spec = ServerSpec(ns.name, spec.target)
    elif target is not None:
        spec = command_line_spec(target, ns.name, AppSettings(), [])
    else:
        spec = _config_server(ns, environ, sub)
    spec = with_env([spec], parse_env(ns.env))[0]
    return with_mode(with_roots([spec], ns.root, ns.no_roots), ns.mode)[0]


def _config_server(ns: argparse.Namespace, environ: Mapping[str, str], sub: str) -> ServerSpec:
    location, config = load_located_config(ns.config, environ)
    if config is None:
        raise UsageError(
            f"`mcp-tui {sub}` needs a server: a URL (it may come last), `-- COMMAND ...`, "
            f"--demo, or --config FILE --server NAME (no config file at {location.path})."
        )
    if ns.server is not None:
        return config.select([ns.server])[0]
    enabled = config.default_servers()
    if len(enabled) == 1:
        return enabled[0]
    names = ", ".join(s.name for s in enabled) or "none enabled"
    raise UsageError(
        f"Config file {config.path} has several servers ({names}); choose one with --server NAME."
    )
