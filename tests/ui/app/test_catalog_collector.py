"""A large listing is put out of the cyclic collector's sight once it is shown.

The collector's full pass walks every tracked object; a catalog of 3,000 tools with their
schemas, wire models and tree nodes is a few hundred thousand of them, and each pass held the
event loop for 100-300 ms in the middle of a ``list_changed`` refresh (``benchmarks/stalls.py
refresh``). These objects live as long as the listing is shown, so the app freezes them
(``mcp_tui.process.collector.freeze_survivors``) after showing a listing of
``LARGE_LISTING`` items or more; a small one is left alone.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from mcp_tui.process.collector import LARGE_LISTING
from mcp_tui.session.events import CatalogChanged, ConnectionState, ToolInfo
from tests.ui.app_testkit import catalog_has, events_shown, make_app, wait_for, wait_until

pytestmark = pytest.mark.anyio


@pytest.fixture(autouse=True)
def _unfrozen() -> Iterator[None]:
    """What a test froze goes back to the collector (the next tests' garbage is theirs)."""
    yield
    gc.unfreeze()


def listing(count: int, prefix: str) -> tuple[ToolInfo, ...]:
    return tuple(
        ToolInfo(f"{prefix}{i}", "a tool", input_schema={"type": "object", "properties": {}})
        for i in range(count)
    )


def still_walked(objects: list[object]) -> int:
    """How many of ``objects`` the collector's next full pass would walk."""
    walked = {id(o) for o in gc.get_objects()}
    return sum(id(o) in walked for o in objects)


async def test_a_large_listing_is_frozen_once_shown() -> None:
    app, factory = make_app()
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: app.entries["demo"].state is ConnectionState.READY)
        big = listing(LARGE_LISTING, "big")
        schemas: list[object] = [tool.input_schema for tool in big]
        assert still_walked(schemas) == len(schemas)  # young objects, as any
        factory.latest("demo").sink(CatalogChanged("demo", tools=big))
        await wait_until(lambda: catalog_has(app, "demo", f"big{LARGE_LISTING - 1}"), pilot=pilot)
        await events_shown(pilot, app)
        assert still_walked(schemas) == 0


async def test_a_small_listing_is_left_to_the_collector() -> None:
    app, factory = make_app()
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: app.entries["demo"].state is ConnectionState.READY)
        small = listing(20, "small")
        schemas: list[object] = [tool.input_schema for tool in small]
        factory.latest("demo").sink(CatalogChanged("demo", tools=small))
        await wait_until(lambda: catalog_has(app, "demo", "small19"), pilot=pilot)
        await events_shown(pilot, app)
        assert still_walked(schemas) == len(schemas)
