"""Snapshots at 80x24 of tool forms filled in with the last call's arguments: the line saying
where the values came from, F3 in the footer, a flat form and a tree form (a section and a list).
Update with ``--snapshot-update`` and look at the SVGs before committing them.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.app import App
from textual.pilot import Pilot

import mcp_tui.ui.app as ui_app
from mcp_tui.schema.arguments.last_sent import Prefill
from mcp_tui.ui.screens.arguments import ArgumentsScreen
from mcp_tui.ui.widgets.arguments.arguments_form import ArgumentsForm
from mcp_tui.ui.widgets.form.schema_form import SchemaForm

SnapCompare = Callable[..., bool]

SEARCH = {
    "type": "object",
    "properties": {
        "query": {"type": "string", "title": "Query", "description": "Words to look for"},
        "limit": {"type": "integer", "minimum": 1, "maximum": 50, "default": 10},
        "exact": {"type": "boolean", "title": "Exact match"},
    },
    "required": ["query"],
}

DEPLOY = {
    "type": "object",
    "properties": {
        "service": {"type": "string", "title": "Service"},
        "target": {
            "type": "object",
            "title": "Target",
            "properties": {
                "region": {"type": "string", "enum": ["eu-west", "us-east"]},
                "replicas": {"type": "integer", "minimum": 1, "maximum": 9},
            },
            "required": ["region", "replicas"],
        },
        "tags": {"type": "array", "items": {"type": "string", "minLength": 1}},
    },
    "required": ["service", "target"],
}

CASES: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    "flat": (SEARCH, {"query": "mcp elicitation", "limit": 25, "exact": True}),
    "tree": (
        DEPLOY,
        {
            "service": "payments-api",
            "target": {"region": "us-east", "replicas": 3},
            "tags": ["canary", "v2"],
        },
    ),
}


class Host(App[None]):
    """One arguments screen, styled as in the app, filled in from a last call."""

    CSS_PATH = str(Path(ui_app.__file__).with_name("app.tcss"))

    def __init__(self, schema: dict[str, Any], sent: dict[str, Any]) -> None:
        super().__init__()
        self.schema = schema
        self.sent = sent

    def on_mount(self) -> None:
        prefill = Prefill(self.sent, "last sent 12:03:04")
        self.push_screen(
            ArgumentsScreen("demo › search", self.schema, description="A tool.", prefill=prefill)
        )


async def settle(pilot: Pilot[None]) -> None:
    screen = pilot.app.screen
    for _ in range(200):
        if isinstance(screen, ArgumentsScreen):
            trees = screen.query(ArgumentsForm)
            if screen.query(SchemaForm) or (trees and trees.first().rows_pending == 0):
                break
        await pilot.pause(0.02)
        screen = pilot.app.screen
    await pilot.pause()


@pytest.mark.parametrize("case", list(CASES))
def test_a_form_filled_from_the_last_call(snap_compare: SnapCompare, case: str) -> None:
    schema, sent = CASES[case]
    assert snap_compare(Host(schema, sent), terminal_size=(80, 24), run_before=settle)
