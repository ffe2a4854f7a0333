"""``mcp-tui check TARGET``: its options, its servers, then the headless check run.

The same targets as ``call`` (a URL, ``-- COMMAND``, ``--demo``, a config server), and one more:
``--config FILE`` with no ``--server`` checks every enabled server of the file, so tool names two
servers share are found too. The checks are imported only once the arguments are good.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from mcp_tui.cli.args import (
    EXIT_CODES_HELP,
    ArgumentParser,
    add_answer_options,
    add_headless_common,
    help_formatter,
    parse_tool_args,
)
from mcp_tui.cli.call import headless_options, headless_target
from mcp_tui.config.servers import ServerSpec
from mcp_tui.config.settings import AppSettings
from mcp_tui.errors import EXIT_CONNECTION, UsageError

if TYPE_CHECKING:
    from mcp_tui.headless.check_baseline import BaselineGate
    from mcp_tui.headless.check_github import CheckGithub
    from mcp_tui.testbench.load import LoadedFile

ERAS = ("2025-11-25", "2026-07-28")

CHECK_EPILOG = f"""\
TARGET is a URL, `-- COMMAND [ARGS...]`, --demo, or --config FILE [--server NAME] (without
--server: every enabled server of the file, and tool names two of them share).

The report groups findings by severity: error (clients refuse it, or it can never work),
warning (some clients refuse or mangle it), info (worth knowing). Each names its check id,
where (tool, prompt, resource or elicitation, and a JSON Pointer), why, and the fix. The checks
and their ids are listed in the docs ("mcp-tui check", Rules); --explain ID says why one matters,
with what it is reported for and not; --ignore ID switches one off.

--baseline FILE --baseline-update writes what the server offers, per era, as sorted JSON to
commit; --baseline FILE then reports each change since it under a rule id (B101 tool-removed,
B201 required-argument-added, ...; the docs list them) as breaking or compatible.

check exit codes:
  0    no errors (with --strict: no warnings either)
  1    errors found, or a breaking change since --baseline FILE (with --strict: warnings,
       and any change)
  2    usage error
  3    the server could not be reached on any era

{EXIT_CODES_HELP.split(chr(10), 1)[0]} (the other commands): see mcp-tui --help"""


def build_check_parser() -> ArgumentParser:
    parser = ArgumentParser(
        prog="mcp-tui check",
        usage="mcp-tui check [--json] [--strict] [--ignore ID]... [--era ERA] [--call TOOL "
        "[--args JSON] [--answers FILE]] [--fuzz N [--tool NAME]...]\n"
        "                     [--baseline FILE [--baseline-update]] [options] TARGET\n"
        "       mcp-tui check --run FILE... [--json] [--strict] [--ignore ID]...\n"
        "       mcp-tui check --explain ID",
        description="Connect on every protocol era the server speaks (2025-11-25, 2026-07-28),\n"
        "list everything, and report what other clients will refuse or mangle: tool names and\n"
        "schemas, descriptions, prompts, resources, capabilities, and the size of the tool list.",
        epilog=CHECK_EPILOG,
        formatter_class=help_formatter,
    )
    parser.add_argument("url", nargs="?", metavar="URL", help="the server's URL (see TARGET)")
    parser.add_argument(
        "--strict", action="store_true", help="exit 1 on warnings too, not only on errors"
    )
    parser.add_argument(
        "--ignore",
        action="append",
        default=[],
        metavar="ID",
        help="do not run the check ID (repeatable, or comma-separated: --ignore T202,T203)",
    )
    parser.add_argument(
        "--era",
        action="append",
        choices=ERAS,
        default=[],
        help="check only this era (repeatable; default: every era)",
    )
    parser.add_argument(
        "--call",
        metavar="TOOL",
        help="also call TOOL on every era (with --args, --answers, --elicit as for `mcp-tui "
        "call`): the forms it asks for are checked against the era's schema subset, and a call "
        "that passes on one era and fails on the other is reported",
    )
    parser.add_argument(
        "--run",
        action="append",
        default=[],
        metavar="FILE",
        help="run the cases of a test file (or of every *.mcptest.toml under a folder; "
        "repeatable) on every era, against the file's own server (no TARGET then): their forms "
        "are checked, and a case that passes on one era and fails on the other is reported",
    )
    parser.add_argument(
        "--baseline",
        metavar="FILE",
        type=Path,
        help="compare what the server offers (tools and their schemas and annotations, prompts, "
        "resources, templates, capabilities, the forms of --call/--run) with FILE, era by era: "
        "each change is reported under its rule id as breaking or compatible, and a breaking "
        "one exits 1 (--strict: any change)",
    )
    parser.add_argument(
        "--baseline-update",
        action="store_true",
        help="write what the server offers to the --baseline FILE (sorted JSON, for review), "
        "showing what changed since it instead of failing on it",
    )
    parser.add_argument(
        "--no-elicitation",
        action="store_true",
        help="connect as a client without elicitation (the capability is not advertised): a "
        "--call that then fails or hangs past --call-timeout, and says nowhere that it needs "
        "forms, is reported (E109)",
    )
    parser.add_argument(
        "--github",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="GitHub Actions output (on by itself where GITHUB_ACTIONS=true; on stderr with "
        "--json): "
        "an annotation per error and warning, and per breaking change at its line of the "
        "--baseline file",
    )
    parser.add_argument("--args", metavar="JSON", help="the arguments of --call, a JSON object")
    add_answer_options(parser)  # --answers, --elicit, --sampling: as for `mcp-tui call`
    parser.add_argument(
        "--fuzz",
        metavar="N",
        type=int,
        help="call each tool named with --tool (else each annotated readOnlyHint: true, and no "
        "other: a fuzzed call can change data) with N valid and N just-invalid argument sets "
        "drawn from its inputSchema; report crashes, hangs, protocol errors on valid input and "
        "invalid input accepted, each with the smallest arguments that reproduce it",
    )
    parser.add_argument(
        "--explain",
        metavar="ID",
        help="print why the check (or --baseline rule) ID matters, with what it is reported for "
        "and what it is not, and exit: no server is contacted",
    )
    parser.add_argument(
        "--tool",
        action="append",
        default=[],
        metavar="NAME",
        help="a tool --fuzz may call (repeatable)",
    )
    parser.add_argument(
        "--call-timeout",
        metavar="SECONDS",
        type=float,
        default=10.0,
        help="--fuzz, and --call with --no-elicitation: a call that takes longer has hung "
        "(default: 10)",
    )
    add_headless_common(parser)
    return parser


def run_check_command(
    args: Sequence[str], command: list[str] | None, environ: Mapping[str, str]
) -> int:
    ns = build_check_parser().parse_intermixed_args(list(args))
    if ns.explain is not None:
        return _explain(ns.explain)
    if ns.timeout is not None and not ns.timeout > 0:
        raise UsageError(f"--timeout must be a positive number of seconds, not {ns.timeout}.")
    ns.mode = None  # check chooses the era of each connection itself
    ignore = tuple(i.strip().upper() for raw in ns.ignore for i in raw.split(",") if i.strip())
    from mcp_tui.check.report import unknown_ids

    unknown = unknown_ids(ignore)
    if unknown:
        raise UsageError(
            f"--ignore {', '.join(unknown)}: no such check. The ids are listed in the docs "
            "(mcp-tui check, Rules), by mcp-tui check --explain ID, and in each finding of a "
            "report."
        )
    if ns.call is None and (ns.args is not None or ns.answers is not None):
        raise UsageError("--args and --answers go with --call TOOL.")
    arguments = parse_tool_args(ns.args) if ns.call is not None else {}
    answers = None
    if ns.answers is not None:
        from mcp_tui.config.answers import load_answers

        answers = load_answers(ns.answers)
    if ns.fuzz is not None and not ns.fuzz > 0:
        raise UsageError(f"--fuzz takes a number of argument sets above 0, not {ns.fuzz}.")
    if ns.tool and ns.fuzz is None:
        raise UsageError("--tool names a tool for --fuzz N; give --fuzz too.")
    baseline = _baseline(ns.baseline, ns.baseline_update)
    runs: tuple[LoadedFile | None, ...] = ()
    if ns.run:
        specs, runs = _file_servers(ns, command, environ)
    else:
        specs = _servers(ns, command, environ)
    settings = _settings(ns, environ)
    ignore = tuple(dict.fromkeys((*settings.check_ignore, *ignore)))
    from mcp_tui.headless.check import CheckCall, CheckOptions, check_servers
    from mcp_tui.headless.fuzz import FuzzPlan

    plan = FuzzPlan(ns.fuzz, tuple(ns.tool), ns.call_timeout) if ns.fuzz is not None else None

    timeout = ns.call_timeout if ns.no_elicitation else None
    calls = (
        (CheckCall(ns.call, arguments, answers, ns.elicit, ns.sampling, timeout),)
        if ns.call is not None
        else ()
    )

    options = CheckOptions(
        json_output=ns.json,
        strict=ns.strict or settings.check_strict,
        ignore=ignore,
        eras=tuple(ns.era),
        colour=sys.stdout.isatty() and "NO_COLOR" not in os.environ,
        calls=calls,
        fuzz=plan,
        runs=runs,
        baseline=baseline,
        no_elicitation=ns.no_elicitation,
        github=_github(ns, environ),
    )
    return check_servers(specs, headless_options(ns), options)


def _github(ns: argparse.Namespace, environ: Mapping[str, str]) -> CheckGithub | None:
    """GitHub Actions output: with ``--github``, or where ``GITHUB_ACTIONS=true``."""
    on_github = ns.github if ns.github is not None else environ.get("GITHUB_ACTIONS") == "true"
    if not on_github:
        return None
    from mcp_tui.headless.check_github import CheckGithub

    return CheckGithub(Path(environ.get("GITHUB_WORKSPACE") or "."))


def _explain(rule_id: str) -> int:
    """``--explain ID``: the rule's why and examples on stdout; no server is contacted."""
    from mcp_tui.check.rule_docs import explain, known_ids

    text = explain(rule_id.strip())
    if text is None:
        raise UsageError(f"--explain {rule_id}: no such rule. The ids: {', '.join(known_ids())}.")
    print(text)
    return 0


def _file_servers(
    ns: argparse.Namespace, command: list[str] | None, environ: Mapping[str, str]
) -> tuple[list[ServerSpec], tuple[LoadedFile | None, ...]]:
    """``--run``: every file valid first (a bad one: exit 2, nothing run), each with its server."""
    if ns.url is not None or command is not None or ns.demo or ns.server is not None:
        raise UsageError("--run FILE checks the server the test file names: give no TARGET.")
    if ns.call is not None:
        raise UsageError("--run and --call are two ways to make calls: give one of them.")
    from mcp_tui.cli.runtests import load_all
    from mcp_tui.headless.file_server import prepare_file

    prepared = [prepare_file(f, environ) for f in load_all(ns.run)]
    return [spec for _, spec in prepared], tuple(f for f, _ in prepared)


def _baseline(path: Path | None, update: bool) -> BaselineGate | None:
    """The ``--baseline`` file, read before anything connects (a bad file: exit 2)."""
    if path is None:
        if update:
            raise UsageError(
                "--baseline-update writes the file of --baseline FILE: give --baseline FILE too."
            )
        return None
    from mcp_tui.check.baseline import BaselineError, loads
    from mcp_tui.headless.check_baseline import BaselineGate

    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        if update:
            return BaselineGate(path, None, update=True)
        from mcp_tui.untrusted import command_line

        first = command_line("mcp-tui", "check", "--baseline", path, "--baseline-update")
        why = f"--baseline {path}: no such file. Write it first: {first} TARGET"
        raise UsageError(why) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"--baseline {path}: cannot be read ({exc})") from None
    try:
        return BaselineGate(path, loads(text, str(path)), update=update, text=text)
    except BaselineError as exc:
        raise UsageError(str(exc)) from None


def _settings(ns: argparse.Namespace, environ: Mapping[str, str]) -> AppSettings:
    """The config file's ``[check]`` table (defaults when there is no file)."""
    from mcp_tui.config.located import load_located_config

    _, config = load_located_config(ns.config, environ)
    return config.settings if config is not None else AppSettings()


def _servers(
    ns: argparse.Namespace, command: list[str] | None, environ: Mapping[str, str]
) -> list[ServerSpec]:
    """One server, or every enabled server of the config when it names several and no --server."""
    if ns.url is None and command is None and not ns.demo and ns.server is None:
        from mcp_tui.config.located import load_located_config

        _, config = load_located_config(ns.config, environ)
        if config is not None and len(config.default_servers()) > 1:
            return list(config.default_servers())
    return [headless_target(ns, command, environ, "check")]


__all__ = ["EXIT_CONNECTION", "build_check_parser", "run_check_command"]
