"""Every tool of the reference servers filled in and sent through the real TUI (issue 18).

server-memory, server-sequential-thinking and server-filesystem (pinned in ``package.json``) run
over stdio. Each tool is opened from the catalog as a user does, must open as a form (not the JSON
editor), is filled through its widgets (items added with the list's button, fields typed into),
and sent with Ctrl+S. The test asserts the exact ``arguments`` that went over the wire (the
traffic log, ``--log``), and what the server did with them: the knowledge graph it kept (its
memory file, and ``read_graph``), the files it wrote or edited in a temporary directory.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from mcp_tui.config.options import AppOptions
from mcp_tui.config.servers import ServerSpec, StdioTarget
from mcp_tui.ui.app import McpTuiApp
from tests.interop.arguments_driver import open_tool, ready, run_steps, send
from tests.interop.interop_peers import (
    EVERYTHING_JS,
    FILESYSTEM_JS,
    LOOPBACK_PRELOAD,
    MEMORY_JS,
    NODE,
    REPO_ROOT,
    THINKING_JS,
)
from tests.interop.tui_driver import quit_app, result_text, tool_results

pytestmark = [pytest.mark.interop, pytest.mark.anyio]


def node_server(name: str, script: Path, *args: str, **kw: Any) -> ServerSpec:
    target = StdioTarget(str(NODE), ("-r", str(LOOPBACK_PRELOAD), str(script), *args), **kw)
    return ServerSpec(name=name, target=target, mode="legacy")


def build_app(tmp_path: Path, spec: ServerSpec) -> McpTuiApp:
    options = AppOptions(traffic_log=tmp_path / "traffic.jsonl", stderr_log=tmp_path / "err.log")
    return McpTuiApp([spec], options)


async def call(
    pilot: Any, app: McpTuiApp, log: Path, server: str, tool: str, steps: list[Any]
) -> dict[str, Any]:
    screen = await open_tool(pilot, app, server, tool)
    assert not screen.use_editor, f"{tool} opened the JSON editor: {screen.editor_reason}"
    await run_steps(pilot, screen, steps)
    return await send(pilot, app, log, tool)


FIRST = "wrote the first program"
ADA = ("entities", 0)
BABBAGE = ("entities", 1)

#: (tool, steps, the exact arguments the server must receive)
MEMORY: list[tuple[str, list[Any], dict[str, Any]]] = [
    (
        "create_entities",
        [
            ("add", ("entities",)),
            ("type", (*ADA, "name"), "Ada"),
            ("type", (*ADA, "entityType"), "person"),
            ("list", (*ADA, "observations"), [FIRST]),
            ("add", ("entities",)),
            ("type", (*BABBAGE, "name"), "Babbage"),
            ("type", (*BABBAGE, "entityType"), "person"),
        ],
        {
            "entities": [
                {
                    "name": "Ada",
                    "entityType": "person",
                    "observations": ["wrote the first program"],
                },
                {"name": "Babbage", "entityType": "person", "observations": []},
            ]
        },
    ),
    (
        "create_relations",
        [
            ("add", ("relations",)),
            ("type", ("relations", 0, "from"), "Ada"),
            ("type", ("relations", 0, "to"), "Babbage"),
            ("type", ("relations", 0, "relationType"), "worked with"),
        ],
        {"relations": [{"from": "Ada", "to": "Babbage", "relationType": "worked with"}]},
    ),
    (
        "add_observations",
        [
            ("add", ("observations",)),
            ("type", ("observations", 0, "entityName"), "Babbage"),
            ("list", ("observations", 0, "contents"), ["designed the engine"]),
        ],
        {"observations": [{"entityName": "Babbage", "contents": ["designed the engine"]}]},
    ),
    ("search_nodes", [("type", ("query",), "Ada")], {"query": "Ada"}),
    (
        "open_nodes",
        [("list", ("names",), ["Babbage"])],
        {"names": ["Babbage"]},
    ),
    ("read_graph", [], {}),
    (
        "delete_observations",
        [
            ("add", ("deletions",)),
            ("type", ("deletions", 0, "entityName"), "Babbage"),
            ("list", ("deletions", 0, "observations"), ["designed the engine"]),
        ],
        {"deletions": [{"entityName": "Babbage", "observations": ["designed the engine"]}]},
    ),
    (
        "delete_relations",
        [
            ("add", ("relations",)),
            ("type", ("relations", 0, "from"), "Ada"),
            ("type", ("relations", 0, "to"), "Babbage"),
            ("type", ("relations", 0, "relationType"), "worked with"),
        ],
        {"relations": [{"from": "Ada", "to": "Babbage", "relationType": "worked with"}]},
    ),
    (
        "delete_entities",
        [("list", ("entityNames",), ["Babbage"])],
        {"entityNames": ["Babbage"]},
    ),
]


async def test_every_memory_tool_through_its_form(peers: None, tmp_path: Path) -> None:
    memory = tmp_path / "memory.jsonl"
    spec = node_server("memory", MEMORY_JS, env={"MEMORY_FILE_PATH": str(memory)})
    app = build_app(tmp_path, spec)
    log = tmp_path / "traffic.jsonl"
    graphs: list[str] = []
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(pilot, app, "memory")
        assert {t.name for t in app.entries["memory"].tools} == {t for t, _, _ in MEMORY}
        for tool, steps, expected in MEMORY:
            sent = await call(pilot, app, log, "memory", tool, steps)
            assert sent == expected, tool
            if tool == "read_graph":
                graphs.append(result_text(tool_results(log, tool)[-1]))
        await quit_app(pilot)

    # What the server did with them: read_graph saw both people, the relation, the observations.
    [graph] = graphs
    for text in ("Ada", "Babbage", "worked with", "designed the engine", "wrote the first program"):
        assert text in graph
    # ... and after the deletions only Ada is left, with her own observation.
    kept = [json.loads(line) for line in memory.read_text().splitlines() if line.strip()]
    assert kept == [
        {
            "type": "entity",
            "name": "Ada",
            "entityType": "person",
            "observations": ["wrote the first program"],
        }
    ]


async def test_sequential_thinking_with_its_boolean_or_string_variants(
    peers: None, tmp_path: Path
) -> None:
    app = build_app(tmp_path, node_server("thinking", THINKING_JS))
    log = tmp_path / "traffic.jsonl"
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(pilot, app, "thinking")
        assert [t.name for t in app.entries["thinking"].tools] == ["sequentialthinking"]
        steps = [
            ("type", ("thought",), "First, list the steps."),
            ("keys", ("nextThoughtNeeded",), "space"),  # the boolean variant, shown first: true
            ("type", ("thoughtNumber",), "1"),
            ("type", ("totalThoughts",), "3"),
            # isRevision: boolean or string, optional: pick "text", then type it.
            ("pick", ("isRevision",), "enter", "down", "down", "enter"),
            ("type", ("isRevision",), "false"),
            ("type", ("branchId",), "main"),
        ]
        sent = await call(pilot, app, log, "thinking", "sequentialthinking", steps)
        answer = tool_results(log, "sequentialthinking")[-1]
        await quit_app(pilot)
    assert sent == {
        "thought": "First, list the steps.",
        "nextThoughtNeeded": True,
        "thoughtNumber": 1,
        "totalThoughts": 3,
        "isRevision": "false",
        "branchId": "main",
    }
    assert type(sent["thoughtNumber"]) is int
    assert "error" not in answer and not answer["result"].get("isError"), answer
    reply = json.loads(result_text(answer))
    assert (reply["thoughtNumber"], reply["totalThoughts"]) == (1, 3)
    assert reply["nextThoughtNeeded"] is True


def filesystem_steps(root: Path) -> list[tuple[str, list[Any], dict[str, Any]]]:
    """Every server-filesystem tool, in an order that leaves ``notes/b.txt`` edited and moved."""
    notes = str(root / "notes")
    a, b = f"{notes}/a.txt", f"{notes}/b.txt"
    return [
        ("list_allowed_directories", [], {}),
        ("create_directory", [("type", ("path",), notes)], {"path": notes}),
        (
            "write_file",
            [("type", ("path",), a), ("type", ("content",), "hello world")],
            {"path": a, "content": "hello world"},
        ),
        (
            "edit_file",
            [
                ("type", ("path",), a),
                ("add", ("edits",)),
                ("type", ("edits", 0, "oldText"), "world"),
                ("type", ("edits", 0, "newText"), "there"),
            ],
            {"path": a, "edits": [{"oldText": "world", "newText": "there"}], "dryRun": False},
        ),
        (
            "read_text_file",
            [("type", ("path",), a), ("type", ("head",), "1")],
            {"path": a, "head": 1},
        ),
        ("read_file", [("type", ("path",), a)], {"path": a}),
        ("read_media_file", [("type", ("path",), a)], {"path": a}),
        (
            "read_multiple_files",
            [("list", ("paths",), [a, b])],
            {"paths": [a, b]},
        ),
        ("list_directory", [("type", ("path",), notes)], {"path": notes}),
        (
            "list_directory_with_sizes",
            [("type", ("path",), notes)],
            {"path": notes, "sortBy": "name"},
        ),
        (
            "directory_tree",
            [
                ("type", ("path",), str(root)),
                ("list", ("excludePatterns",), ["*.log"]),
            ],
            {"path": str(root), "excludePatterns": ["*.log"]},
        ),
        (
            "search_files",
            [("type", ("path",), str(root)), ("type", ("pattern",), "**/*.txt")],
            {"path": str(root), "pattern": "**/*.txt", "excludePatterns": []},
        ),
        ("get_file_info", [("type", ("path",), a)], {"path": a}),
        (
            "move_file",
            [("type", ("source",), a), ("type", ("destination",), b)],
            {"source": a, "destination": b},
        ),
    ]


async def test_every_filesystem_tool_through_its_form(peers: None, tmp_path: Path) -> None:
    root = (tmp_path / "files").resolve()
    root.mkdir()
    spec = node_server("files", FILESYSTEM_JS, str(root))
    spec = ServerSpec(name=spec.name, target=spec.target, mode=spec.mode, roots=(str(root),))
    app = build_app(tmp_path, spec)
    log = tmp_path / "traffic.jsonl"
    table = filesystem_steps(root)
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(pilot, app, "files")
        assert {t.name for t in app.entries["files"].tools} == {t for t, _, _ in table}
        for tool, steps, expected in table:
            sent = await call(pilot, app, log, "files", tool, steps)
            assert sent == expected, tool
        found = result_text(tool_results(log, "search_files")[-1])
        await quit_app(pilot)

    # The server did what the arguments said: written, edited, then moved.
    assert str(root / "notes" / "a.txt") in found
    assert not (root / "notes" / "a.txt").exists()
    assert (root / "notes" / "b.txt").read_text() == "hello there"


DATA_URI = "data:text/plain;base64,aGVsbG8="

#: Every tool of server-everything: (tool, steps, the exact arguments it must receive).
EVERYTHING: list[tuple[str, list[Any], dict[str, Any]]] = [
    ("echo", [("type", ("message",), "hi there")], {"message": "hi there"}),
    (
        "get-annotated-message",
        [("keys", ("messageType",), "enter", "down", "enter")],
        {"messageType": "error", "includeImage": False},
    ),
    ("get-env", [], {}),
    ("get-roots-list", [], {}),  # offered because mcp-tui declares roots
    ("get-resource-links", [("type", ("count",), "2")], {"count": 2}),
    ("get-resource-reference", [], {"resourceType": "Text", "resourceId": 1}),
    (
        "get-structured-content",
        [("keys", ("location",), "enter", "down", "enter")],
        {"location": "New York"},
    ),
    ("get-sum", [("type", ("a",), "2"), ("type", ("b",), "3.5")], {"a": 2, "b": 3.5}),
    ("get-tiny-image", [], {}),
    (
        "gzip-file-as-resource",
        [("type", ("name",), "hello.gz"), ("type", ("data",), DATA_URI)],
        {"name": "hello.gz", "data": DATA_URI, "outputType": "resourceLink"},
    ),
    ("toggle-simulated-logging", [], {}),
    ("toggle-subscriber-updates", [], {}),
    (
        "trigger-long-running-operation",
        [("type", ("duration",), "0.5"), ("type", ("steps",), "1")],
        {"duration": 0.5, "steps": 1},
    ),
    ("trigger-elicitation-request", [], {}),
    (  # offered because mcp-tui declares sampling; the review screen is cancelled (Escape)
        "trigger-sampling-request",
        [("type", ("prompt",), "Say hi")],
        {"prompt": "Say hi", "maxTokens": 100},
    ),
    (
        "trigger-url-elicitation",
        [("type", ("url",), "https://example.com/done")],
        {
            "url": "https://example.com/done",
            "message": "Please open the link to complete this action.",
            "errorPath": False,
        },
    ),
    (
        "simulate-research-query",
        [("type", ("topic",), "forms")],
        {"topic": "forms", "ambiguous": False},
    ),
]

#: Every tool of the bundled demo.
DEMO: list[tuple[str, list[Any], dict[str, Any]]] = [
    ("book_table", [], {}),
    ("delete_project", [("type", ("name",), "api")], {"name": "api"}),
    ("open_project", [], {"name": "api"}),
    ("set_preferences", [], {}),
    ("quick_survey", [], {}),
    ("confirm_action", [], {"action": "restart the build agents"}),
    ("connect_account", [("type", ("wait_seconds",), "1")], {"wait_seconds": 1}),
    (
        "list_files",
        [("type", ("wait_seconds",), "1")],
        {"folder": "/", "wait_seconds": 1},
    ),
    ("disconnect_account", [], {}),
    (
        "long_task",
        [("type", ("duration",), "0.2"), ("type", ("steps",), "2")],
        {"duration": 0.2, "steps": 2},
    ),
    (
        "search_issues",
        [("type", ("query",), "forms")],
        {
            "query": "forms",
            "state": "open",
            "sort": "updated",
            "limit": 10,
            "include_pull_requests": False,
        },
    ),
    # sampling: the review screen is cancelled (Escape), as for server-everything's
    ("summarize_issue", [], {"number": 101}),
]


Table = list[tuple[str, list[Any], dict[str, Any]]]


def in_parts(table: Table, parts: int, group: str) -> list[Any]:
    """The table's tools in ``parts`` cases of a few tools each, each with a server of its own
    and its own xdist group (a test of every tool in one app took 29 s on a quiet machine, a
    fifth of the suite's limit): the tools of these servers do not depend on each other."""
    size = -(-len(table) // parts)
    cuts = [table[i : i + size] for i in range(0, len(table), size)]
    return [
        pytest.param(
            cut, id=f"{cut[0][0]}..{cut[-1][0]}", marks=pytest.mark.xdist_group(f"{group}-{i}")
        )
        for i, cut in enumerate(cuts)
    ]


async def run_table(tmp_path: Path, spec: ServerSpec, table: Table, every: Table) -> None:
    """Send each tool of ``table`` through its form; the server lists exactly those of ``every``."""
    app = build_app(tmp_path, spec)
    log = tmp_path / "traffic.jsonl"
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(pilot, app, spec.name)
        assert {t.name for t in app.entries[spec.name].tools} == {t for t, _, _ in every}
        for tool, steps, expected in table:
            sent = await call(pilot, app, log, spec.name, tool, steps)
            assert sent == expected, tool
        await quit_app(pilot)


@pytest.mark.parametrize("table", in_parts(EVERYTHING, 4, "everything-tools"))
async def test_every_everything_tool_through_its_form(
    peers: None, tmp_path: Path, table: Table
) -> None:
    target = StdioTarget(str(NODE), ("-r", str(LOOPBACK_PRELOAD), str(EVERYTHING_JS), "stdio"))
    await run_table(tmp_path, ServerSpec(name="everything", target=target), table, EVERYTHING)


@pytest.mark.parametrize("table", in_parts(DEMO, 3, "demo-tools"))
async def test_every_demo_tool_through_its_form(tmp_path: Path, table: Table) -> None:
    target = StdioTarget(sys.executable, ("-m", "mcp_tui.demo"), cwd=str(REPO_ROOT))
    await run_table(tmp_path, ServerSpec(name="demo", target=target), table, DEMO)
