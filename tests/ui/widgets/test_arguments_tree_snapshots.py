"""Snapshots of the tool-arguments tree form at 80x24 and 120x40 (issue 18).

A nested object (a required section open, an optional one folded), a list of objects with two
items filled, a variant picker (a tagged ``oneOf`` and a ``boolean | string``), and the JSON editor
with errors under it at 80x24 (it keeps its height). Update with ``--snapshot-update`` and look
at the SVGs before committing them.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from textual.app import App
from textual.pilot import Pilot
from textual.widgets import TextArea

import mcp_tui.ui.app as ui_app
from mcp_tui.ui.screens.arguments import ArgumentsScreen
from mcp_tui.ui.widgets.arguments.arguments_form import ArgumentsForm

SMALL = (80, 24)
LARGE = (120, 40)
SnapCompare = Callable[..., bool]

NESTED = {
    "type": "object",
    "properties": {
        "service": {"type": "string", "title": "Service", "description": "What to deploy"},
        "target": {
            "type": "object",
            "title": "Target",
            "properties": {
                "region": {"type": "string", "enum": ["eu-west", "us-east"], "default": "eu-west"},
                "replicas": {"type": "integer", "minimum": 1, "maximum": 9},
            },
            "required": ["region", "replicas"],
        },
        "options": {
            "type": "object",
            "title": "Options",
            "properties": {"dryRun": {"type": "boolean"}, "note": {"type": "string"}},
        },
    },
    "required": ["service", "target"],
}

ENTITIES = {
    "type": "object",
    "properties": {
        "entities": {
            "type": "array",
            "description": "People and things to remember",
            "items": {
                "type": "object",
                "properties": {
                    "name": {"type": "string"},
                    "entityType": {"type": "string"},
                    "observations": {"type": "array", "items": {"type": "string"}},
                },
                "required": ["name", "entityType"],
            },
        }
    },
    "required": ["entities"],
}

SHAPES = {
    "type": "object",
    "properties": {
        "shape": {
            "title": "Shape",
            "oneOf": [
                {
                    "type": "object",
                    "properties": {"kind": {"const": "circle"}, "radius": {"type": "number"}},
                    "required": ["kind", "radius"],
                },
                {
                    "type": "object",
                    "properties": {"kind": {"const": "square"}, "side": {"type": "number"}},
                    "required": ["kind", "side"],
                },
            ],
        },
        "fill": {"type": ["boolean", "string"], "description": "true, false or a colour"},
    },
    "required": ["shape"],
}


class Host(App[None]):
    """Shows one arguments screen, styled as in the app."""

    CSS_PATH = str(Path(ui_app.__file__).with_name("app.tcss"))

    def __init__(self, schema: dict[str, Any], **kw: Any) -> None:
        super().__init__()
        self.schema = schema
        self.kw = kw

    def on_mount(self) -> None:
        self.push_screen(ArgumentsScreen("deploy", self.schema, description="A tool.", **self.kw))


async def settle(pilot: Pilot[None]) -> None:
    await pilot.pause()
    screen = pilot.app.screen
    assert isinstance(screen, ArgumentsScreen)
    for _ in range(100):
        forms = screen.query(ArgumentsForm)
        if screen.use_editor or (forms and forms.first().rows_pending == 0):
            break
        await pilot.pause(0.02)
    await pilot.pause()


async def type_into(pilot: Pilot[None], path: tuple[Any, ...], text: str) -> None:
    form = pilot.app.screen.query_one(ArgumentsForm)
    row = form.widget_at(path)
    assert row is not None, path
    row.focus_control()  # type: ignore[attr-defined]
    await pilot.pause()
    await pilot.press(*text)


async def entities(pilot: Pilot[None]) -> None:
    await settle(pilot)
    await pilot.press("enter")  # the list's "add item" has focus: a first item
    await pilot.press(*"Ada")
    await type_into(pilot, ("entities", 0, "entityType"), "person")
    form = pilot.app.screen.query_one(ArgumentsForm)
    form.widget_at(("entities",)).query_one(".array-add").focus()  # type: ignore[union-attr]
    await pilot.pause()
    await pilot.press("enter")
    await pilot.press(*"Babbage")
    await pilot.pause()


async def shapes(pilot: Pilot[None]) -> None:
    await settle(pilot)
    await type_into(pilot, ("shape", "radius"), "2.5")
    await pilot.pause()


async def editor_errors(pilot: Pilot[None]) -> None:
    await settle(pilot)
    pilot.app.screen.query_one(TextArea).text = '{"service": 3, "target": {"replicas": 0}}'
    await pilot.press("ctrl+s")
    await pilot.pause()


CASES: dict[str, tuple[dict[str, Any], Callable[[Pilot[None]], Awaitable[None]]]] = {
    "nested": (NESTED, settle),
    "entities": (ENTITIES, entities),
    "variants": (SHAPES, shapes),
}


@pytest.mark.parametrize("size", [SMALL, LARGE], ids=["80x24", "120x40"])
@pytest.mark.parametrize("case", list(CASES))
def test_tree_form(snap_compare: SnapCompare, case: str, size: tuple[int, int]) -> None:
    schema, before = CASES[case]
    assert snap_compare(Host(schema), terminal_size=size, run_before=before)


def test_json_editor_keeps_its_height_with_errors(snap_compare: SnapCompare) -> None:
    host = Host(NESTED, initial={})
    assert snap_compare(host, terminal_size=SMALL, run_before=editor_errors)
