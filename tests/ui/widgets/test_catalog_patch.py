"""A changed list patches the catalog: unchanged tools keep their nodes, added and removed ones
appear and go in the server's order, a changed description is redrawn, the count follows and
the cursor stays on its tool (``ui/widgets/session/catalog_tree.py``). Rebuilding every node on each
``list_changed`` froze keys for up to a second with 3,000 tools (``benchmarks/stalls.py``)."""

from __future__ import annotations

import pytest
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from mcp_tui.session.events import CatalogChanged, ConnectionState, ToolInfo
from mcp_tui.ui.widgets.session.catalog_tree import NodeRef
from tests.ui.app_testkit import (
    catalog_has,
    cursor_on,
    events_shown,
    make_app,
    session_of,
    tree_node,
    wait_for,
    wait_until,
)

pytestmark = pytest.mark.anyio


def tools_group(app: object, server: str = "demo") -> TreeNode[NodeRef]:
    node = tree_node(app, server, "")  # type: ignore[arg-type]
    for child in node.children:
        if child.data is not None and child.data.group == "tools":
            return child
    raise AssertionError("no tools group")


def leaves(group: TreeNode[NodeRef]) -> list[tuple[str, int]]:
    """(tool name, node id) of each leaf, in the order shown."""
    shown = []
    for child in group.children:
        assert child.data is not None and isinstance(child.data.item, ToolInfo)
        shown.append((child.data.item.name, child.id))
    return shown


def tools(*names: str, described: dict[str, str] | None = None) -> tuple[ToolInfo, ...]:
    return tuple(ToolInfo(n, (described or {}).get(n, f"the {n} tool")) for n in names)


async def test_a_changed_list_patches_the_tree_and_keeps_the_cursor() -> None:
    app, factory = make_app()
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: app.entries["demo"].state is ConnectionState.READY)
        connection = factory.latest("demo")
        first = tools("alpha", "bravo", "charlie", "delta", "echo", "foxtrot")
        connection.sink(CatalogChanged("demo", tools=first))
        await wait_until(lambda: catalog_has(app, "demo", "foxtrot"), pilot=pilot)
        await events_shown(pilot, app)
        tree = session_of(app).areas.catalog
        await cursor_on(pilot, tree, lambda: tree_node(app, "demo", "echo"), "echo")
        before = dict(leaves(tools_group(app)))

        # bravo goes, two tools come before the cursor and one at the end, delta's text changes
        second = tools(
            "alpha", "zulu", "charlie", "delta", "yankee", "echo", "foxtrot", "golf",
            described={"delta": "delta, described anew"},
        )  # fmt: skip
        connection.sink(CatalogChanged("demo", tools=second))
        await wait_until(lambda: catalog_has(app, "demo", "golf"), pilot=pilot)
        await events_shown(pilot, app)

        group = tools_group(app)
        after = leaves(group)
        assert [name for name, _ in after] == [t.name for t in second]
        for name in ("alpha", "charlie", "delta", "echo", "foxtrot"):
            assert dict(after)[name] == before[name], f"{name}'s node was rebuilt"
        assert "Tools (8)" in str(group.label)
        assert "described anew" in str(tree_node(app, "demo", "delta").label)
        assert tree_node(app, "demo", "delta").data.item.description == "delta, described anew"  # type: ignore[union-attr]
        await wait_until(
            lambda: tree.cursor_node is tree_node(app, "demo", "echo"),
            pilot=pilot,
            message="the cursor left echo",
        )


async def test_successive_changes_always_show_the_servers_order() -> None:
    """Lists that shuffle, shrink and grow: the leaves always match, whatever the diff was."""
    app, factory = make_app()
    lists = [
        tools(*"abcdefgh"),
        tools(*"hgfedcba"),  # reversed
        tools(*"bdfh"),  # half removed
        tools(*"xbydzfh"),  # interleaved additions
        tools(*"h"),
        tools(*"abch"),
        tools(*[f"t{i}" for i in range(700)]),  # more than PATCH_LIMIT changes: rebuilt
        tools(*[f"t{i}" for i in range(699, -1, -3)]),
    ]
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: app.entries["demo"].state is ConnectionState.READY)
        connection = factory.latest("demo")
        for listed in lists:
            connection.sink(CatalogChanged("demo", tools=listed))
            await wait_until(lambda listed=listed: app.entries["demo"].tools == listed, pilot=pilot)
            await events_shown(pilot, app)
            shown = [name for name, _ in leaves(tools_group(app))]
            assert shown == [t.name for t in listed]
            assert f"Tools ({len(listed)})" in str(tools_group(app).label)


async def test_the_cursor_on_a_removed_tool_goes_to_its_server() -> None:
    app, factory = make_app()
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: app.entries["demo"].state is ConnectionState.READY)
        connection = factory.latest("demo")
        connection.sink(CatalogChanged("demo", tools=tools("one", "two", "three")))
        await wait_until(lambda: catalog_has(app, "demo", "three"), pilot=pilot)
        await events_shown(pilot, app)
        tree = session_of(app).areas.catalog
        await cursor_on(pilot, tree, lambda: tree_node(app, "demo", "two"), "two")
        connection.sink(CatalogChanged("demo", tools=tools("one", "three")))
        await wait_until(lambda: not catalog_has(app, "demo", "two"), pilot=pilot)
        await wait_until(
            lambda: tree.cursor_node is tree_node(app, "demo", ""),
            pilot=pilot,
            message="the cursor did not go to the server",
        )


async def test_label_widths_are_measured_as_textual_renders_them() -> None:
    """The catalog measures a label without rendering it (Textual renders every label of the
    tree after each change to size its scroll area): the widths must be the same."""
    app, factory = make_app()
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: app.entries["demo"].state is ConnectionState.READY)
        wide = ToolInfo("日本語", "ツール: wide characters", title="表 tööl")
        connection = factory.latest("demo")
        connection.sink(CatalogChanged("demo", tools=(wide, *tools("plain"))))
        await wait_until(lambda: catalog_has(app, "demo", "plain"), pilot=pilot)
        await events_shown(pilot, app)
        tree = session_of(app).areas.catalog
        nodes = [tree_node(app, "demo", ""), tools_group(app), *tools_group(app).children]
        for node in nodes:
            assert tree.get_label_width(node) == Tree.get_label_width(tree, node)
        tools_group(app).collapse()  # the icon changes
        await pilot.pause()
        assert tree.get_label_width(tools_group(app)) == Tree.get_label_width(
            tree, tools_group(app)
        )


async def test_after_a_change_only_new_labels_are_measured(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Textual sizes the tree from every line's width after any change; the catalog remembers
    each label's width, so a refresh that adds one tool measures that one label, not all 3,000
    (measuring every label was a third of a refresh's event-loop time)."""
    from mcp_tui.ui.widgets.session import catalog_tree as catalog

    app, factory = make_app()
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: app.entries["demo"].state is ConnectionState.READY)
        connection = factory.latest("demo")
        names = [f"tool{i}" for i in range(50)]
        connection.sink(CatalogChanged("demo", tools=tools(*names)))
        await wait_until(lambda: catalog_has(app, "demo", "tool49"), pilot=pilot)
        await events_shown(pilot, app)
        tree = session_of(app).areas.catalog
        measured: list[int] = []
        building: list[bool] = []
        real_measure, real_build = catalog.Text.cell_len, tree._build

        def counted(self: object) -> int:
            if building:  # sizing the tree, not drawing a line
                measured.append(1)
            return real_measure.fget(self)  # type: ignore[attr-defined, no-any-return]

        def build() -> None:
            building.append(True)
            try:
                real_build()
            finally:
                building.clear()

        monkeypatch.setattr(catalog.Text, "cell_len", property(counted))
        monkeypatch.setattr(tree, "_build", build)
        connection.sink(CatalogChanged("demo", tools=tools(*names, "added")))
        await wait_until(lambda: catalog_has(app, "demo", "added"), pilot=pilot)
        await events_shown(pilot, app)
        await wait_until(lambda: tree.virtual_size.height >= 53, pilot=pilot)  # sized again
        assert 1 <= len(measured) <= 3, f"{len(measured)} labels measured for one change"
