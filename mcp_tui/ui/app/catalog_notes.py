"""Transcript notes when a server's lists change: after ``r`` (refresh), a reconnect or a
``list_changed`` notification, say what changed ("refreshed: 12 tools (2 new: a, b)"): names
new and gone, and items whose definition changed under the same name.

A listing of every kind at once is a refresh (``Catalog.refresh_all``, or several changes merged
in one flush); a listing of one kind is that kind's ``list_changed``. The first listing after
connecting is not noted: the catalog shows it.
"""

from __future__ import annotations

from collections.abc import Sequence

from textual.content import Content

from mcp_tui.session.events import CatalogChanged, PromptInfo, ResourceInfo, ToolInfo
from mcp_tui.ui.literal import literal_line
from mcp_tui.ui.render import Entry
from mcp_tui.ui.server_state import ServerEntry

#: Names listed per change at most ("3 new: a, b, c, …").
SHOWN_NAMES = 3

Item = ToolInfo | PromptInfo | ResourceInfo


def _name(item: Item) -> str:
    return item.uri if isinstance(item, ResourceInfo) else item.name


def _names(names: Sequence[str]) -> str:
    shown = ", ".join(names[:SHOWN_NAMES])
    return shown + (", …" if len(names) > SHOWN_NAMES else "")


def describe_kind(kind: str, old: Sequence[Item], new: Sequence[Item]) -> str:
    """ "12 tools (2 new: a, b; 1 removed: c; 1 changed: d)" or "12 tools (no change)".

    "changed": the same name with another definition (a schema, a description, a title): what
    a ``--watch`` restart after editing a tool shows.
    """
    before = [_name(i) for i in old]
    after = [_name(i) for i in new]
    had, has = set(before), set(after)  # once: a set per name made 3,000 tools take seconds
    added = [n for n in after if n not in had]
    removed = [n for n in before if n not in has]
    was = {_name(i): i for i in old}
    edited = [_name(i) for i in new if _name(i) in was and was[_name(i)] != i]
    word = kind if len(after) != 1 else kind[:-1]
    changes = []
    if added:
        changes.append(f"{len(added)} new: {_names(added)}")
    if removed:
        changes.append(f"{len(removed)} removed: {_names(removed)}")
    if edited:
        changes.append(f"{len(edited)} changed: {_names(edited)}")
    if not changes and before != after:
        changes.append("changed")
    return f"{len(after)} {word} ({'; '.join(changes) if changes else 'no change'})"


def catalog_note(entry: ServerEntry, event: CatalogChanged) -> Entry | None:
    """The note for ``event`` applied to ``entry`` (call before applying it), or None for the
    first listing."""
    if entry.catalog_version == 0:
        return None
    kinds: list[tuple[str, Sequence[Item], Sequence[Item]]] = []
    if event.tools is not None:
        kinds.append(("tools", entry.tools, event.tools))
    if event.prompts is not None:
        kinds.append(("prompts", entry.prompts, event.prompts))
    if event.resources is not None:
        kinds.append(("resources", entry.resources, event.resources))
    if not kinds:
        return None
    what = "refreshed" if len(kinds) == 3 else f"{kinds[0][0]} list changed"
    text = f"{entry.shown_name}: {what}: " + ", ".join(describe_kind(*k) for k in kinds)
    summary = Content.assemble(("↻ ", "dim"), literal_line(text, limit=400))
    return Entry("notice", summary, text, text)
