"""``[keys]`` applied: the person's keys run the bindings, everywhere the keys are shown.

The config checks ids against ``config/keys.py``'s list (tests/config/test_config_keys.py); here
that list is compared with the bindings themselves, in both directions, and with the docs' Keys
page. A key of one class must carry one binding id: Textual's keymap takes a key away from every
binding on it when one of them moves, so a second id on that key would lose its key silently.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
from pathlib import Path

import pytest
from textual.binding import Binding
from textual.dom import DOMNode

import mcp_tui.ui
from mcp_tui.config.keys import BINDING_IDS
from mcp_tui.config.options import AppOptions
from mcp_tui.session.events import ConnectionState
from mcp_tui.ui.app import McpTuiApp
from mcp_tui.ui.app.help import help_rows
from mcp_tui.ui.app.palette import key_for
from mcp_tui.ui.widgets.key_footer import KeyFooter
from tests.ui.app_testkit import make_app, session_of, wait_for

pytestmark = pytest.mark.anyio
KEYS_PAGE = Path(__file__).resolve().parents[3] / "docs" / "keys.md"
STDERR = Path("/var/log/mcp-tui-tests/stderr.log")


def ui_classes() -> list[type[DOMNode]]:
    """Every screen and widget class of mcp-tui (each module imported, as the help does)."""
    found: list[type[DOMNode]] = []
    for info in pkgutil.walk_packages(mcp_tui.ui.__path__, "mcp_tui.ui."):
        module = importlib.import_module(info.name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ == module.__name__ and issubclass(cls, DOMNode):
                found.append(cls)
    return found


def test_the_config_knows_exactly_the_ids_the_bindings_have() -> None:
    ids = {
        binding.id
        for cls in ui_classes()
        for binding in Binding.make_bindings(vars(cls).get("BINDINGS", []))
        if binding.id is not None
    }
    assert ids - BINDING_IDS == set(), "ids to add to config/keys.py's BINDING_IDS"
    assert BINDING_IDS - ids == set(), "ids in config/keys.py that no binding has"


def test_no_key_of_a_class_carries_two_binding_ids() -> None:
    shared = []
    for cls in ui_classes():
        for key, bindings in cls._merge_bindings().key_to_bindings.items():
            ids = {binding.id for binding in bindings}
            if len(ids) > 1:
                shared.append(f"{cls.__name__} {key}: {sorted(map(str, ids))}")
    assert shared == []


def test_the_keys_page_lists_every_binding_id() -> None:
    text = KEYS_PAGE.read_text(encoding="utf-8")
    section = text[text.index("## Your own keys") :]
    listed = set(re.findall(r"`([a-z_]+\.[a-z_0-9]+)`", section))
    assert BINDING_IDS - listed == set()


def keyed_app(keymap: dict[str, str]) -> McpTuiApp:
    app, _ = make_app(options=AppOptions(stderr_log=STDERR, keymap=keymap))
    return app


async def ready(pilot: object, app: McpTuiApp) -> None:
    await wait_for(pilot, lambda: app.entries["demo"].state is ConnectionState.READY)  # type: ignore[arg-type]
    await wait_for(pilot, lambda: session_of(app).areas.panels_ready)  # type: ignore[arg-type]


def notes(app: McpTuiApp) -> list[str]:
    return [str(n.message) for n in app._notifications]


async def test_a_rebound_key_runs_its_binding_and_the_old_key_no_longer_does() -> None:
    app = keyed_app({"session.refresh": "f5"})
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(pilot, app)
        await pilot.press("r")
        await pilot.pause()
        assert not any("Refreshing" in n for n in notes(app))
        await pilot.press("f5")
        await wait_for(pilot, lambda: any("Refreshing demo" in n for n in notes(app)))


async def test_the_footer_the_palette_and_the_help_show_the_persons_keys() -> None:
    app = keyed_app({"session.toggle_traffic": "f7", "app.help": "f2"})
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(pilot, app)
        session = session_of(app)
        footer = app.screen.query_one(KeyFooter).render().plain
        assert "f7 Traffic" in footer and "f2 Help" in footer
        assert "t Traffic" not in footer and "? Help" not in footer
        assert key_for(session, "toggle_traffic") == "f7"
        rows = [(first, second) for kind, first, second in help_rows(app) if kind == "row"]
        traffic = [keys for keys, does in rows if "the traffic view" in does]
        assert traffic == ["F7"], rows
        assert any(keys == "F2 / F1" for keys, _ in rows)  # ? moved to F2; F1 is its own id


async def test_the_catalogs_enter_moves_with_all_its_meanings() -> None:
    """``catalog.call`` is Enter on a tool, a prompt, a resource, a template and a server: all
    five move together (with five ids, the server's open/close lost its key)."""
    app = keyed_app({"catalog.call": "f9"})
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(pilot, app)
        catalog = session_of(app).areas.catalog
        catalog.focus()
        server = catalog.cursor_node
        assert server is not None and server.data is not None
        opened = server.is_expanded
        await pilot.press("f9")
        await wait_for(pilot, lambda: server.is_expanded is not opened)


async def test_a_key_taken_from_another_binding_is_said_once() -> None:
    app = keyed_app({"session.refresh": "t"})
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(pilot, app)
        await pilot.press("t")
        await wait_for(pilot, lambda: any("Refreshing demo" in n for n in notes(app)))
        taken = [n for n in notes(app) if "[keys] gave t to another binding" in n]
        assert len(taken) == 1 and "session.toggle_traffic" in taken[0], notes(app)
