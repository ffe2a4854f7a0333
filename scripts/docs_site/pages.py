"""The documentation pages written from the code, not by hand: each is a function of what ships.

- ``testing/reference.md``: every key of a test file, from the JSON Schema the package ships
  (``mcp_tui/testbench/mcptest.schema.json``, itself generated from the models that read a file);
- ``check/rules/index.md`` and one page per rule, as ``mcp_tui/check/rule_docs.py`` writes them
  from where the rules are declared: each check with its why and a bad and a good example (the
  listings its tests run), each ``--baseline`` rule with its why, an example and the compatible
  way;
- ``configuration.md``: ``config.example.toml``, the file that documents every config key (a test
  loads it);
- ``changelog.md``: ``CHANGELOG.md``.

The site's hook (``hooks.py``) calls :func:`generated_pages` at build time, so these pages are
never committed and cannot drift from the code: a rule added to the registry is a page on the
next build. Pure functions of the repository; they import the package, never a network.
"""

from __future__ import annotations

import json
import re
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = ROOT / "mcp_tui" / "testbench" / "mcptest.schema.json"
#: Where the repository's files are read on the web (links from the pages to source files).
REPO_URL = "https://github.com/mcp-tui-client/mcp-tui-client"
BLOB = f"{REPO_URL}/blob/main"


def generated_pages() -> dict[str, str]:
    """Every generated page: its path under ``docs/`` -> its Markdown."""
    pages = {"testing/reference.md": test_file_reference(), **check_rule_pages()}
    pages["configuration.md"] = configuration_page()
    pages["changelog.md"] = changelog_page()
    return pages


# ---- the test-file reference, from the JSON Schema ---------------------------------------------

#: The tables of a test file, in the order a reader meets them: ``$defs`` name -> (heading,
#: anchor, what a type that refers to it says). A ``$defs`` entry not named here still gets a
#: section (at the end, under its own name), so a new model is documented on the next build.
SECTIONS: dict[str, tuple[str, str, str]] = {
    "ServerDecl": ("The server: `[server]`", "server", "`[server]`"),
    "Case": ("A case: `[[case]]`", "case", "`[[case]]`"),
    "Step": ("A step: `[[setup]]`, `[[teardown]]`", "step", "step"),
    "AnswerEntry": ("An answer: `answers = [...]`", "answer", "answer"),
    "SamplingAnswer": ("A sampling reply: `sampling = {...}`", "sampling-answer", "sampling reply"),
    "SamplingToolUse": (
        "A tool use in a sampling reply: `toolUse`",
        "sampling-tool-use",
        "tool use",
    ),
    "Expect": ("Expectations: `expect`", "expect", "`expect`"),
    "ElicitationExpect": (
        "An elicitation request: `[[case.expect.elicitations]]`",
        "elicitation-expect",
        "elicitation request",
    ),
    "SamplingExpect": (
        "A sampling request: `[[case.expect.sampling]]`",
        "sampling-expect",
        "sampling request",
    ),
}


def _section(name: str) -> tuple[str, str, str]:
    """(heading, anchor, label in a type) of a ``$defs`` entry; its own name if not in SECTIONS."""
    return SECTIONS.get(name, (name, _slug(name), name))


def test_file_reference(schema: dict[str, Any] | None = None) -> str:
    """The reference of every key a test file may hold, one table per object of the schema."""
    if schema is None:
        schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    defs: dict[str, Any] = schema.get("$defs", {})
    labels = {name: _section(name) for name in defs}
    lines = [
        "# Test file reference",
        "",
        "Every key of a test file (`*.mcptest.toml`, or `*.mcptest.json` with the same keys), "
        "generated from the JSON Schema mcp-tui ships: "
        f"[`mcp_tui/testbench/mcptest.schema.json`]({BLOB}/mcp_tui/testbench/mcptest.schema.json) "
        f"(`$id` `{schema.get('$id', '')}`). That schema is generated from the models that read "
        "a test file, so this page, the schema and `mcp-tui test` agree. "
        "An unknown key, a wrong type or a missing required key is a bad test file: "
        "`mcp-tui test` names the file, the line and the key, and runs nothing "
        "(exit 2). How to write one, with examples: [Test files](test-files.md).",
        "",
        "## The file",
        "",
        _markdown(str(schema.get("description", ""))),
        "",
        *_table(schema, labels),
    ]
    ordered = [name for name in SECTIONS if name in defs] + sorted(set(defs) - set(SECTIONS))
    for name in ordered:
        definition = defs[name]
        heading, anchor, _ = _section(name)
        lines += [
            "",
            f"## {heading} {{#{anchor}}}",
            "",
            _markdown(str(definition.get("description", ""))),
            "",
            *_table(definition, labels),
        ]
    return "\n".join(lines) + "\n"


def _table(definition: dict[str, Any], labels: dict[str, tuple[str, str, str]]) -> list[str]:
    properties: dict[str, Any] = definition.get("properties", {})
    required = set(definition.get("required", ()))
    rows = ["| key | type | default | what it is |", "| --- | --- | --- | --- |"]
    for key, prop in properties.items():
        default = (
            "**required**"
            if key in required
            else (f"`{_json(prop['default'])}`" if prop.get("default") is not None else "")
        )
        rows.append(
            f"| `{key}` | {_type(prop, labels)} | {default} | "
            f"{_cell(_markdown(str(prop.get('description', ''))))} |"
        )
    if definition.get("additionalProperties") is False:
        rows.append("")
        rows.append("No other key is allowed.")
    return rows


def _type(node: dict[str, Any], labels: dict[str, tuple[str, str, str]]) -> str:
    """A JSON Schema node in words: ``string (not empty)``, ``list of [[[case]]](#case)``, ..."""
    if "$ref" in node:
        name = str(node["$ref"]).rsplit("/", 1)[-1]
        _, anchor, label = labels.get(name, _section(name))
        return f"[{label}](#{anchor})"
    if "anyOf" in node:
        variants = [v for v in node["anyOf"] if v.get("type") != "null"]
        said = " or ".join(_type(v, labels) for v in variants)
        nullable = len(variants) < len(node["anyOf"]) and node.get("default", 0) is not None
        return f"{said} or null" if nullable else said
    if "const" in node:
        return f"`{_json(node['const'])}`"
    if "enum" in node:
        return "one of " + ", ".join(f"`{_json(v)}`" for v in node["enum"])
    kind = node.get("type")
    if kind == "array":
        items = node.get("items")
        said = f"list of {_plural(_type(items, labels))}" if isinstance(items, dict) else "list"
        if node.get("minItems"):
            said += f" (at least {node['minItems']})"
        return said
    if kind == "object":
        extra = node.get("additionalProperties")
        if isinstance(extra, dict) and extra:
            return f"table of {_plural(_type(extra, labels))}"
        if node.get("properties"):
            keys = ", ".join(f"`{k}`" for k in node["properties"])
            return f"table ({keys})"
        return "table (any JSON)"
    if isinstance(kind, str):
        bounds = []
        if node.get("minLength") == 1:
            bounds.append("not empty")
        elif "minLength" in node:
            bounds.append(f"at least {node['minLength']} characters")
        if "exclusiveMinimum" in node:
            bounds.append(f"> {_json(node['exclusiveMinimum'])}")
        if "minimum" in node:
            bounds.append(f"≥ {_json(node['minimum'])}")
        return kind + (f" ({', '.join(bounds)})" if bounds else "")
    return "any JSON"


def _plural(said: str) -> str:
    """``string`` -> ``strings`` in ``list of strings``; anything longer is left as it is."""
    return f"{said}s" if said in ("string", "number", "integer", "boolean") else said


def _markdown(text: str) -> str:
    """The models' docstrings write code as reStructuredText does (````x````): Markdown's `x`."""
    return re.sub(r"``(.+?)``", r"`\1`", text)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _slug(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "-", name).lower()


# ---- the rules of mcp-tui check ------------------------------------------------------------------


def check_rule_pages() -> dict[str, str]:
    """``check/rules/index.md`` and ``check/rules/ID.md`` for every rule: the pages
    ``mcp_tui.check.rule_docs.write_rule_docs`` writes (the same text ``mcp-tui check --explain``
    prints, from where each rule is declared), as the site's paths."""
    from mcp_tui.check.rule_docs import write_rule_docs

    with tempfile.TemporaryDirectory() as folder:
        return {
            f"check/rules/{path.name}": path.read_text(encoding="utf-8")
            for path in write_rule_docs(Path(folder))
        }


def rule_nav() -> list[dict[str, list[dict[str, str]]]]:
    """The rules' pages for the site's navigation, in id order: checks, then changes."""
    from mcp_tui.check import RULES
    from mcp_tui.check.change_rules import CHANGE_RULES

    checks = [{r: f"check/rules/{r}.md"} for r in sorted(RULES)]
    changes = [
        {f"{c.id} {c.name}": f"check/rules/{c.id}.md"}
        for c in sorted(CHANGE_RULES.values(), key=lambda c: c.id)
    ]
    return [{"Checks": checks}, {"Breaking changes": changes}]


# ---- pages that are a file of the repository ----------------------------------------------------


def configuration_page() -> str:
    text = (ROOT / "config.example.toml").read_text(encoding="utf-8")
    return (
        "# Configuration file\n\n"
        "Every key of mcp-tui's own config file, with its default: this is "
        f"[`config.example.toml`]({BLOB}/config.example.toml) as it is in the repository (a test "
        "loads it, so it documents exactly the keys mcp-tui reads). How mcp-tui finds the file "
        "and reads other clients' JSON files: [Config files](usage.md#config-files); your own "
        "keys: [Keys](keys.md#your-own-keys).\n\n"
        f"```toml\n{text.rstrip()}\n```\n"
    )


def changelog_page() -> str:
    return (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")


def repository_paths(text: str) -> Iterable[str]:
    """The repository paths ``text`` links to on the web (``BLOB/path``, ``tree/main/path``); a
    backtick ends one (an address in a code span)."""
    pattern = re.escape(REPO_URL) + r"/(?:blob|tree)/main/([^\s)#?\"'>`]+)"
    return re.findall(pattern, text)
