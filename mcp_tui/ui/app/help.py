"""The help screen (``?``, F1, "Help" in the palette): every key by context, and the verbs.

Nothing here is a hand-written copy of a key: the screen is built from the bindings themselves.
It imports every module of :mod:`mcp_tui.ui.screens` and :mod:`mcp_tui.ui.widgets` and lists, for
each class that declares ``BINDINGS`` (screens and widgets alike), the keys that mcp-tui's own
classes bind, with their descriptions; a new screen or key shows up by itself. The app's own keys
("Everywhere") come from the app that opened the help, handed in rather than walked: the app
imports this screen, so walking the roof as well would make the two import each other.
:data:`CONTEXTS` only titles and orders the contexts ("Everywhere" for the app's keys, ...); a
class it does not name is listed after them under its class name. The palette's verbs come from
:func:`mcp_tui.ui.app.commands.verbs_in`, grouped as the palette groups them. Opened rarely, so
importing every screen (forms, editors) here is fine.
"""

from __future__ import annotations

import importlib
import inspect
import itertools
import pkgutil
import re
from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.dom import DOMNode
from textual.screen import ModalScreen
from textual.widgets import Label, Static

import mcp_tui.ui.screens
import mcp_tui.ui.widgets
from mcp_tui.ui.app.keymap import applied
from mcp_tui.ui.widgets.key_footer import KeyFooter

#: Context titles, in the order shown: a class's name -> what the user calls that place.
CONTEXTS: dict[str, str] = {
    "McpTuiApp": "Everywhere",
    "SessionScreen": "Session screen",
    "CatalogTree": "Catalog (servers and what they offer)",
    "Transcript": "Transcript",
    "TrafficView": "Traffic view",
    "LogPanel": "Log panel",
    "ElicitationScreen": "Elicitation form (a server asks)",
    "SchemaForm": "Form fields",
    "BoolControl": "Checkbox field",
    "TriStateControl": "Yes / no / not set field",
    "MultiControl": "Multi-select field",
    "_FilterInput": "Option filter (long lists)",
    "UrlConsentScreen": "URL consent (a server asks you to open a page)",
    "ArgumentsScreen": "Tool, prompt and template arguments",
    "DetailScreen": "Details",
    "ConfirmScreen": "Questions (quit?, ...)",
    "ArmedConfirmScreen": "Questions (quit?, ...)",  # the same keys: shown once
    "RootsScreen": "Roots (the directories offered to a server)",
    "PickScreen": "Choose one (the call to cancel, the log level)",
    "OAuthWaitScreen": "Sign-in",
    "ChatScreen": "Chat with a model",
    "ToolBlock": "A tool call in the chat",
    "ChatSettingsScreen": "Chat: model and tools",
    "ResumeScreen": "Chat: saved conversations",
    "HelpScreen": "This help",
}

#: Key names as a person writes them.
_KEY_NAMES = {
    "escape": "Esc",
    "enter": "Enter",
    "question_mark": "?",
    "space": "Space",
    "tab": "Tab",
    "pagedown": "PgDn",
    "pageup": "PgUp",
    "backspace": "Backspace",
    "delete": "Delete",
    "up": "↑",
    "down": "↓",
    "left": "←",
    "right": "→",
    "home": "Home",
    "end": "End",
}


def key_name(key: str) -> str:
    """ "ctrl+s" -> "Ctrl+S", "question_mark" -> "?", "R" -> "R", "f1" -> "F1"."""
    *modifiers, base = key.split("+")
    if base in _KEY_NAMES:
        name = _KEY_NAMES[base]
    elif re.fullmatch(r"f\d+", base):
        name = base.upper()
    elif len(base) == 1:
        name = base.upper() if modifiers else base
    else:
        name = base.replace("_", " ").capitalize()
    return "+".join([*(m.capitalize() for m in modifiers), name])


def _own_bindings(cls: type[DOMNode]) -> list[Binding]:
    """The bindings mcp-tui's own classes in ``cls``'s ancestry declare (a subclass wins)."""
    found: dict[str, Binding] = {}
    for klass in reversed(cls.__mro__):
        declared = vars(klass).get("BINDINGS")
        if declared is None or not klass.__module__.startswith("mcp_tui."):
            continue
        for binding in Binding.make_bindings(declared):
            found[f"{binding.key}\0{binding.action}"] = binding
    return list(found.values())


def _title(name: str) -> str:
    words = re.sub(r"(?<!^)(?=[A-Z])", " ", name.lstrip("_")).lower()
    return words[:1].upper() + words[1:]


def _mcp_tui_class(cls: type[DOMNode]) -> type[DOMNode]:
    """``cls``, or the nearest of its ancestors that is mcp-tui's own (a test's subclass of the
    app is listed as the app)."""
    return next((k for k in cls.__mro__ if k.__module__.startswith("mcp_tui.")), cls)


def key_contexts(
    app: type[App[Any]] | None = None,
    keymap: Mapping[str, str] | None = None,
) -> list[tuple[str, list[tuple[str, str]]]]:
    """Every context with its keys: ``[(title, [(keys, description), ...]), ...]``; ``app`` is
    the class of the running app, whose keys work everywhere.

    Keys that run the same action are joined ("? / F1"); a binding's tooltip, when it has one, is
    shown rather than its footer word; bindings without a description (plain movement keys of
    lists) are left out. ``keymap`` (binding id -> keys, the config's ``[keys]``, as Textual
    normalised it) moves the bindings it names, as Textual does (``keymap.py``).
    """
    keymap = keymap or {}
    classes: dict[str, type[DOMNode]] = {"HelpScreen": HelpScreen}
    if app is not None:
        own = _mcp_tui_class(app)
        classes[own.__name__] = own
    walked = itertools.chain(
        pkgutil.walk_packages(mcp_tui.ui.screens.__path__, "mcp_tui.ui.screens."),
        pkgutil.walk_packages(mcp_tui.ui.widgets.__path__, "mcp_tui.ui.widgets."),
    )
    for module_info in walked:
        module = importlib.import_module(module_info.name)
        for name, cls in inspect.getmembers(module, inspect.isclass):
            if (
                issubclass(cls, DOMNode)
                and cls.__module__ == module.__name__
                and _own_bindings(cls)
            ):
                classes[name] = cls
    order = list(CONTEXTS)
    names = sorted(classes, key=lambda n: (order.index(n) if n in order else len(order), n))
    contexts: list[tuple[str, list[tuple[str, str]]]] = []
    seen_titles: set[str] = set()
    for name in names:
        rows: dict[tuple[str, str], list[str]] = {}
        for binding in applied(_own_bindings(classes[name]), keymap):
            if binding.description:
                # The tooltip, when there is one, says more than the footer's word.
                does = binding.tooltip or binding.description
                rows.setdefault((binding.action, does), []).append(key_name(binding.key))
        cls = classes[name]
        if issubclass(cls, App):
            # Textual's own app-wide key, bound at run time: the command palette.
            palette = cls.COMMAND_PALETTE_BINDING
            rows[("command_palette", "Command palette: every verb")] = [key_name(palette)]
        title = CONTEXTS.get(name, _title(name))
        if rows and title not in seen_titles:
            seen_titles.add(title)
            joined = [(" / ".join(keys), description) for (_, description), keys in rows.items()]
            contexts.append((title, joined))
    return contexts


def help_rows(app: App[Any] | None) -> Iterator[tuple[str, str, str]]:
    """The help as rows: ``("title", text, "")`` or ``("row", keys, description)``."""
    keymap = app._keymap if app is not None else None
    for title, rows in key_contexts(None if app is None else type(app), keymap):
        yield ("title", title, "")
        for keys, description in rows:
            yield ("row", keys, description)
    from mcp_tui.ui.app.commands import verbs_in

    found, session = verbs_in(app)
    if session is None:
        return
    yield ("title", "Command palette (Ctrl+P): type any part of a name", "")
    groups: dict[str, list[str]] = {}
    for verb in found:
        names = groups.setdefault(verb.group, [])
        if verb.verb not in names:
            names.append(verb.verb)
    for group, names in groups.items():
        yield ("row", group, " · ".join(names))


class HelpScreen(ModalScreen[None]):
    """Keys and verbs; Escape, ``?`` or F1 (the app's priority key) close it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,question_mark", "close", "Close", id="help.close"),
    ]

    DEFAULT_CSS = """
    HelpScreen { align: center middle; background: $background 70%; }
    HelpScreen > #help-dialog {
        width: 92%; max-width: 100; height: 90%;
        border: thick $primary; background: $surface; padding: 0 1;
    }
    HelpScreen #help-title { text-style: bold; color: $text-primary; width: 1fr; }
    HelpScreen #help-hint { color: $text-muted; width: 1fr; }
    HelpScreen #help-scroll { height: 1fr; scrollbar-size-vertical: 1; }
    HelpScreen .help-context { text-style: bold; color: $text-primary; margin-top: 1; }
    HelpScreen .help-row { height: auto; }
    HelpScreen .help-keys { width: 18; padding-left: 2; text-style: bold; color: $text-accent; }
    HelpScreen .help-does { width: 1fr; }
    """

    def compose(self) -> ComposeResult:
        with Vertical(id="help-dialog"):
            yield Label("Keys and commands", id="help-title")
            yield Label("↑ ↓ PgUp PgDn scroll · Esc closes", id="help-hint")
            with VerticalScroll(id="help-scroll"):
                for kind, first, second in help_rows(self.app):
                    if kind == "title":
                        yield Static(Content(first), classes="help-context")
                    else:
                        with Horizontal(classes="help-row"):
                            yield Static(Content(first), classes="help-keys")
                            yield Static(Content(second), classes="help-does")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#help-scroll").focus()

    def action_close(self) -> None:
        self.dismiss(None)
