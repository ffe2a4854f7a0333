"""Every ``check --baseline`` rule through live servers: ``tests/check/test_baseline.py``'s cases
(a baseline, a listing that triggers the rule, one that does not) served by
``tests/fixtures/raw_server.py`` processes and read back over the wire by ``mcp-tui check``, so
a rule whose change is lost on the way (a key the gathering drops, an era or a capability read
wrong) fails here by its id, not only on data.

Three runs in all: ``--baseline-update`` from the baselines, then a comparison with the servers
that trigger each rule and one with those that do not. The cases that change one tool, prompt,
resource or template share one server, each case's names prefixed with its rule id; the cases
that change the server itself (its capabilities, eras, protocol version) have one each. B513
(a ``--call``'s forms) needs a call every server of the run would get:
``tests/cli/test_check_baseline.py`` drives a call's forms live.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from mcp_tui.check import Listing
from mcp_tui.check.change_rules import CHANGE_RULES
from mcp_tui.cli import main as cli
from tests.check.test_baseline import CASES, MODERN

RAW = Path(__file__).resolve().parents[1] / "fixtures" / "raw_server.py"
#: Rules about the server as a whole: one server each.
OWN_SERVER = ("B104", "B105", "B505", "B506", "B514")
NOT_LIVE = ("B513",)
SIDES = ("old", "bad", "good")


def _renamed(rule: str, listing: Listing) -> dict[str, list[dict[str, Any]]]:
    """The listing's tools, prompts, resources and templates, each named after ``rule``."""
    return {
        "tools": [{**t, "name": f"{rule}-{t['name']}"} for t in listing.tools or []],
        "prompts": [{**p, "name": f"{rule}-{p['name']}"} for p in listing.prompts or []],
        "resources": [
            {**r, "uri": r["uri"].replace("file:///", f"file:///{rule}/")}
            for r in listing.resources or []
        ],
        "templates": [
            {**t, "uriTemplate": t["uriTemplate"].replace("file:///", f"file:///{rule}/")}
            for t in listing.templates or []
        ],
    }


def _script(listings: list[Listing], lists: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    """A raw_server script that serves ``lists`` on the eras of ``listings`` (2026-07-28 only
    when one of them is of that era), with their capabilities and protocol version."""
    legacy = next(x for x in listings if x.era != MODERN)
    script: dict[str, Any] = {
        **lists,
        "capabilities": legacy.capabilities,
        "protocol_version": legacy.era,
    }
    if any(x.era == MODERN for x in listings):
        script["discover"] = {
            "supportedVersions": [MODERN, "2025-11-25"],
            "capabilities": legacy.capabilities,
            "resultType": "complete",
            "ttlMs": 0,
            "cacheScope": "public",
            "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "raw", "version": "1"}},
        }
    return script


def _config(tmp_path: Path, side: int) -> Path:
    """A config file of the servers of one side (0: the baselines, 1: triggering, 2: not)."""
    servers: dict[str, dict[str, Any]] = {}
    shared: dict[str, list[dict[str, Any]]] = {k: [] for k in ("tools", "prompts", "resources")}
    shared["templates"] = []
    first: list[Listing] = []
    for rule, *listings in CASES:
        if rule in NOT_LIVE:
            continue
        mine = listings[side]
        if rule in OWN_SERVER:
            servers[rule] = _script(mine, _renamed(rule, mine[0]))
        else:
            (one,) = mine
            for kind, items in _renamed(rule, one).items():
                shared[kind] += items
            first = first or [one]
    servers["shared"] = _script([*first, Listing("srv", MODERN)], shared)
    lines = []
    for name, script in servers.items():
        path = tmp_path / f"{SIDES[side]}-{name}.json"
        path.write_text(json.dumps(script), encoding="utf-8")
        args = json.dumps([str(RAW), "--script", str(path)])
        lines.append(f"[servers.{name}]\ncommand = {json.dumps(sys.executable)}\nargs = {args}\n")
    config = tmp_path / f"{SIDES[side]}.toml"
    config.write_text("\n".join(lines), encoding="utf-8")
    return config


def _changes(capsys: pytest.CaptureFixture[str], *argv: str) -> list[dict[str, Any]]:
    cli.main(["check", "--json", "-q", *argv])
    report: dict[str, Any] = json.loads(capsys.readouterr().out)
    changes: list[dict[str, Any]] = report["baseline"]["changes"]
    return changes


def _fired(changes: list[dict[str, Any]], rule: str) -> bool:
    """Whether ``rule`` was reported for its own case (its server, or its prefixed names)."""
    return any(
        c["rule"] == rule
        and (c["server"] == rule or f"{rule}-" in c["where"] or f"/{rule}/" in c["where"])
        for c in changes
    )


@pytest.mark.timeout(120)
def test_each_rule_fires_between_live_servers_on_its_change_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = tmp_path / "mcp-baseline.json"
    old, bad, good = (_config(tmp_path, side) for side in range(3))
    _changes(capsys, "--config", str(old), "--baseline", str(base), "--baseline-update")
    assert sorted(json.loads(base.read_text(encoding="utf-8"))["servers"]) == sorted(
        ["shared", *OWN_SERVER]
    )
    triggered = _changes(capsys, "--config", str(bad), "--baseline", str(base))
    untouched = _changes(capsys, "--config", str(good), "--baseline", str(base))
    live = sorted(rule for rule in CHANGE_RULES if rule not in NOT_LIVE)
    assert [r for r in live if not _fired(triggered, r)] == [], triggered
    assert [r for r in live if _fired(untouched, r)] == [], untouched
