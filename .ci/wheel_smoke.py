"""Checks of the installed wheel that need Python, for ``.ci/wheel``.

``contents ROOT WHEEL``: every file git tracks under ``mcp_tui/`` is in the wheel (a ``.tcss``
sheet, the test-file JSON Schema, ``py.typed``, the demo), named when one is not.

``tui VENV``: run from the fresh virtualenv, outside the checkout: the package imported is the
installed one; every module imports (each screen reads its ``.tcss`` as it is imported); the
Public Suffix List is there; the TUI opens on the demo, headless, calls ``set_preferences`` and
shows its form (``app.tcss`` and the form's sheet read), then quits.
"""

from __future__ import annotations

import asyncio
import importlib
import pkgutil
import subprocess
import sys
import zipfile
from pathlib import Path

#: What the optional extras (``chat``, ``fuzz``) and the pytest plugin (loaded by pytest) need,
#: not installed with the plain wheel.
OPTIONAL = ("pydantic_ai", "hypothesis", "hypothesis_jsonschema", "pytest")


def contents(root: Path, wheel: Path) -> int:
    tracked = subprocess.run(
        ["git", "-C", str(root), "ls-files", "mcp_tui"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    with zipfile.ZipFile(wheel) as archive:
        shipped = set(archive.namelist())
    missing = sorted(name for name in tracked if name not in shipped)
    for name in missing:
        print(f"not in {wheel.name}: {name}", file=sys.stderr)
    print(f"{len(tracked)} tracked files of mcp_tui/, {len(missing)} missing from the wheel")
    return 1 if missing else 0


def tui(venv: Path) -> int:
    import mcp_tui

    where = Path(mcp_tui.__file__).resolve()
    if venv.resolve() not in where.parents:
        print(f"mcp_tui was imported from {where}, not from {venv}", file=sys.stderr)
        return 1
    skipped = _import_everything()
    print(f"every module of mcp_tui imports (without the extras: {', '.join(skipped) or 'none'})")

    from mcp_tui.url.host_names import registrable_domain

    domain = registrable_domain("login.example.co.uk")
    if domain != "example.co.uk":
        print(f"the Public Suffix List: login.example.co.uk -> {domain!r}", file=sys.stderr)
        return 1
    print("the Public Suffix List: login.example.co.uk -> example.co.uk")
    return asyncio.run(_form_on_the_demo())


def _import_everything() -> list[str]:
    import mcp_tui

    skipped: list[str] = []
    for module in pkgutil.walk_packages(mcp_tui.__path__, "mcp_tui."):
        if module.name.endswith("__main__"):
            continue
        try:
            importlib.import_module(module.name)
        except ModuleNotFoundError as exc:
            if (exc.name or "").split(".")[0] not in OPTIONAL:
                raise
            skipped.append(module.name)
    return skipped


async def _form_on_the_demo() -> int:
    from mcp_tui.config.options import AppOptions, ToolCallRequest
    from mcp_tui.config.servers import ServerSpec, StdioTarget
    from mcp_tui.demo.server import demo_stdio_command, demo_stdio_env
    from mcp_tui.ui.app import McpTuiApp
    from mcp_tui.ui.screens.elicitation_form import ElicitationScreen

    command, *args = demo_stdio_command()
    spec = ServerSpec("demo", StdioTarget(command, tuple(args), env=demo_stdio_env()))
    app = McpTuiApp([spec], AppOptions(call=ToolCallRequest("set_preferences", {}, ask=False)))
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(600):  # up to 60 s: a cold start of the demo on a busy machine
            if isinstance(app.screen, ElicitationScreen):
                break
            await pilot.pause(0.1)
        else:
            print(f"no form after 60 s; the screen is {app.screen!r}", file=sys.stderr)
            return 1
        print(f"the TUI showed the demo's form: {type(app.screen).__name__}")
        app.exit()
    return 0


def main(argv: list[str]) -> int:
    if argv[:1] == ["contents"] and len(argv) == 3:
        return contents(Path(argv[1]), Path(argv[2]))
    if argv[:1] == ["tui"] and len(argv) == 2:
        return tui(Path(argv[1]))
    print("usage: wheel_smoke.py contents ROOT WHEEL | tui VENV", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
