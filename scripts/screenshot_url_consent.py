"""Write ``screenshots/url-consent.svg``: the URL consent screen with warnings, at 80×24.

Run from anywhere: ``python scripts/screenshot_url_consent.py [OUTPUT.svg]``. Nothing is opened
and nothing is fetched: the screen is only drawn.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from textual.app import App, ComposeResult  # noqa: E402
from textual.widgets import Static  # noqa: E402

from mcp_tui.session.elicitation import ElicitationRequest  # noqa: E402
from mcp_tui.ui.screens.url_consent import UrlConsentScreen  # noqa: E402

SAMPLE = ElicitationRequest(
    server="github-tools",
    message="To list your private repositories, sign in to GitHub and authorise mcp-tui.",
    mode="url",
    url="https://login.xn--80ak6aa92e.com:8443/oauth/authorize?client_id=mcp-tui"
    "&state=8f3a9c2e7d1b4a6f&scope=repo%20read%3Auser",
    elicitation_id="el-7",
    tool="list_repos",
)


class _Host(App[None]):
    def compose(self) -> ComposeResult:
        yield Static("")

    def on_mount(self) -> None:
        self.push_screen(UrlConsentScreen(SAMPLE))


async def capture(output: Path, size: tuple[int, int] = (80, 24)) -> Path:
    """Draw the sample request and save it as SVG."""
    app = _Host()
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        svg = app.export_screenshot(title="mcp-tui: open a web page?")
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(svg, encoding="utf-8")
    return output


def main() -> None:
    output = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "screenshots" / "url-consent.svg"
    print(asyncio.run(capture(output)))


if __name__ == "__main__":
    main()
