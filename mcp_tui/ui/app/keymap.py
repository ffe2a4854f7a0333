"""The config's ``[keys]`` as Textual applies them, and the bindings that lose their key to them.

The app hands the table to ``App.set_keymap`` (checked beforehand: ``config/keys.py``). Textual
moves every binding with a named id to the keys given; a binding of the same screen or widget
that had one of those keys loses it (the person asked for that key), and Textual 8.2 says so
only for bindings without an id (``handle_bindings_clash``). :func:`keys_taken` finds them all,
for the app's start-up warning, and :func:`applied` gives the bindings as they are after the
keymap, for the help screen, so it never lists a key that no longer does what it says.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from textual.app import App
from textual.binding import Binding, BindingsMap
from textual.dom import DOMNode


def applied(bindings: Iterable[Binding], keymap: Mapping[str, str]) -> list[Binding]:
    """``bindings`` with ``keymap`` applied (Textual's rules), in their order; those left
    without a key are gone."""
    given = list(bindings)
    if not keymap:
        return given
    keys = BindingsMap(given)
    keys.apply_keymap(keymap)
    moved = [binding for found in keys.key_to_bindings.values() for binding in found]
    # In the order given (a moved binding where it was declared), not Textual's order by key.
    first: dict[tuple[str, str | None, str], int] = {}
    for at, binding in enumerate(given):
        first.setdefault((binding.action, binding.id, binding.description), at)
    return sorted(moved, key=lambda b: first.get((b.action, b.id, b.description), len(given)))


def keys_taken(
    keymap: Mapping[str, str], classes: Iterable[type[DOMNode]]
) -> Iterator[tuple[type[DOMNode], Binding]]:
    """Each class's bindings (Textual's own included) that ``keymap`` took a key from, with
    that key (a binding on two keys may keep the other)."""
    if not keymap:
        return
    for cls in classes:
        before = [b for found in cls._merge_bindings().key_to_bindings.values() for b in found]
        after = {(b.key, b.action, b.id) for b in applied(before, keymap)}
        for binding in before:
            if binding.id not in keymap and (binding.key, binding.action, binding.id) not in after:
                yield cls, binding


def loaded_classes() -> Iterator[type[DOMNode]]:
    """mcp-tui's screens and widgets whose modules are loaded now (forms load when first shown)."""
    for name, module in list(sys.modules.items()):
        if not name.startswith("mcp_tui.ui.") or module is None:
            continue
        for value in list(vars(module).values()):
            if isinstance(value, type) and issubclass(value, DOMNode) and value.__module__ == name:
                yield value


class TakenKeys:
    """Says, once each, which bindings the person's ``[keys]`` took a key from, so they can
    give one of the two another key."""

    def __init__(self, app: App[Any]) -> None:
        self._app = app
        self._told: set[tuple[str, str]] = set()

    def say_loaded(self) -> None:
        """Every binding of the screens loaded so far (at start: the session screen's) that
        lost a key; a form's are checked by the tests (``tests/ui/app/test_keymap.py``)."""
        keymap = self._app._keymap
        for _, binding in keys_taken(keymap, loaded_classes() if keymap else ()):
            self.say(binding)

    def say(self, binding: Binding) -> None:
        """``binding`` lost ``binding.key`` to the person's ``[keys]``."""
        told = (binding.id or binding.action, binding.key)
        if told in self._told:
            return
        self._told.add(told)
        what = binding.description or binding.action
        self._app.notify(
            f"[keys] gave {self._app.get_key_display(binding)} to another binding: {what!r} "
            f"({binding.id or 'no id'}) has no key there now.",
            severity="warning",
            timeout=10,
            markup=False,
        )
