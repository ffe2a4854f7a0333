"""A pushed form is styled as it mounts and not a second time on ``ScreenResume`` (StyledOnce).

The skipped pass must be one that would have changed nothing: after the screen is shown, applying
the whole stylesheet again leaves every widget's styles as they were, for a first (cold) screen and
for the ones after it, and a screen resumed after another closed is restyled as Textual does it.
"""

from __future__ import annotations

from typing import Any

import pytest
from textual import events
from textual.app import App, ComposeResult
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Static

from mcp_tui.schema.fields import FieldKind, FieldSpec, FormSpec, Option
from mcp_tui.session.elicitation import ElicitationRequest
from mcp_tui.ui.screens.elicitation_form import ElicitationScreen
from mcp_tui.ui.screens.url_consent import UrlConsentScreen

SIZE = (100, 30)


def request(*fields: FieldSpec) -> ElicitationRequest:
    return ElicitationRequest("alpha", "Tell me", "form", form=FormSpec(fields), tool="t")


TEXT = FieldSpec("name", FieldKind.TEXT, "Name", "What we call you", required=True)
CHOICE = FieldSpec("c", FieldKind.SELECT, "Colour", options=(Option("r", "Red"), Option("g", "G")))
FLAG = FieldSpec("f", FieldKind.BOOLEAN, "Flag", default=True, has_default=True)


class Counting(ElicitationScreen):
    """Counts whole-screen restyles."""

    restyles = 0

    def update_node_styles(self, animate: bool = True) -> None:
        type(self).restyles += 1
        super().update_node_styles(animate)


class Cover(ModalScreen[None]):
    """Another screen on top, closed again (the form resumes)."""

    def compose(self) -> ComposeResult:
        yield Static("cover")


class Host(App[None]):
    pass


def styles_of(screen: Widget) -> dict[int, str]:
    return {id(w): w.styles.css for w in screen.walk_children(with_self=True)}


async def show(app: App[Any], pilot: Any, screen: ElicitationScreen) -> None:
    await app.push_screen(screen)
    for _ in range(3):
        await pilot.pause()


@pytest.mark.anyio
async def test_first_and_later_forms_are_styled_exactly_once() -> None:
    app = Host()
    restyles: list[int] = []
    async with app.run_test(size=SIZE) as pilot:
        for fields in ((TEXT,), (TEXT, CHOICE, FLAG), (TEXT, CHOICE, FLAG)):
            Counting.restyles = 0
            screen = Counting(request(*fields))
            await show(app, pilot, screen)
            restyles.append(Counting.restyles)
            before = styles_of(screen)
            app.update_styles(screen)  # the pass StyledOnce skips: must change nothing
            await pilot.pause()
            assert styles_of(screen) == before
            screen.dismiss(None)
            await pilot.pause()
    # Forms that brought new widget classes (their CSS arrives as they mount) were restyled on
    # resume as Textual does; the third met only known classes and was styled once.
    assert restyles == [1, 1, 0]


@pytest.mark.anyio
async def test_new_widget_css_during_compose_restyles_as_textual_does() -> None:
    app = Host()
    async with app.run_test(size=SIZE) as pilot:
        Counting.restyles = 0
        await show(app, pilot, Counting(request(TEXT)))  # first form: FieldRow's CSS is new
        assert Counting.restyles == 1


@pytest.mark.anyio
async def test_only_the_first_resume_is_skipped() -> None:
    app = Host()
    async with app.run_test(size=SIZE) as pilot:
        await show(app, pilot, Counting(request(TEXT)))
        screen = Counting(request(TEXT))
        await show(app, pilot, screen)
        await app.push_screen(Cover())
        await pilot.pause()
        app.pop_screen()
        await pilot.pause()
        assert app.screen is screen
        Counting.restyles = 0
        screen.post_message(events.ScreenResume())  # one that asks for a restyle
        await pilot.pause()
        await pilot.pause()
        assert Counting.restyles == 1


@pytest.mark.anyio
async def test_a_screen_whose_widgets_are_known_gets_its_own_css_path() -> None:
    """A URL consent after a form meets only known widget classes, so its pass is skipped; its
    own rules (``url_consent.tcss``) still style the screen itself. They would not as the
    screen's ``CSS_PATH``, which Textual reads only after it styled the screen being pushed."""
    app = Host()
    async with app.run_test(size=SIZE) as pilot:
        form = Counting(request(TEXT))
        await show(app, pilot, form)
        form.dismiss(None)
        await pilot.pause()
        consent = UrlConsentScreen(
            ElicitationRequest(
                "alpha", "Sign in", "url", url="https://example.com/a", elicitation_id="e1"
            )
        )
        await app.push_screen(consent)
        for _ in range(3):
            await pilot.pause()
        assert app.screen is consent
        before = styles_of(consent)
        assert "align: center middle" in before[id(consent)]
        app.update_styles(consent)  # the pass StyledOnce skipped: must change nothing
        await pilot.pause()
        assert styles_of(consent) == before
