"""The docs site (``mkdocs.yml``, ``docs/``, ``scripts/docs_site/``): a bad link fails its build,
and the pages written from the code say what the code holds.

``.ci/run`` builds the whole site with ``mkdocs build --strict``. What these tests hold:

- the project's settings make ``--strict`` fail on every kind of bad link: a missing page, a
  missing anchor on another page or on the same one, a missing image, and a link to a file of the
  repository that does not exist. MkDocs 1.6 only logs a missing anchor at INFO (a strict build
  passes) unless ``validation`` says ``anchors: warn``: a site built with MkDocs' defaults shows it;
- the generated pages: the test-file reference has a row for every key of the shipped JSON
  Schema, the site has the page ``check/rule_docs.py`` writes for every check and change rule
  (what each says is held by ``tests/check/test_rule_docs.py``), and the config page is the
  example file.
"""

from __future__ import annotations

import importlib.util
import json
import logging
import os
import re
import textwrap
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import yaml

if importlib.util.find_spec("mkdocs") is None and os.environ.get("CI") != "true":
    # A virtualenv made before the docs extra: skipped here, a failure in CI (.ci/run).
    pytest.skip("mkdocs is not installed: pip install -e '.[test]'", allow_module_level=True)

from mcp_tui.check import RULES
from mcp_tui.check.change_rules import CHANGE_RULES
from mcp_tui.check.rule_docs import write_rule_docs
from mcp_tui.testbench.schema import SCHEMA_PATH
from scripts.docs_site import hooks, pages

ROOT = Path(__file__).resolve().parent.parent
CONFIG = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))


def _build(tmp_path: Path, files: dict[str, str], *, settings: dict[str, Any]) -> str | None:
    """Build a small site with ``settings``; the log of warnings if ``--strict`` aborted it."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    from mkdocs.exceptions import Abort

    docs = tmp_path / "docs"
    for name, text in files.items():
        (docs / name).parent.mkdir(parents=True, exist_ok=True)
        (docs / name).write_text(textwrap.dedent(text), encoding="utf-8")
    config_file = tmp_path / "mkdocs.yml"
    config_file.write_text(
        yaml.safe_dump(
            {
                "site_name": "t",
                "docs_dir": str(docs),
                "site_dir": str(tmp_path / "site"),
                **settings,
            }
        ),
        encoding="utf-8",
    )
    records: list[str] = []
    handler = logging.Handler(logging.WARNING)
    handler.emit = lambda record: records.append(record.getMessage())  # type: ignore[method-assign]
    logging.getLogger("mkdocs").addHandler(handler)
    try:
        build(load_config(str(config_file), strict=True))
    except Abort:
        return "\n".join(records)
    finally:
        logging.getLogger("mkdocs").removeHandler(handler)
    return None


#: The project's settings that decide what a build accepts (its pages and hook left out).
PROJECT = {k: CONFIG[k] for k in ("validation", "theme", "markdown_extensions")}
OTHER = "# Other\n\n## Real heading\n\nText.\n"


@pytest.mark.parametrize(
    ("link", "said"),
    [
        ("[gone](missing.md)", "'missing.md', but the target is not found"),
        ("[gone](other.md#no-such-heading)", "does not contain an anchor '#no-such-heading'"),
        ("[gone](#no-such-heading)", "there is no such anchor on this page"),
        ("![gone](screenshots/none.png)", "'screenshots/none.png', but the target is not found"),
    ],
)
def test_the_project_settings_fail_a_strict_build_on_a_bad_link(
    tmp_path: Path, link: str, said: str
) -> None:
    warnings = _build(
        tmp_path,
        {"index.md": f"# Home\n\n{link}\n", "other.md": OTHER},
        settings=PROJECT,
    )
    assert warnings is not None, f"{link} built without a warning"
    assert said in warnings


def test_a_site_with_good_links_builds_and_mkdocs_defaults_let_a_bad_anchor_through(
    tmp_path: Path,
) -> None:
    good = {"index.md": "# Home\n\n[real](other.md#real-heading)\n", "other.md": OTHER}
    assert _build(tmp_path / "good", good, settings=PROJECT) is None
    # Why mkdocs.yml sets validation: MkDocs' defaults build a missing anchor strictly.
    bad = {"index.md": "# Home\n\n[gone](other.md#no-such-heading)\n", "other.md": OTHER}
    assert _build(tmp_path / "defaults", bad, settings={}) is None


def test_a_link_to_a_file_the_repository_lacks_is_a_warning(
    caplog: pytest.LogCaptureFixture,
) -> None:
    page = SimpleNamespace(file=SimpleNamespace(src_uri="testing/ci.md"))
    text = (
        f"[ok]({pages.BLOB}/action.yml) [ok]({pages.REPO_URL}/tree/main/examples/demo) "
        f"[gone]({pages.BLOB}/no/such/file.py#L3) in code: `{pages.BLOB}/README.md`, "
        f"the address of a path: `{pages.BLOB}/`"
    )
    with caplog.at_level(logging.WARNING, logger="mkdocs"):
        hooks.on_page_markdown(text, page, None, None)  # type: ignore[arg-type]
    warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warnings) == 1
    assert "'no/such/file.py'" in warnings[0]
    assert warnings[0].startswith("Doc file 'testing/ci.md'")


def test_the_rules_index_in_the_nav_becomes_the_index_and_every_rule() -> None:
    nav = [{"Home": "index.md"}, {"check": ["check/index.md", hooks.RULES_INDEX]}]
    assert hooks._expand_rules(nav)
    section = nav[1]["check"][1]
    assert isinstance(section, dict)
    [(title, entries)] = section.items()
    assert title == "Rules"
    assert entries[0] == hooks.RULES_INDEX
    listed = {
        path
        for group in entries[1:]
        for items in group.values()
        for e in items
        for path in e.values()
    }
    assert listed == {f"check/rules/{i}.md" for i in [*RULES, *CHANGE_RULES]}
    assert hooks._expand_rules([{"Home": "index.md"}]) is False
    # The site's own nav has the index where the hook looks for it.
    assert hooks._expand_rules(list(CONFIG["nav"]))


# ---- the test-file reference ------------------------------------------------------------------


def _sections(text: str) -> dict[str, str]:
    parts = re.split(r"^## (.+?)(?: \{#[\w-]+\})?$", text, flags=re.MULTILINE)
    return dict(zip(parts[1::2], parts[2::2], strict=True))


def test_the_reference_has_a_row_for_every_key_of_the_shipped_schema() -> None:
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    sections = _sections(pages.test_file_reference())
    objects = {"The file": schema}
    for name, definition in schema["$defs"].items():
        heading = pages.SECTIONS[name][0] if name in pages.SECTIONS else name
        objects[heading] = definition
    assert set(objects) == set(sections), "a section per object of the schema"
    for heading, definition in objects.items():
        rows = re.findall(r"^\| `([^`]+)` \|", sections[heading], flags=re.MULTILINE)
        assert rows == list(definition["properties"]), heading
        for key in definition.get("required", ()):
            assert re.search(rf"^\| `{key}` \|[^\n]*\*\*required\*\*", sections[heading], re.M)


def test_a_model_the_reference_does_not_know_yet_still_gets_its_section() -> None:
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    schema["$defs"]["RetryPolicy"] = {
        "description": "``retry``: how often.",
        "properties": {"times": {"type": "integer", "minimum": 1, "description": "How often."}},
    }
    schema["$defs"]["Case"]["properties"]["retry"] = {"$ref": "#/$defs/RetryPolicy"}
    text = pages.test_file_reference(schema)
    assert "## RetryPolicy {#retry-policy}" in text
    assert "`retry`: how often." in text  # the models' ``code`` is Markdown's `code`
    assert "| `times` | integer (≥ 1) |" in text
    assert "| `retry` | [RetryPolicy](#retry-policy) |" in text


# ---- the check rules ----------------------------------------------------------------------------


def test_the_site_has_the_pages_rule_docs_writes_for_every_rule(tmp_path: Path) -> None:
    generated = pages.check_rule_pages()
    written = {p.name: p.read_text(encoding="utf-8") for p in write_rule_docs(tmp_path)}
    assert generated == {f"check/rules/{name}": text for name, text in written.items()}
    assert set(generated) == {"check/rules/index.md"} | {
        f"check/rules/{i}.md" for i in [*RULES, *CHANGE_RULES]
    }
    index = generated["check/rules/index.md"]
    assert all(f"[`{i}`]({i}.md)" in index for i in [*RULES, *CHANGE_RULES])


def test_the_configuration_page_is_the_example_file() -> None:
    example = (ROOT / "config.example.toml").read_text(encoding="utf-8").rstrip()
    assert f"```toml\n{example}\n```" in pages.configuration_page()


def test_no_generated_page_is_committed() -> None:
    """A committed copy would be shadowed by the build (the hook warns) and drift unseen."""
    committed = {p.relative_to(ROOT / "docs").as_posix() for p in (ROOT / "docs").rglob("*.md")}
    assert committed & set(pages.generated_pages()) == set()
