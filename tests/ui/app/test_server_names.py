"""A server started as ``python server.py`` is shown by the name it announces in ``serverInfo``
(``session/naming.py``), while its key (``server``: the stderr log, lookups) stays."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import msgspec
import pytest
from textual.content import Content
from textual.widgets import Input

from mcp_tui.config.options import AppOptions
from mcp_tui.config.servers import ServerSpec, StdioTarget
from mcp_tui.schema.fields import FieldKind, FieldSpec, FormSpec
from mcp_tui.session.elicitation import ElicitationRequest
from mcp_tui.session.events import CallOutcome, ConnectionState, ContentItem, Notice
from mcp_tui.ui.app import McpTuiApp
from mcp_tui.ui.screens.elicitation_form import ElicitationScreen
from mcp_tui.ui.screens.save_test import SaveTestScreen
from mcp_tui.ui.widgets.session.catalog_tree import NodeRef, server_label
from mcp_tui.ui.widgets.session.info_panel import details
from tests.ui.app_testkit import (
    FakeFactory,
    Script,
    mounted_screen,
    session_of,
    transcript_text,
    wait_for,
    wait_until,
)

pytestmark = pytest.mark.anyio


def _announcing(name: str) -> Script:
    script = Script()
    script.info = msgspec.structs.replace(script.info, name=name)
    return script


def _app() -> tuple[McpTuiApp, FakeFactory]:
    specs = [
        ServerSpec("server", StdioTarget("python", ("a/server.py",)), name_is_generic=True),
        ServerSpec("server-2", StdioTarget("python", ("b/server.py",)), name_is_generic=True),
        ServerSpec("main", StdioTarget("python", ("main.py",))),  # --name main: kept
    ]
    factory = FakeFactory(
        {
            "server": _announcing("weather"),
            "server-2": _announcing("weather"),
            "main": _announcing("calendar"),
        }
    )
    options = AppOptions(stderr_log=Path("/var/log/mcp-tui-tests/stderr.log"))
    return McpTuiApp(specs, options, connection_factory=factory), factory


async def test_a_generic_name_gives_way_to_the_announced_one() -> None:
    app, factory = _app()
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(
            pilot, lambda: all(e.state is ConnectionState.READY for e in app.entries.values())
        )
        entries = app.entries
        # the second "weather" is not a second name for one server: it keeps its key
        assert [e.shown_name for e in entries.values()] == ["weather", "server-2", "main"]
        assert list(entries) == ["server", "server-2", "main"]  # the keys stay
        assert "weather  ready" in server_label(entries["server"]).plain
        await wait_for(pilot, lambda: "server-2: ready" in transcript_text(app))
        text = transcript_text(app)
        assert "weather: ready" in text and "main: ready" in text
        assert "server-2 — calls itself 'weather'" in text
        assert "calendar 1.2.3 · protocol" in text  # --name main: its own name, as for any
        assert "shown by its serverInfo name (the command line names it server)" in text
        title, full = details(NodeRef("server", "server"), entries["server"])
        assert title == "weather"
        assert "the command line names it server" in full

        # a notice and a form from it name it so, and the form header too
        factory.latest("server").sink(Notice("server", "hello"))
        await wait_for(pilot, lambda: "weather: hello" in transcript_text(app))
        fields = (FieldSpec("city", FieldKind.TEXT, "City"),)
        request = ElicitationRequest("server", "Where?", "form", form=FormSpec(fields))
        assert app.handler is not None
        answer = asyncio.create_task(app.handler.elicit(request))
        await wait_for(pilot, lambda: isinstance(app.screen, ElicitationScreen))
        screen = app.screen
        assert isinstance(screen, ElicitationScreen)
        header = screen.header.content()
        assert isinstance(header, Content) and header.plain.startswith("Server weather asks")
        await pilot.press("escape")
        assert (await answer).action == "cancel"
        assert session_of(app) is not None


def rows(app: McpTuiApp) -> list[str]:
    """The screen's rows as a person reads them."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


def _claiming_app(announced: str) -> tuple[McpTuiApp, FakeFactory]:
    """``python server.py`` announcing ``announced``, beside a server named ``github``."""
    specs = [
        ServerSpec("server", StdioTarget("python", ("server.py",)), name_is_generic=True),
        ServerSpec("github", StdioTarget("github-mcp", ())),
    ]
    factory = FakeFactory({"server": _announcing(announced), "github": _announcing("github")})
    options = AppOptions(stderr_log=Path("/var/log/mcp-tui-tests/stderr.log"))
    return McpTuiApp(specs, options, connection_factory=factory), factory


CLAIMS = [
    "GitHub (verified)",
    "filesystem: approved by you",
    "Server github asks for input during tool call go",
    "g\u0456thub",  # a Cyrillic і among Latin letters
    "GitHub",  # the other server's key, case-folded
    "G1thub",  # ... and a look-alike of it
    "\u0430\u0440\u0440\u04cf\u0435",  # "аррӏе": all Cyrillic letters drawn like Latin ones
    "Trusted Files",
    'acme "official"',
]


@pytest.mark.parametrize("announced", CLAIMS)
async def test_a_name_that_reads_as_a_claim_is_quoted_as_the_servers_not_used_as_its_name(
    announced: str,
) -> None:
    app, factory = _claiming_app(announced)
    async with app.run_test(size=(160, 30)) as pilot:
        await wait_for(
            pilot, lambda: all(e.state is ConnectionState.READY for e in app.entries.values())
        )
        entry = app.entries["server"]
        assert entry.shown_name == "server"
        quoted = f"server — calls itself '{announced}'"
        # the transcript's "ready" line quotes it as the server's claim
        await wait_for(pilot, lambda: quoted in "\n".join(rows(app)))
        assert "● server: ready" in "\n".join(rows(app))
        # the catalog shows the key, and nowhere does mcp-tui use the claim as a name
        assert not any(row.lstrip(" ▼▶").startswith(announced) for row in rows(app))
        # the info panel (the server node selected) names it by its key and quotes the claim
        session = session_of(app)
        session.areas.catalog.select_server("server")
        await wait_for(pilot, lambda: f"calls itself '{announced}'" in "\n".join(rows(app)))
        title, full = details(NodeRef("server", "server"), entry)
        assert title == "server"
        assert f"server — calls itself '{announced}' (not its name here: " in full

        # a form from it says "Server server asks", not the claim in mcp-tui's words
        fields = (FieldSpec("city", FieldKind.TEXT, "City"),)
        request = ElicitationRequest("server", "Where?", "form", form=FormSpec(fields))
        assert app.handler is not None
        answer = asyncio.create_task(app.handler.elicit(request))
        await wait_for(pilot, lambda: isinstance(app.screen, ElicitationScreen))
        await pilot.pause()
        drawn = "\n".join(rows(app))
        assert "Server server asks" in drawn
        assert announced not in drawn
        await pilot.press("escape")
        assert (await answer).action == "cancel"
        assert factory.latest("server") is not None


@pytest.mark.parametrize(
    "announced", ["weather", "Acme CRM", "Météo", "mcp-server-git", "pkg.tools"]
)
async def test_a_product_name_is_adopted(announced: str) -> None:
    app, _ = _claiming_app(announced)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: f"● {announced}: ready" in "\n".join(rows(app)))
        assert app.entries["server"].shown_name == announced
        assert "calls itself" not in "\n".join(rows(app))
        assert f"▼ ● {announced}  ready" in "\n".join(rows(app))


def _slow(release: asyncio.Event) -> Any:
    async def run(_conn: Any, _args: Any, _call_id: int) -> CallOutcome:
        await release.wait()
        return CallOutcome(items=(ContentItem("text", text="done"),))

    return run


async def test_one_name_everywhere_a_person_reads_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 41: the argument dialog's header, the running panel, the result lines, the Ctrl+C
    picker, the default test file and the --save-answers file all say "weather", not "server"."""
    monkeypatch.chdir(tmp_path)
    release = asyncio.Event()
    script = _announcing("weather")
    script.results = {"echo": _slow(release)}
    answers = tmp_path / "answers.json"
    specs = [ServerSpec("server", StdioTarget("python", ("server.py",)), name_is_generic=True)]
    options = AppOptions(stderr_log=Path("/var/log/mcp-tui-tests/stderr.log"), save_answers=answers)
    app = McpTuiApp(specs, options, connection_factory=FakeFactory({"server": script}))

    def drawn() -> str:
        return "\n".join(rows(app))

    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.entries["server"].state is ConnectionState.READY)
        session = session_of(app)
        # the argument dialog's header
        session.forms.open_tool("server", "nested")
        await wait_for(pilot, lambda: "weather › nested" in drawn())
        assert "server ›" not in drawn()
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is session)
        # the running panel, then the Ctrl+C picker with two calls running
        first = session.calls.call_tool("server", "echo", {"text": "a"})
        second = session.calls.call_tool("server", "echo", {"text": "b"})
        await wait_for(pilot, lambda: f"#{second} weather › echo" in drawn())
        assert "server ›" not in drawn()
        await pilot.press("ctrl+c")
        await wait_for(pilot, lambda: "Cancel which call?" in drawn())
        assert f"#{first} weather › echo" in drawn() and f"#{second} weather › echo" in drawn()
        assert "server ›" not in drawn()
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is session)
        # the result lines
        release.set()
        await wait_for(pilot, lambda: f"◀ #{second} weather › echo" in transcript_text(app))
        assert f"◀ #{first} weather › echo" in transcript_text(app)
        assert "server ›" not in transcript_text(app)
        # the default test file is named after it
        session.areas.catalog.focus()
        await pilot.press("S")
        dialog = await wait_until(lambda: mounted_screen(app, SaveTestScreen), pilot=pilot)
        path = dialog.query_one("#save-test-path", Input)
        assert path.value == str(Path("tests") / "mcp" / "weather.mcptest.toml")
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is session)
        # the --save-answers file names the server as the person read it
        fields = (FieldSpec("city", FieldKind.TEXT, "City"),)
        request = ElicitationRequest("server", "Where?", "form", form=FormSpec(fields))
        assert app.handler is not None
        answer = asyncio.create_task(app.handler.elicit(request))
        await wait_for(pilot, lambda: isinstance(app.screen, ElicitationScreen))
        await pilot.press("escape")
        assert (await answer).action == "cancel"
    (saved,) = json.loads(answers.read_text())["answers"]
    assert saved["server"] == "weather"
