"""``mcp_tui.schema`` stays pure and cheap to import: no Textual, no MCP, no jsonschema yet."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import json, sys
import mcp_tui.schema as s
before = sorted(m for m in ("textual", "mcp", "jsonschema", "referencing", "re2", "httpx")
                if m in sys.modules)
form = s.parse_requested_schema({"type": "object", "properties": {"a": {"type": "integer"}}})
s.validate_form(form, {"a": "1"})
after = sorted(m for m in ("textual", "mcp", "jsonschema") if m in sys.modules)
print(json.dumps([before, after]))
"""


def test_imports_are_lazy() -> None:
    out = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        check=True,
    )
    before, after = json.loads(out.stdout)
    assert before == []
    assert after == ["jsonschema"]
