"""Writing test files: append a case (the TUI's "Save as a test"), rewrite snapshot expectations
in place (``mcp-tui test --update``).

TOML is edited with ``tomlkit``, which keeps a document's comments, key order, blank lines and
the style of each table (inline or not): the stdlib reads TOML but cannot write it back, and a
test file is something people edit and review in diffs. JSON test files are rewritten whole
(two-space indent), as JSON keeps no comments to lose. Every write is checked by loading the
result as a test file first, and goes to a temporary file renamed over the old one, so a file
is never left half-written or invalid, and keeps its mode.

Values written come from what a server sent (results, schemas) and from what the person
answered: never from the environment. ``${VAR}`` placeholders in the server table are left as
they are.

Pure: the standard library and tomlkit.
"""

from __future__ import annotations

import json
import os
import secrets
import stat
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import tomlkit
from tomlkit import TOMLDocument
from tomlkit.items import AoT, Array, InlineTable, Item, Table

from mcp_tui.config.text import KeyPath
from mcp_tui.testbench.load import TestFileError, parse_test_file

#: A dict longer than this (as JSON) is written as a table of its own, not inline.
INLINE_LIMIT = 70


def append_case(
    path: str | os.PathLike[str],
    case: Mapping[str, Any],
    *,
    server: Mapping[str, Any] | str | None = None,
    eras: Sequence[str] | None = None,
    comments: Mapping[KeyPath, str] | None = None,
) -> None:
    """Append ``case`` (the keys of a ``[[case]]``) to the test file at ``path``.

    A file that does not exist yet is created with ``server`` (required then) and ``eras``. A
    case whose name is taken gets `` (2)``, `` (3)``... appended. :class:`TestFileError` when the
    result would not be a valid test file (nothing is written then). ``comments``: by key path
    under the case, a comment written at the end of that key's line (TOML only).
    """
    file = Path(path)
    if file.suffix.lower() == ".json":
        _append_json(file, dict(case), server, eras)
        return
    if file.exists():
        doc = tomlkit.parse(file.read_text(encoding="utf-8-sig"))
    else:
        if server is None:
            raise TestFileError(f"Test file {file} does not exist yet: name its server.")
        doc = tomlkit.document()
        doc.add("server", server if isinstance(server, str) else _item(dict(server), inline=False))
        if eras:
            doc.add("eras", list(eras))
    cases = doc.get("case")
    if cases is None:
        cases = tomlkit.aot()
        doc.add(tomlkit.nl())
        doc.add("case", cases)
    if not isinstance(cases, AoT):
        raise TestFileError(f"Test file {file}: `case` is not a list of [[case]] tables.")
    entry = dict(case)
    entry["name"] = _free_name(str(entry.get("name") or "case"), [c.get("name") for c in cases])
    cases.append(_case_table(entry))
    _put_comments(cases[-1], comments or {})
    _write(file, tomlkit.dumps(doc))


def set_values(
    path: str | os.PathLike[str],
    updates: Sequence[tuple[KeyPath, Any]],
    *,
    remove: Sequence[KeyPath] = (),
    comments: Mapping[KeyPath, str] | None = None,
) -> None:
    """Set each key path (``("case", 2, "expect", "text")``) to its value, keeping the rest of
    the file as it is; the key's table keeps its style (inline or not). ``remove``: key paths
    taken out first; ``comments``: written at the end of a key's line (TOML only)."""
    file = Path(path)
    text = file.read_text(encoding="utf-8-sig")
    if file.suffix.lower() == ".json":
        data = json.loads(text)
        for key in remove:
            _parent(data, key).pop(key[-1], None)
        for key, value in updates:
            _set_plain(data, key, value)
        _write(file, json.dumps(data, indent=2, ensure_ascii=False) + "\n")
        return
    doc = tomlkit.parse(text)
    for key in remove:
        parent = _parent(doc, key)
        if key[-1] in parent:
            del parent[key[-1]]
    for key, value in updates:
        node: Any = doc
        for part in key[:-1]:
            node = node[part]
        last = key[-1]
        # In an inline table or array a value must be inline; in a table, a long object becomes
        # a table of its own (tomlkit moves it after the plain keys).
        inline = isinstance(node, InlineTable | Array) or _short(value)
        item = _item(value, inline=inline or not isinstance(value, Mapping))
        if isinstance(item, Table):
            item.add(tomlkit.nl())
        node[last] = item
    _put_comments(doc, comments or {})
    _write(file, tomlkit.dumps(doc))


def _parent(root: Any, key: KeyPath) -> Any:
    node = root
    for part in key[:-1]:
        node = node[part]
    return node


def _put_comments(root: Any, comments: Mapping[KeyPath, str]) -> None:
    """Each comment at the end of the line that holds its key: the key's own line in a table,
    the line of the inline table or array it is inside otherwise (TOML has no comment inside
    one); comments that land on one line are joined."""
    lines: dict[int, tuple[Item, list[str]]] = {}
    for key, text in comments.items():
        chain = [root]
        for part in key:
            chain.append(chain[-1][part])
        for i in range(len(chain) - 1, 0, -1):
            item = chain[i]
            if isinstance(chain[i - 1], Table | TOMLDocument) and isinstance(item, Item):
                lines.setdefault(id(item), (item, []))[1].append(" ".join(text.split()))
                break
    for item, texts in lines.values():
        item.comment("; ".join(texts))


# ---- building TOML ------------------------------------------------------------------------------


def _case_table(case: Mapping[str, Any]) -> Table:
    """A ``[[case]]`` table: scalars and short values inline, ``expect`` as ``[case.expect]``,
    answers (and setup steps) as inline tables when short, else ``[[case.answers]]``
    (``[[case.setup]]``)."""
    table = tomlkit.table()
    order = ["name", "tool", "prompt", "resource", "arguments", "task", "eras", "timeout"]
    keys = [k for k in order if k in case] + [k for k in case if k not in order]
    for key in keys:
        value = case[key]
        if key == "expect" and isinstance(value, Mapping):
            table.add(key, _item(dict(value), inline=_short(value)))
        elif key in ("answers", "setup", "teardown") and isinstance(value, list) and value:
            if all(_short(a) for a in value):
                array = tomlkit.array()
                array.multiline(len(value) > 1)
                for answer in value:
                    array.append(_item(answer, inline=True))
                table.add(key, array)
            else:
                aot = tomlkit.aot()
                for answer in value:
                    aot.append(_item(answer, inline=False))
                table.add(key, aot)
        else:
            table.add(key, _item(value, inline=True))
    table.add(tomlkit.nl())
    return table


def _is_tables(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, Mapping) for v in value)


def _short(value: Any) -> bool:
    if isinstance(value, str):
        return "\n" not in value
    try:
        return len(json.dumps(value, ensure_ascii=False)) <= INLINE_LIMIT
    except (TypeError, ValueError):
        return False


def _item(value: Any, *, inline: bool) -> Item:
    """A TOML item for a JSON value. TOML has no null: ``None`` cannot be written (callers leave
    such keys out)."""
    if value is None:
        raise TestFileError("a null value cannot be written to TOML")
    if isinstance(value, str):
        if "\n" in value:
            return tomlkit.string(value, multiline=True)
        if ('"' in value or "\\" in value) and "'" not in value and value.isprintable():
            # JSON text and regexes read better unescaped
            return tomlkit.string(value, literal=True)
        return tomlkit.item(value)
    if isinstance(value, Mapping):
        if inline:
            inline_table = tomlkit.inline_table()
            for k, v in value.items():
                inline_table.append(k, _item(v, inline=True))
            return inline_table
        table = tomlkit.table()
        for k, v in value.items():
            if _is_tables(v) and not _short(v):
                aot = tomlkit.aot()
                for one in v:
                    aot.append(_item(one, inline=False))
                table.add(k, aot)
            else:
                table.add(k, _item(v, inline=_short(v) or not isinstance(v, Mapping)))
        return table
    if isinstance(value, list | tuple):
        array = tomlkit.array()
        for v in value:
            array.append(_item(v, inline=True))
        if not _short(list(value)):
            array.multiline(True)
        return array
    item: Item = tomlkit.item(value)
    return item


def _free_name(name: str, taken: Sequence[Any]) -> str:
    if name not in taken:
        return name
    n = 2
    while f"{name} ({n})" in taken:
        n += 1
    return f"{name} ({n})"


# ---- JSON and the write itself -----------------------------------------------------------------


def _append_json(
    file: Path,
    case: dict[str, Any],
    server: Mapping[str, Any] | str | None,
    eras: Sequence[str] | None,
) -> None:
    if file.exists():
        data = json.loads(file.read_text(encoding="utf-8-sig"))
    else:
        if server is None:
            raise TestFileError(f"Test file {file} does not exist yet: name its server.")
        data = {"server": server if isinstance(server, str) else dict(server)}
        if eras:
            data["eras"] = list(eras)
    cases = data.setdefault("case", [])
    case["name"] = _free_name(str(case.get("name") or "case"), [c.get("name") for c in cases])
    cases.append(case)
    _write(file, json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def _set_plain(data: Any, key: KeyPath, value: Any) -> None:
    node = data
    for part in key[:-1]:
        node = node[part]
    node[key[-1]] = value


def _write(file: Path, text: str) -> None:
    """Write ``text`` to ``file`` through a temporary file renamed over it. A test file is a
    reviewed, committed file: an existing one keeps its mode (0644 stays 0644), a new one gets
    the umask's, as any editor would write it (``mkstemp``'s 0600 is for secrets)."""
    parse_test_file(text, file)  # never write a file `mcp-tui test` would refuse
    file.parent.mkdir(parents=True, exist_ok=True)
    try:
        mode: int | None = stat.S_IMODE(file.stat().st_mode)
    except FileNotFoundError:
        mode = None
    while True:
        tmp = file.parent / f".mcptest-{secrets.token_hex(6)}.tmp"
        try:
            # 0o666 less the umask, as open() creates a file; O_EXCL: never someone else's.
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
            break
        except FileExistsError:
            continue
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, file)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
