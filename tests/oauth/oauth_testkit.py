"""Helpers for the OAuth tests: the fixture server, a browser stand-in, a consenting user.

Imported as ``tests.oauth.oauth_testkit`` (the repository root is on ``sys.path``: pytest's
``pythonpath``).
"""

from __future__ import annotations

import logging
import shlex
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

import anyio

from mcp_tui.session.events import SessionEvent
from mcp_tui.session.oauth.authorization import (
    AuthorizationAction,
    AuthorizationOutcome,
    AuthorizationRequest,
)
from mcp_tui.url.browser import open_url_async
from mcp_tui.url.check import check_url
from tests.fixture_kit import load_by_path

if TYPE_CHECKING:  # the conformance harness's client imports this kit: no pytest at run time
    import pytest

if not logging.getLogger().handlers:
    logging.getLogger().addHandler(logging.NullHandler())

HERE = Path(__file__).resolve().parent
FIXTURES = HERE / "fixtures"
FOLLOW_BROWSER = FIXTURES / "follow_browser.py"


def load_fixture(name: str) -> ModuleType:
    """Import ``tests/oauth/fixtures/<name>.py`` by path (tests are not a package)."""
    return load_by_path(f"mcp_tui_oauth_fixture_{name}", FIXTURES / f"{name}.py")


def browser_command() -> str:
    """``$BROWSER`` for the follow-the-flow script (``%s`` is where the URL goes)."""
    return f"{shlex.quote(sys.executable)} {shlex.quote(str(FOLLOW_BROWSER))} %s"


@dataclass
class FakeBrowser:
    """``BROWSER`` pointed at ``follow_browser.py``; ``visits()`` reads what it requested."""

    log: Path

    def visits(self) -> list[str]:
        try:
            return self.log.read_text(encoding="utf-8").splitlines()
        except FileNotFoundError:
            return []


def use_fake_browser(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, *, tamper_state: bool = False
) -> FakeBrowser:
    log = tmp_path / "browser.log"
    monkeypatch.setenv("BROWSER", browser_command())
    monkeypatch.setenv("FOLLOW_LOG", str(log))
    if tamper_state:
        monkeypatch.setenv("FOLLOW_TAMPER_STATE", "1")
    return FakeBrowser(log)


@dataclass
class ConsentingUser:
    """An ``AuthorizationHandler`` playing the person at the consent screen.

    It does what the TUI's handler does, minus the drawing: checks the URL with ``check_url``
    (refusing what the screen would refuse), answers ``decision``, and on ``accept`` opens the
    URL with the real opener (``$BROWSER``) and waits for the redirect. ``paste`` makes it paste
    this address instead of opening a browser. A refused arrival (wrong ``state``) makes it give
    up when ``give_up_on_refusal`` is set, as a person would press Cancel.
    """

    decision: AuthorizationAction = "accept"
    paste: str | None = None
    give_up_on_refusal: bool = True
    wait_seconds: float = 30.0
    requests: list[AuthorizationRequest] = field(default_factory=list)
    refusals: list[str] = field(default_factory=list)
    paste_errors: list[str | None] = field(default_factory=list)

    async def authorize(self, request: AuthorizationRequest) -> AuthorizationOutcome:
        self.requests.append(request)
        if self.decision != "accept":
            return AuthorizationOutcome(self.decision)
        verdict = check_url(request.url)
        if not verdict.allowed:
            return AuthorizationOutcome("decline", "; ".join(verdict.reasons))
        refused = anyio.Event()

        def on_refused(reason: str) -> None:
            self.refusals.append(reason)
            refused.set()

        request.redirect.on_refused(on_refused)
        if self.paste is not None:
            self.paste_errors.append(request.redirect.paste(self.paste))
        else:
            opened = await open_url_async(verdict)
            if not opened.opened:
                return AuthorizationOutcome("cancel", opened.error)
        outcome: AuthorizationOutcome | None = None
        async with anyio.create_task_group() as tg:

            async def redirect() -> None:
                nonlocal outcome
                await request.redirect.wait()
                outcome = AuthorizationOutcome("accept")
                tg.cancel_scope.cancel()

            async def refusal() -> None:
                nonlocal outcome
                if not self.give_up_on_refusal:
                    return
                await refused.wait()
                outcome = AuthorizationOutcome("cancel", "a refused redirect")
                tg.cancel_scope.cancel()

            tg.start_soon(redirect)
            tg.start_soon(refusal)
            with anyio.move_on_after(self.wait_seconds):
                await anyio.sleep_forever()
            tg.cancel_scope.cancel()
        return outcome or AuthorizationOutcome("cancel", "no redirect in time")


@dataclass
class Recorder:
    """An ``EventSink`` that keeps every event."""

    events: list[SessionEvent] = field(default_factory=list)

    def __call__(self, event: SessionEvent) -> None:
        self.events.append(event)

    def texts(self) -> list[str]:
        return [str(getattr(e, "text", "")) for e in self.events]


@asynccontextmanager
async def running(conn: Any) -> AsyncIterator[Any]:
    """Run a ``ServerConnection`` in a task group; closed on exit."""
    async with anyio.create_task_group() as tg:
        tg.start_soon(conn.run)
        try:
            yield conn
        finally:
            await conn.close()
