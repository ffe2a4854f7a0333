"""``mcp-tui test [PATH...]``: run the cases of test files against their servers, for CI.

Every file is found, read, validated and its server resolved before anything runs: a bad file
(exit 2) stops the run with nothing half-run. Then the files run (``-j N`` at a time, a server
process per file and era), a line per case as it ends, a summary with a diff for each failure,
and an exit code: 0 every case passed, 1 a case (or a setup or teardown step) failed, 2 a bad
test file or command line, 3 a server could not be started (or went away before a case could
run).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from mcp_tui.cli.runtests_args import build_test_parser
from mcp_tui.errors import EXIT_CONNECTION, EXIT_OK, EXIT_TOOL_ERROR, EXIT_USAGE, UsageError
from mcp_tui.testbench.coverage import CoverageWanted
from mcp_tui.testbench.load import LoadedFile, TestFileError, find_test_files, load_test_file
from mcp_tui.testbench.model import Era
from mcp_tui.testbench.select import compile_k

if TYPE_CHECKING:
    from mcp_tui.testbench.github_report import GithubReport


def run_test_command(args: Sequence[str], environ: Mapping[str, str]) -> int:
    ns = build_test_parser().parse_args(list(args))
    if ns.jobs < 1:
        raise UsageError(f"-j must be at least 1, not {ns.jobs}.")
    selected = compile_k(ns.k) if ns.k is not None else (lambda _: True)
    eras: list[Era] = list(dict.fromkeys(ns.era)) if ns.era else []
    if ns.fail_under is not None and not 0 <= ns.fail_under <= 100:
        raise UsageError(f"--fail-under takes a percent from 0 to 100, not {ns.fail_under:g}.")
    wanted = CoverageWanted(ns.coverage, ns.coverage_json, ns.fail_under)
    on_github = ns.github if ns.github is not None else environ.get("GITHUB_ACTIONS") == "true"

    def run() -> int:
        github = github_report(environ) if on_github else None
        try:
            return run_tests(
                ns.paths or ["."],
                environ,
                selected=selected,
                eras=eras,
                jobs=ns.jobs,
                junit=ns.junit_xml,
                json_output=ns.json,
                update=ns.update,
                quiet=ns.quiet,
                collect_only=ns.collect_only,
                traffic_log=ns.log,
                coverage=wanted,
                github=github,
            )
        finally:
            if github is not None:
                github.resume()  # however the run ended, the step's commands are back on

    if ns.watch_path and not ns.watch:
        raise UsageError("--watch-path goes with --watch: mcp-tui test --watch --watch-path DIR")
    if ns.watch:
        from mcp_tui.cli.testwatch import watch_tests

        own = [p for p in (ns.junit_xml, ns.log, ns.coverage_json) if p is not None]
        return watch_tests(run, ns.paths or ["."], ns.watch_path, own=own)
    return run()


def github_report(environ: Mapping[str, str]) -> GithubReport:
    """The GitHub output of a run: paths relative to ``GITHUB_WORKSPACE`` (else the current
    folder), the summary appended to ``GITHUB_STEP_SUMMARY`` when it is set."""
    from mcp_tui.testbench.github_report import GithubReport

    workspace = Path(environ.get("GITHUB_WORKSPACE") or ".")
    summary = environ.get("GITHUB_STEP_SUMMARY")
    return GithubReport(workspace, Path(summary) if summary else None)


def load_all(paths: Sequence[str | Path]) -> list[LoadedFile]:
    """Every test file under ``paths``, valid; one :class:`TestFileError` naming each bad one."""
    files = find_test_files(paths)
    if not files:
        where = ", ".join(str(p) for p in paths)
        raise TestFileError(f"No test files (*.mcptest.toml, *.mcptest.json) in {where}.")
    loaded: list[LoadedFile] = []
    problems: list[str] = []
    for file in files:
        try:
            loaded.append(load_test_file(file))
        except TestFileError as exc:
            problems.append(str(exc))
    if problems:
        raise TestFileError("\n".join(problems))
    return loaded


def run_tests(
    paths: Sequence[str | Path],
    environ: Mapping[str, str],
    *,
    selected: object = None,
    eras: Sequence[Era] = (),
    jobs: int = 1,
    junit: Path | None = None,
    json_output: bool = False,
    update: bool = False,
    quiet: bool = False,
    collect_only: bool = False,
    traffic_log: Path | None = None,
    coverage: CoverageWanted | None = None,
    github: GithubReport | None = None,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    out = out or sys.stdout
    err = err or sys.stderr
    from mcp_tui.headless.file_server import prepare_file
    from mcp_tui.testbench.plan import plan_file
    from mcp_tui.testbench.redact import Redactor

    prepared = [prepare_file(f, environ) for f in load_all(paths)]
    # Every value taken from the environment, masked in everything the run prints or writes.
    redactor = Redactor.union(f.secrets for f, _ in prepared)
    match = selected if callable(selected) else (lambda _: True)
    plans = [plan_file(f, spec, eras=eras, selected=match) for f, spec in prepared]
    plans = [p for p in plans if p.cases]
    total = sum(len(p.cases) for p in plans)
    if collect_only:
        for plan in plans:
            for case in plan.cases:
                print(case.id + (f"  (skip: {case.skip})" if case.skip else ""), file=out)
        print(f"{total} case(s) in {len(plans)} file(s)", file=out)
        return EXIT_OK
    if total == 0:
        print("mcp-tui: no case matches -k / --era.", file=err)
        return EXIT_USAGE

    import anyio

    from mcp_tui.headless.testrun import run_plans
    from mcp_tui.process.startup import resume_collector
    from mcp_tui.testbench import report as testreport
    from mcp_tui.testbench.json_report import write_json
    from mcp_tui.testbench.junitxml import write_junit
    from mcp_tui.testbench.result import CaseResult

    resume_collector()
    report = err if json_output else out
    if github is not None:
        github.start(report, sorted(redactor.values))  # GitHub hides them in the job's log too
    if not quiet:
        print(f"mcp-tui test: {total} case(s) in {len(plans)} file(s), -j {jobs}", file=report)

    def on_result(result: CaseResult) -> None:
        if not quiet:
            print(testreport.progress_line(redactor.value(result)), file=report, flush=True)

    from mcp_tui.session.traffic import TrafficLog

    traffic = TrafficLog(traffic_log) if traffic_log is not None else None
    started = time.perf_counter()
    try:
        results = anyio.run(run_plans, plans, jobs, on_result, traffic)
    finally:
        if traffic is not None:
            if traffic.failure:
                print(f"mcp-tui: {traffic.failure}", file=err)
            traffic.close()
    seconds = time.perf_counter() - started
    if update:
        from mcp_tui.testbench.update import update_snapshots

        results = update_snapshots(results, report, redactor)
    # From here on, only the masked results: every report is written from them.
    results = [redactor.value(r) for r in results]
    testreport.print_summary(results, seconds, report)
    if junit is not None:
        write_junit(results, seconds, junit)
    if json_output:
        write_json(results, seconds, out)
    covered, summary = True, ""
    if coverage is not None and coverage.wanted:
        from mcp_tui.testbench.coverage import coverage as coverage_of
        from mcp_tui.testbench.coverage import markdown, report_coverage, touch_of

        measured = coverage_of(touch_of(r) for r in results)
        covered = report_coverage(measured, coverage, report, err)
        summary = markdown(measured)
    if github is not None:
        github.finish(results, seconds, err, summary)
    # 3 is a server that could not be reached; a setup or teardown step that failed is the
    # server's answer, a failure of the run like any other (1).
    if any(r.unreached for r in results):
        return EXIT_CONNECTION
    if any(r.bad for r in results) or not covered:
        return EXIT_TOOL_ERROR
    return EXIT_OK
