"""What a test run runs: each file's cases (and eras) chosen, as plain records.

A :class:`CasePlan` is one case on one era, a :class:`FilePlan` a file's server and the cases
chosen from it; the runner (``headless/testrun.py``) runs them, the reports name them. ``--era``
replaces a file's default eras; a case that names its own eras keeps them, and is skipped (saying
why) on an era it excludes. The file's server spec is resolved beside the runner
(``headless/file_server.py``: a ``demo = true`` server is the bundled demo's command line).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from mcp_tui.config.servers import ServerSpec
from mcp_tui.testbench.load import LoadedFile
from mcp_tui.testbench.model import Case, Era


@dataclass(frozen=True)
class CasePlan:
    """One case on one era."""

    file: LoadedFile
    index: int
    era: Era
    #: Why it does not run (``skip`` in the file, or an era it excludes); ``None``: it runs.
    skip_reason: str | None = None

    @property
    def skip(self) -> str | None:
        return self.case.skip or self.skip_reason

    @property
    def case(self) -> Case:
        return self.file.model.case[self.index]

    @property
    def id(self) -> str:
        return f"{self.file.path}::{self.case.name}[{self.era}]"


@dataclass(frozen=True)
class FilePlan:
    """A file's server (its spec without a mode) and the cases chosen to run."""

    file: LoadedFile
    spec: ServerSpec
    cases: tuple[CasePlan, ...]
    connect_timeout: float = 30.0


def file_stem(path: Path) -> str:
    name = path.name
    for suffix in (".mcptest.toml", ".mcptest.json", ".toml", ".json"):
        name = name.removesuffix(suffix)
    return name or "server"


def plan_file(
    loaded: LoadedFile,
    spec: ServerSpec,
    *,
    eras: Sequence[Era] | None = None,
    selected: Callable[[str], bool] = lambda _: True,
) -> FilePlan:
    """The cases of one file to run, each on each of its eras, in file order."""
    model = loaded.model
    cases: list[CasePlan] = []
    for index, case in enumerate(model.case):
        own = case.eras
        for era in eras if eras else model.eras_of(case):
            plan = CasePlan(loaded, index, era)
            if not selected(plan.id):
                continue
            if eras and own is not None and era not in own:
                why = f"runs on {', '.join(own)} only"
                plan = CasePlan(loaded, index, era, skip_reason=why)
            cases.append(plan)
    timeout = model.server_decl.connect_timeout
    return FilePlan(loaded, spec, tuple(cases), connect_timeout=timeout)
