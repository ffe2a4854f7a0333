"""A form that offers the server's own MCP App (SEP-3118 ``_meta.ui.resourceUri``): mcp-tui shows
its native form and says, above it and in the call's transcript, that the app exists and is not
shown; the app's URI is the server's text, shown inert."""

from __future__ import annotations

import pytest
from textual.app import App
from textual.widgets import Static

from mcp_tui.schema.fields import FieldKind, FieldSpec, FormSpec
from mcp_tui.session.elicitation import ElicitationOutcome, ElicitationRequest
from mcp_tui.session.elicitation_bridge import app_ui
from mcp_tui.ui.call_history import CallHistory
from mcp_tui.ui.screens.elicitation_form import ElicitationScreen

FORM = FormSpec((FieldSpec("size", FieldKind.INTEGER, "Size"),))


def request(uri: str | None, **kw: object) -> ElicitationRequest:
    return ElicitationRequest(
        server="shop", message="How many?", mode="form", form=FORM, app_ui=uri, **kw
    )


class Host(App[None]):
    def __init__(self, request: ElicitationRequest) -> None:
        super().__init__()
        self.request = request

    def on_mount(self) -> None:
        self.push_screen(ElicitationScreen(self.request))


@pytest.mark.anyio
async def test_the_form_says_the_server_offers_an_app_it_does_not_show() -> None:
    app = Host(request("ui://shop/form\x1b]0;owned\x07"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        note = app.screen.query_one("#elicitation-app-ui", Static)
        text = str(note.render())
        assert "The server also offers an app UI for this form (ui://shop/form" in text
        assert "mcp-tui does not run server apps: this is its own form." in text
        assert "\x1b" not in text and "\x07" not in text
        assert note.region.height >= 1  # on screen at 80x24, above the form


@pytest.mark.anyio
async def test_a_plain_form_has_no_such_note() -> None:
    app = Host(request(None))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert not app.screen.query("#elicitation-app-ui")


def test_the_call_transcript_says_it_too() -> None:
    history = CallHistory()
    history.started(7, "shop", "tool", "book", {})
    history.answered(
        request("ui://shop/form", call_id=7), ElicitationOutcome("accept", {"size": 2})
    )
    assert history.asked(7) == "asked: form, 1 field (its app UI not shown) → accepted {size}"


@pytest.mark.parametrize(
    ("meta", "uri"),
    [
        ({"ui": {"resourceUri": "ui://shop/form"}}, "ui://shop/form"),
        ({"ui": {"resourceUri": ""}}, None),
        ({"ui": "ui://shop/form"}, None),
        ({"ui": {"resourceUri": 3}}, None),
        (None, None),
    ],
)
def test_the_uri_is_read_from_the_requests_meta(meta: object, uri: str | None) -> None:
    assert app_ui(meta) == uri
