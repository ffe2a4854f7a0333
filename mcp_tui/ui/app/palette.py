"""How a verb looks and is found in the command palette, whatever the verb does.

A palette entry is a :class:`Verb`: its group, its words, the item it acts on and the key that
runs it too. :class:`VerbPalette` is the Textual provider that shows every verb before any
typing, in the order of :data:`GROUPS`, and fuzzy-matches them as the user types. Which verbs
exist is :mod:`mcp_tui.ui.app.commands`' business; this module knows nothing of servers or screens.

Tool and server names are untrusted: a verb's subject is displayed as literal ``Content`` and
highlighted here (Textual's ``Matcher.highlight`` parses its argument as markup). Help lines are
parsed as markup by Textual, so they hold only mcp-tui's own words, never a server's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from msgspec import Struct
from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.content import Content
from textual.screen import Screen

from mcp_tui.ui.literal import literal_line

#: The palette's groups, in the order they are shown (a verb's ``group`` names one).
GROUPS: tuple[str, ...] = ("Help", "Call", "Server", "Waiting", "View", "App")
#: Width of the group column in the palette (the longest group name and a space).
_GROUP_WIDTH = max(len(group) for group in GROUPS) + 1


class Verb(Struct, frozen=True):
    """One palette entry: ``verb`` and ``help`` are ours, ``subject`` may be a server's string.

    ``action`` names the screen or app action the verb runs, when a key runs it too: the palette
    and the help screen then show that key, looked up in the bindings (never written twice).
    ``note`` (a server's title for the item, untrusted) is shown dimmed after the subject.
    ``help`` is parsed as markup by Textual: only mcp-tui's own words.
    """

    group: str
    verb: str
    subject: str
    help: str
    run: Callable[[], object]
    action: str = ""
    note: str = ""

    @property
    def text(self) -> str:
        return f"{self.verb}  {self.subject}" if self.subject else self.verb

    def display(self, offsets: tuple[int, ...] = (), key: str = "") -> Content:
        content = Content.assemble(
            (self.verb, "bold"), "  " if self.subject else "", literal_line(self.subject)
        )
        # Offsets index ``text``; ``literal_line`` may lengthen the subject (escapes), so only
        # highlight positions that still line up: the verb, and a subject left unchanged.
        same = content.plain == self.text
        for offset in offsets:
            if offset < len(self.verb) or same:
                content = content.stylize("bold $accent underline", offset, offset + 1)
        group = Content.styled(self.group.ljust(_GROUP_WIDTH), "$text-muted")
        shown = Content.assemble(group, content)
        if self.note and self.note != self.subject.rpartition(" › ")[2]:
            shown = Content.assemble(shown, "  ", literal_line(self.note, limit=60, style="dim"))
        if key:
            shown = Content.assemble(shown, Content.styled(f"  {key}", "$text-muted"))
        return shown


def in_group_order(found: Iterable[Verb]) -> list[Verb]:
    """``found`` in :data:`GROUPS` order (a group not listed there last); stable, so each group
    keeps the order its verbs were made in."""

    def rank(verb: Verb) -> int:
        return GROUPS.index(verb.group) if verb.group in GROUPS else len(GROUPS)

    return sorted(found, key=rank)


def key_for(screen: Screen[Any], action: str) -> str:
    """How the key bound to ``action`` on ``screen`` or its app is written ("t", "^p"), or ""
    when no key runs it."""
    if not action:
        return ""
    app = screen.app
    for node in (screen, app):
        keys = node._bindings.copy()
        keys.apply_keymap(app._keymap)  # ``[keys]`` in the config: the person's own keys
        for bindings in keys.key_to_bindings.values():
            for binding in bindings:
                if binding.action == action:
                    return app.get_key_display(binding)
    return ""


class VerbPalette(Provider):
    """A provider that shows all its verbs, grouped, before typing; subclasses say which
    (:meth:`verbs_with_keys`)."""

    def verbs_with_keys(self) -> list[tuple[Verb, str]]:
        """The verbs available now, in order, each with the key that runs it (or "")."""
        return []

    async def discover(self) -> Hits:
        for verb, key in self.verbs_with_keys():
            yield DiscoveryHit(verb.display(key=key), verb.run, text=verb.text, help=verb.help)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for verb, key in self.verbs_with_keys():
            text = verb.text
            score, offsets = matcher.fuzzy_search.match(matcher.query, text)
            if score > 0:
                display = verb.display(tuple(offsets), key=key)
                yield Hit(score, display, verb.run, text=text, help=verb.help)
