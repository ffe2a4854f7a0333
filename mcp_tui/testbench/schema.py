"""The JSON Schema of a test file, generated from the models and shipped in the package.

``mcptest.schema.json`` next to this module is what editors and other tools read (VS Code's
"Even Better TOML" and JSON language server take a ``$schema`` or a schema association); a test
keeps it equal to :func:`test_file_schema`, and the examples valid against it.
``python -m mcp_tui.testbench.schema`` rewrites it after a change to the models.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from mcp_tui.testbench.model import TestFile

SCHEMA_PATH = Path(__file__).with_name("mcptest.schema.json")
SCHEMA_ID = "urn:mcp-tui:mcptest:1"


def test_file_schema() -> dict[str, Any]:
    schema = TestFile.model_json_schema(by_alias=True, mode="validation")
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "mcp-tui test file",
        "description": "Cases for `mcp-tui test`: one server, calls, scripted answers to the "
        "elicitation and sampling requests they trigger, and expectations.",
        **{k: v for k, v in schema.items() if k not in ("title", "description")},
    }


def schema_text() -> str:
    return json.dumps(test_file_schema(), indent=2, ensure_ascii=True) + "\n"


test_file_schema.__test__ = False  # type: ignore[attr-defined]

if __name__ == "__main__":
    SCHEMA_PATH.write_text(schema_text(), encoding="utf-8")
    print(f"wrote {SCHEMA_PATH}")
