"""The theme chosen (the palette's "Change theme") is remembered for the next start."""

from __future__ import annotations

from pathlib import Path

import pytest

from mcp_tui.config.options import AppOptions
from tests.ui.app_testkit import make_app, wait_for

pytestmark = pytest.mark.anyio


def _options(tmp_path: Path, file: Path) -> AppOptions:
    return AppOptions(stderr_log=tmp_path / "stderr.log", theme_file=file)


async def test_the_theme_chosen_is_the_theme_of_the_next_start(tmp_path: Path) -> None:
    file = tmp_path / "state" / "theme"
    app, _ = make_app(options=_options(tmp_path, file))
    async with app.run_test() as pilot:
        default = app.theme
        assert default != "nord"
        app.theme = "nord"
        await wait_for(pilot, lambda: file.exists())
    assert file.read_text(encoding="utf-8").strip() == "nord"

    again, _ = make_app(options=_options(tmp_path, file))
    async with again.run_test() as pilot:
        await pilot.pause()
        assert again.theme == "nord"


async def test_a_remembered_theme_that_no_longer_exists_is_ignored(tmp_path: Path) -> None:
    file = tmp_path / "theme"
    file.write_text("no-such-theme\n", encoding="utf-8")
    app, _ = make_app(options=_options(tmp_path, file))
    async with app.run_test() as pilot:
        await pilot.pause()
        assert app.theme != "no-such-theme"
