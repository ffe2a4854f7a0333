"""When ``call``/``list`` consider the catalog listed: the rules of the engine's
``FirstListing`` and ``RunEvents.first_listing``'s warning, fed events directly (no server)."""

from __future__ import annotations

import io
from dataclasses import dataclass

import anyio
import pytest

from mcp_tui.headless import engine
from mcp_tui.headless.engine import FirstListing
from mcp_tui.headless.run import RunEvents
from mcp_tui.session.events import (
    CatalogChanged,
    ConnectionState,
    PromptInfo,
    ServerStateChanged,
    ToolInfo,
)


@dataclass
class FakeConnection:
    name: str = "s"
    state: ConnectionState = ConnectionState.READY


async def first_listing(run: FirstListing, conn: FakeConnection) -> bool:
    """``run.wait``, failing the test (instead of hanging) if it does not return."""
    with anyio.fail_after(5):
        return await run.wait(conn)  # type: ignore[arg-type]


@dataclass
class FakeServer:
    """What ``RunEvents.first_listing`` reads of a ``HeadlessServer``."""

    listing: FirstListing
    conn: FakeConnection

    async def first_listing(self) -> bool:
        return await first_listing(self.listing, self.conn)

    @property
    def listed(self) -> bool:
        return self.listing.listed


@pytest.mark.anyio
async def test_a_prompts_refresh_alone_is_not_the_first_listing() -> None:
    """A ``list_changed`` refresh of prompts may land before the first full listing; the tools
    are not in yet, so a call must keep waiting."""
    run = FirstListing()
    run.see(CatalogChanged("s", prompts=(PromptInfo("p"),)))
    assert not run.listed and not run.tools_listed
    run.see(CatalogChanged("s", tools=(ToolInfo("t"),), prompts=(), resources=(), full=True))
    assert run.listed and run.tools_listed
    assert await first_listing(run, FakeConnection())


def test_a_tools_refresh_alone_is_not_the_first_listing() -> None:
    """server-everything sends ``tools/list_changed`` as it starts: the refresh of the tools can
    end before the first listing's prompts and resources are in, and ``list`` must not print
    then (it printed "prompts (0)" and "resources (0)" for a server with both)."""
    run = FirstListing()
    run.see(CatalogChanged("s", tools=(ToolInfo("t"),)))
    assert run.tools_listed and not run.listed
    run.see(CatalogChanged("s", tools=(ToolInfo("t"),), prompts=(), resources=(), full=True))
    assert run.listed


@pytest.mark.anyio
async def test_a_failed_tools_listing_still_ends_the_wait() -> None:
    """The first listing with its tools part failed (``tools=None``): go on, without tools."""
    run = FirstListing()
    run.see(CatalogChanged("s", tools=None, prompts=(), resources=(), full=True))
    assert run.listed and not run.tools_listed
    assert await first_listing(run, FakeConnection())


@pytest.mark.anyio
async def test_the_connection_ending_first_ends_the_wait() -> None:
    run = FirstListing()
    conn = FakeConnection()

    async def fail_soon() -> None:
        await anyio.sleep(0.05)
        conn.state = ConnectionState.FAILED
        run.see(ServerStateChanged("s", ConnectionState.FAILED, "gone"))

    async with anyio.create_task_group() as tasks:
        tasks.start_soon(fail_soon)
        assert not await first_listing(run, conn)
    assert not run.listed


@pytest.mark.anyio
async def test_no_listing_at_all_goes_on_after_the_wait_with_a_warning(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(engine, "CATALOG_WAIT", 0.05)
    err = io.StringIO()
    run = RunEvents(err, quiet=True)
    assert await run.first_listing(FakeServer(FirstListing(), FakeConnection()))  # type: ignore[arg-type]
    assert "mcp-tui: warning: the server listed nothing within 0.05 s; going on" in err.getvalue()
