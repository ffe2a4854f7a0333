"""The title bar: one widget that draws what Textual's ``Header`` draws, and acts like it."""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult
from textual.command import CommandPalette
from textual.widgets import Header, Label

from mcp_tui.ui.widgets.session.title_bar import PALETTE_TOOLTIP, TitleBar
from tests.ui.svg_cells import differences

pytestmark = pytest.mark.anyio


class Bar(App[None]):
    TITLE = "mcp-tui"

    def __init__(self, *, textual_header: bool, icon: str = "⇄", sub_title: str = "") -> None:
        super().__init__()
        self.textual_header = textual_header
        self.icon = icon
        self.sub_title = sub_title

    def compose(self) -> ComposeResult:
        yield Header(icon=self.icon) if self.textual_header else TitleBar(self.icon)
        yield Label("body")


async def screenshot(size: tuple[int, int], *, hover: bool = False, **kwargs: object) -> str:
    app = Bar(**kwargs)  # type: ignore[arg-type]
    async with app.run_test(size=size) as pilot:
        if hover:  # the mouse over the icon
            await pilot.hover(Header if app.textual_header else TitleBar, offset=(2, 0))
        await pilot.pause()
        return app.export_screenshot()


@pytest.mark.parametrize(
    ("size", "sub_title"),
    [
        ((100, 5), "1 server · 1 connecting"),
        ((80, 5), "2 servers · 1 ready · 1 failed"),
        ((40, 5), "2 servers · 1 ready · 1 failed"),  # cut with an ellipsis
        ((30, 5), ""),
        ((16, 5), "3 servers"),  # no room for the title at all
    ],
)
async def test_it_draws_the_cells_textual_header_draws(
    size: tuple[int, int], sub_title: str
) -> None:
    header = await screenshot(size, textual_header=True, sub_title=sub_title)
    bar = await screenshot(size, textual_header=False, sub_title=sub_title)
    assert differences(header, bar) == []


async def test_the_icon_under_the_mouse_is_highlighted_as_in_header() -> None:
    header = await screenshot((60, 5), textual_header=True, hover=True)
    bar = await screenshot((60, 5), textual_header=False, hover=True)
    assert differences(header, bar) == []
    assert differences(bar, await screenshot((60, 5), textual_header=False)) != []


async def test_the_comparison_sees_a_different_icon() -> None:
    """The check above can fail: one different character is found."""
    header = await screenshot((60, 5), textual_header=True)
    bar = await screenshot((60, 5), textual_header=False, icon="*")
    assert len(differences(header, bar)) == 1


async def test_the_title_follows_the_sub_title() -> None:
    app = Bar(textual_header=False, sub_title="1 server · 1 connecting")
    async with app.run_test(size=(80, 5)) as pilot:
        bar = app.query_one(TitleBar)
        await pilot.pause()
        assert "1 connecting" in bar.render().plain
        app.sub_title = "1 server"
        await pilot.pause()
        assert "connecting" not in bar.render().plain
        assert "mcp-tui — 1 server" in bar.render().plain


async def test_the_icon_opens_the_palette_and_shows_why_on_hover() -> None:
    app = Bar(textual_header=False)
    async with app.run_test(size=(80, 5)) as pilot:
        bar = app.query_one(TitleBar)
        await pilot.hover(TitleBar, offset=(2, 0))
        assert bar.icon_hover and bar.tooltip == PALETTE_TOOLTIP
        await pilot.hover(TitleBar, offset=(30, 0))
        assert not bar.icon_hover and bar.tooltip is None
        await pilot.click(TitleBar, offset=(2, 0))
        await pilot.pause()
        assert isinstance(app.screen, CommandPalette)
        assert not bar.has_class("-tall")


async def test_a_click_on_the_title_makes_it_tall_and_back() -> None:
    app = Bar(textual_header=False)
    async with app.run_test(size=(80, 8)) as pilot:
        bar = app.query_one(TitleBar)
        await pilot.click(TitleBar, offset=(30, 0))
        await pilot.pause()
        assert bar.has_class("-tall") and bar.size.height == 3
        await pilot.click(TitleBar, offset=(30, 1))
        await pilot.pause()
        assert not bar.has_class("-tall") and bar.size.height == 1
