"""The GitHub Action (``action.yml``): valid metadata by SchemaStore's schema (vendored in
``tests/fixtures/schemastore/``: no network), inputs reaching its scripts only through the
environment, and its scripts doing what its inputs say, run here with bash (the network steps with
a stand-in ``python``). The job of the README and of the docs' CI page uses it as it is."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from mcp_tui import DISTRIBUTION, __version__
from mcp_tui.testbench.load import load_test_file

ROOT = Path(__file__).resolve().parent.parent
ACTION = ROOT / "action.yml"
SCHEMA = ROOT / "tests" / "fixtures" / "schemastore" / "github-action.json"

needs_bash = pytest.mark.skipif(shutil.which("bash") is None, reason="the Action's steps are bash")


def _action() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(ACTION.read_text(encoding="utf-8"))
    return data


def _steps() -> dict[str, dict[str, Any]]:
    return {step["name"]: step for step in _action()["runs"]["steps"]}


def test_action_yml_is_valid_by_the_github_action_schema() -> None:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    jsonschema.Draft7Validator.check_schema(schema)
    errors = sorted(jsonschema.Draft7Validator(schema).iter_errors(_action()), key=str)
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors)


def test_the_schema_refuses_what_the_runner_refuses() -> None:
    """The vendored schema holds the rules that matter (so the test above means something)."""
    validator = jsonschema.Draft7Validator(json.loads(SCHEMA.read_text(encoding="utf-8")))
    action = _action()
    broken = json.loads(json.dumps(action))
    del broken["runs"]["steps"][1]["shell"]  # a composite run step needs its shell
    assert not validator.is_valid(broken)
    del action["description"]
    assert not validator.is_valid(action)


def test_inputs_reach_the_scripts_only_through_the_environment() -> None:
    """No ``${{ }}`` inside a ``run:`` (an input pasted into a script is script injection);
    every input is declared once and used, and every output comes from a step that writes it."""
    action = _action()
    declared = set(action["inputs"])
    text = ACTION.read_text(encoding="utf-8")
    used = set(re.findall(r"inputs\.([A-Za-z0-9_-]+)", text))
    assert used == declared
    steps = action["runs"]["steps"]
    for step in steps:
        if "run" in step:
            assert "${{" not in step["run"], step["name"]
            assert step["shell"] == "bash"
    ids = {step.get("id"): step for step in steps}
    for name, output in action["outputs"].items():
        found = re.fullmatch(r"\$\{\{ steps\.(\w+)\.outputs\.([\w-]+) \}\}", output["value"])
        assert found, name
        step_id, key = found.groups()
        assert f'echo "{key}=' in ids[step_id]["run"], name


def test_the_action_installs_the_release_it_is_tagged_with() -> None:
    inputs = _action()["inputs"]
    assert inputs["version"]["default"] == __version__
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["urls"]["Source"] == "https://github.com/mcp-tui-client/mcp-tui-client"


# ---- the scripts, run ---------------------------------------------------------------------------


def _fake_python(folder: Path, record: Path) -> Path:
    """A ``python`` that records what it was asked (one JSON line); ``-m venv DIR`` makes a venv
    of copies of itself and an ``mcp-tui`` that prints its arguments."""
    bin_dir = folder / "bin"
    bin_dir.mkdir(parents=True)
    script = bin_dir / "python"
    script.write_text(
        f"#!{sys.executable}\n"
        "import json, os, shutil, sys\n"
        f"open({str(record)!r}, 'a').write(json.dumps([os.getcwd(), sys.argv[1:]]) + '\\n')\n"
        "if sys.argv[1:3] == ['-m', 'venv']:\n"
        "    b = os.path.join(sys.argv[3], 'bin'); os.makedirs(b)\n"
        "    shutil.copy(sys.argv[0], os.path.join(b, 'python'))\n"
        "    t = os.path.join(b, 'mcp-tui')\n"
        "    open(t, 'w').write('#!/bin/sh\\necho mcp-tui \"$@\"\\n')\n"
        "    os.chmod(t, 0o755)\n",
        encoding="utf-8",
    )
    script.chmod(0o755)
    return bin_dir


def _run_step(name: str, env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", "-c", _steps()[name]["run"]],
        env={**os.environ, **env},
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def _outputs(path: Path) -> dict[str, str]:
    lines = path.read_text(encoding="utf-8").splitlines() if path.exists() else []
    return dict(line.split("=", 1) for line in lines)


@needs_bash
@pytest.mark.parametrize(
    ("version", "spec"),
    [
        ("0.1.0", f"{DISTRIBUTION}==0.1.0"),
        (">=0.1,<0.2", f"{DISTRIBUTION}>=0.1,<0.2"),
        ("action", "ACTION_PATH"),
    ],
)
def test_mcp_tui_is_installed_in_a_virtualenv_of_its_own(
    tmp_path: Path, version: str, spec: str
) -> None:
    record = tmp_path / "calls.jsonl"
    fake = _fake_python(tmp_path / "py", record)
    env = {
        "PATH": f"{fake}{os.pathsep}{os.environ['PATH']}",
        "RUNNER_TEMP": str(tmp_path / "temp"),
        "RUNNER_OS": "Linux",
        "GITHUB_ENV": str(tmp_path / "github_env"),
        "MCP_TUI_VERSION": version,
        "MCP_TUI_ACTION_PATH": str(ROOT),
    }
    done = _run_step("Install mcp-tui", env, tmp_path)
    assert done.returncode == 0, done.stderr
    venv = tmp_path / "temp" / "mcp-tui-venv"
    calls = [json.loads(line)[1] for line in record.read_text(encoding="utf-8").splitlines()]
    assert calls[0] == ["-m", "venv", str(venv)]
    assert calls[1][-1] == (str(ROOT) if spec == "ACTION_PATH" else spec)
    assert calls[1][:3] == ["-m", "pip", "install"]
    assert _outputs(tmp_path / "github_env") == {"MCP_TUI_BIN": f"{venv}/bin/mcp-tui"}
    assert done.stdout.strip() == "mcp-tui --version"


@needs_bash
@pytest.mark.parametrize(
    ("files", "installed"),
    [
        ({"pyproject.toml": ""}, [["-e", "."]]),
        ({"requirements.txt": "mcp\n"}, [["-r", "requirements.txt"]]),
        ({"setup.py": "", "requirements.txt": ""}, [["-e", "."], ["-r", "requirements.txt"]]),
        ({"server.py": ""}, [["mcp"]]),  # a one-file script server: the SDK it imports
    ],
)
def test_install_auto_installs_a_package_its_requirements_or_the_sdk(
    tmp_path: Path, files: dict[str, str], installed: list[list[str]]
) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    for name, text in files.items():
        (repo / name).write_text(text, encoding="utf-8")
    record = tmp_path / "calls.jsonl"
    fake = _fake_python(tmp_path / "py", record)
    env = {"PATH": f"{fake}{os.pathsep}{os.environ['PATH']}", "MCP_TUI_INSTALL": "auto"}
    done = _run_step("Install the server", env, repo)
    assert done.returncode == 0, done.stderr
    calls = [json.loads(line) for line in record.read_text(encoding="utf-8").splitlines()]
    assert [cwd for cwd, _ in calls] == [str(repo)] * len(installed)
    prefix = ["-m", "pip", "install", "--disable-pip-version-check"]
    assert [argv for _, argv in calls] == [prefix + words for words in installed]


@needs_bash
def test_the_test_step_runs_mcp_tui_on_the_paths_and_eras_and_reports_its_exit_code(
    tmp_path: Path,
) -> None:
    out = tmp_path / "github_output"
    env = {
        "RUNNER_TEMP": str(tmp_path / "temp"),
        "RUNNER_OS": "Linux",
        "GITHUB_JOB": "mcp-tests",
        "GITHUB_OUTPUT": str(out),
        "GITHUB_STEP_SUMMARY": str(tmp_path / "summary.md"),
        "GITHUB_WORKSPACE": str(ROOT),
        "GITHUB_ACTIONS": "true",
        "MCP_TUI_BIN": str(Path(sys.executable).with_name("mcp-tui")),
        "MCP_TUI_PATHS": "examples/demo/forms.mcptest.toml",
        "MCP_TUI_ERAS": "2025-11-25 2026-07-28",
        "MCP_TUI_ARGS": '-k "defaults and accepted" -q',
        "MCP_TUI_ARTIFACT": "",
    }
    done = _run_step("Run the MCP test files", env, ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "2 passed" in done.stdout  # one case (-k with a quoted phrase), on both eras
    results = tmp_path / "temp" / "mcp-tui-mcp-tests-2025-11-25-2026-07-28-Linux"
    assert _outputs(out) == {
        "junit-xml": f"{results}/mcp-tests.xml",
        "log": f"{results}/traffic.jsonl",
        "artifact": "mcp-tests-mcp-tests-2025-11-25-2026-07-28-Linux",
        "exit-code": "0",
    }
    assert (results / "mcp-tests.xml").is_file() and (results / "traffic.jsonl").is_file()
    assert "mcp-tui test: 2 passed" in (tmp_path / "summary.md").read_text(encoding="utf-8")

    env["MCP_TUI_PATHS"] = "no/such/folder"
    failed = _run_step(
        "Run the MCP test files", {**env, "GITHUB_OUTPUT": str(tmp_path / "o2")}, ROOT
    )
    assert failed.returncode == 2
    assert _outputs(tmp_path / "o2")["exit-code"] == "2"


# ---- the job of the README and of the docs' CI page ---------------------------------------------

#: Where a job is shown to be copied: the file, and the heading of its section.
JOBS = [("README.md", "### In CI\n"), ("docs/testing/ci.md", "# CI and the GitHub Action\n")]


def _readme_ci_blocks(page: str, heading: str) -> tuple[dict[str, Any], str]:
    text = (ROOT / page).read_text(encoding="utf-8")
    section = text.split(heading, 1)[1].split("\n## ", 1)[0]
    workflow = re.search(r"```yaml\n(.*?)```", section, re.DOTALL)
    test_file = re.search(r"```toml\n(.*?)```", section, re.DOTALL)
    assert workflow and test_file
    return yaml.safe_load(workflow.group(1)), test_file.group(1)


@pytest.mark.parametrize(("page", "heading"), JOBS)
def test_the_readmes_job_uses_the_action_at_this_release_with_its_inputs(
    page: str, heading: str
) -> None:
    workflow, _ = _readme_ci_blocks(page, heading)
    [job] = workflow["jobs"].values()
    uses = [step for step in job["steps"] if "mcp-tui" in step.get("uses", "")]
    [step] = uses
    assert step["uses"] == f"mcp-tui-client/mcp-tui-client@v{__version__}"
    assert set(step["with"]) <= set(_action()["inputs"])
    assert "OWNER" not in json.dumps(workflow)


@pytest.mark.parametrize(("page", "heading"), JOBS)
def test_the_readmes_test_file_is_a_valid_test_file_with_a_server_command(
    tmp_path: Path, page: str, heading: str
) -> None:
    _, text = _readme_ci_blocks(page, heading)
    path = tmp_path / "server.mcptest.toml"
    path.write_text(text, encoding="utf-8")
    loaded = load_test_file(path)
    assert loaded.model.server is not None
    assert list(loaded.model.server.command or []) == ["python", "server.py"]


# ---- the README's job, run as a runner would run it ---------------------------------------------

#: The user's whole server, beside the two files the README says to copy.
ONE_FILE_SERVER = '''\
from mcp.server.mcpserver import MCPServer

mcp = MCPServer("adder")


@mcp.tool()
def add(a: int, b: int) -> int:
    """Add two numbers."""
    return a + b


if __name__ == "__main__":
    mcp.run()
'''


def _stand_in_python(folder: Path, record: Path) -> Path:
    """A ``python`` first on the PATH: ``-m pip`` is written down (no network), ``-m venv DIR``
    makes a venv whose ``mcp-tui`` is this one, anything else is this Python (the server)."""
    bin_dir = folder / "bin"
    bin_dir.mkdir(parents=True)
    script = bin_dir / "python"
    real_mcp_tui = Path(sys.executable).with_name("mcp-tui")
    script.write_text(
        f"#!{sys.executable}\n"
        "import json, os, sys\n"
        "argv = sys.argv[1:]\n"
        "if argv[:2] == ['-m', 'pip']:\n"
        f"    open({str(record)!r}, 'a').write(json.dumps(argv) + '\\n')\n"
        "    sys.exit(0)\n"
        "if argv[:2] == ['-m', 'venv']:\n"
        "    b = os.path.join(argv[2], 'bin'); os.makedirs(b)\n"
        "    os.symlink(sys.argv[0], os.path.join(b, 'python'))\n"
        f"    os.symlink({str(real_mcp_tui)!r}, os.path.join(b, 'mcp-tui'))\n"
        "    sys.exit(0)\n"
        f"os.execv({sys.executable!r}, [{sys.executable!r}, *argv])\n",
        encoding="utf-8",
    )
    script.chmod(0o755)
    return bin_dir


def _expression(text: str, inputs: dict[str, str], outputs: dict[str, str]) -> str:
    """``${{ inputs.X }}``, ``${{ github.action_path }}``, ``${{ steps.S.outputs.K }}``."""

    def value(m: re.Match[str]) -> str:
        name = m.group(1)
        if name == "github.action_path":
            return str(ROOT)
        if name.startswith("inputs."):
            return inputs[name.removeprefix("inputs.")]
        if name.startswith("steps."):
            return outputs.get(name.rsplit(".", 1)[1], "")
        raise AssertionError(f"an expression this runner does not know: {name}")

    return re.sub(r"\$\{\{\s*([\w.-]+)\s*\}\}", value, text)


def _condition(text: str, inputs: dict[str, str], outputs: dict[str, str]) -> bool:
    """The ``if:`` forms action.yml uses: ``always()``, ``X != 'v'``, joined by ``&&``."""
    result = True
    for part in text.split("&&"):
        part = part.strip()
        if part == "always()":
            continue
        m = re.fullmatch(r"([\w.-]+) != '([^']*)'", part)
        assert m, f"an if: this runner does not know: {part}"
        result = result and _expression(f"${{{{ {m.group(1)} }}}}", inputs, outputs) != m.group(2)
    return result


@needs_bash
@pytest.mark.timeout(120)
def test_the_readmes_job_copied_into_a_repository_with_a_one_file_server_passes(
    tmp_path: Path,
) -> None:
    """The README's two files copied as they are, beside a one-file server: the job's steps run
    in order, the Action's composite steps with the README's inputs (the setup-python and
    upload-artifact actions and the network are left out), and the run passes on both eras with
    the step summary, the JUnit report and the outputs the job page shows."""
    workflow, test_file = _readme_ci_blocks(*JOBS[0])
    assert (workflow, test_file) == _readme_ci_blocks(*JOBS[1]), "the docs show the same job"
    repo = tmp_path / "repo"
    where = re.match(r"# (\S+)\n", test_file)
    assert where, "the test file's block names its path"
    (repo / where.group(1)).parent.mkdir(parents=True)
    (repo / where.group(1)).write_text(test_file, encoding="utf-8")
    (repo / "server.py").write_text(ONE_FILE_SERVER, encoding="utf-8")
    pip = tmp_path / "pip.jsonl"
    fake = _stand_in_python(tmp_path / "py", pip)
    github_env, github_output = tmp_path / "github_env", tmp_path / "github_output"
    summary = tmp_path / "summary.md"
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("GITHUB_")},
        "PATH": f"{fake}{os.pathsep}{os.environ['PATH']}",
        "GITHUB_ACTIONS": "true",
        "GITHUB_WORKSPACE": str(repo),
        "GITHUB_JOB": "mcp-tests",
        "GITHUB_ENV": str(github_env),
        "GITHUB_OUTPUT": str(github_output),
        "GITHUB_STEP_SUMMARY": str(summary),
        "RUNNER_TEMP": str(tmp_path / "temp"),
        "RUNNER_OS": "Linux",
    }
    [job] = workflow["jobs"].values()
    ran: list[str] = []
    test_run: subprocess.CompletedProcess[str] | None = None
    for job_step in job["steps"]:
        uses = job_step["uses"]
        if uses.startswith("actions/checkout@"):
            continue  # the repository is the folder the steps run in
        assert uses.startswith("mcp-tui-client/mcp-tui-client@"), uses
        declared = _action()["inputs"]
        inputs = {k: str(v.get("default", "")) for k, v in declared.items()}
        inputs |= {k: str(v) for k, v in job_step.get("with", {}).items()}
        outputs: dict[str, str] = {}
        for step in _action()["runs"]["steps"]:
            if "if" in step and not _condition(step["if"], inputs, outputs):
                continue
            if "uses" in step:
                assert step["uses"].split("@")[0] in (
                    "actions/setup-python",
                    "actions/upload-artifact",
                )
                ran.append(step["uses"].split("@")[0])
                continue
            step_env = {k: _expression(str(v), inputs, outputs) for k, v in step["env"].items()}
            step_env |= _outputs(github_env)
            done = subprocess.run(
                ["bash", "-c", step["run"]],
                env={**env, **step_env},
                cwd=repo,
                capture_output=True,
                text=True,
                timeout=90,
                check=False,
            )
            ran.append(step["name"])
            assert done.returncode == 0, f"{step['name']}:\n{done.stdout}{done.stderr}"
            if step.get("id") == "test":
                outputs = _outputs(github_output)
                test_run = done
    assert ran == [
        "actions/setup-python",
        "Install mcp-tui",
        "Install the server",
        "Run the MCP test files",
        "actions/upload-artifact",
    ]
    assert [json.loads(line)[-1] for line in pip.read_text().splitlines()] == [
        f"{DISTRIBUTION}=={__version__}",
        "mcp",  # a one-file script server: the SDK it imports
    ]
    assert test_run is not None
    assert "PASS  tests/mcp/server.mcptest.toml::adds two numbers[2025-11-25]" in test_run.stdout
    assert "PASS  tests/mcp/server.mcptest.toml::adds two numbers[2026-07-28]" in test_run.stdout
    assert outputs["exit-code"] == "0"
    assert Path(outputs["junit-xml"]).is_file() and Path(outputs["log"]).is_file()
    table = [
        line for line in summary.read_text(encoding="utf-8").splitlines() if line.startswith("|")
    ]
    assert table[0].startswith("| test file | cases | passed |")
    row = [cell.strip() for cell in table[2].strip("|").split("|")]
    assert row[:3] == ["`tests/mcp/server.mcptest.toml`", "2", "2"], table
