"""``[keys]``: a person's own keys for mcp-tui's bindings, named by binding id.

Every key of a screen or widget a person may want elsewhere has an id (``session.refresh``,
``elicitation.accept``); the ``[keys]`` table of the config file maps ids to keys, written as
Textual writes them, several separated by commas::

    [keys]
    "session.refresh" = "f5"
    "elicitation.accept" = "ctrl+s,ctrl+enter"

The app hands the table to Textual (``App.set_keymap``), which moves each binding with that id to
the keys given, in every screen that has it; the footer, the palette and the help screen show
the new keys. Checked here, before any screen exists: an id no binding has, or a key Textual
never sends, is a config error that names the file, the key and the line (a typo would otherwise
leave the binding where it was, silently).

The ids are listed here, so the check needs no screen imported on the way to the first frame;
``tests/ui/app/test_keymap.py`` compares the list with the bindings themselves, so it cannot drift,
and checks the docs' Keys page lists every id.
"""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Mapping

#: Every binding id a ``[keys]`` table may name (the docs' Keys page, "Your own keys", says what
#: each does).
BINDING_IDS: frozenset[str] = frozenset(
    {
        # everywhere
        "app.help",
        "app.help_f1",
        "app.quit",
        "app.tour_next",
        # the session screen, its catalog, transcript and traffic view
        "session.call_again",
        "session.cancel_call",
        "session.chat",
        "session.details",
        "session.interrupt",
        "session.maximize_logs",
        "session.next_area",
        "session.reconnect",
        "session.refresh",
        "session.roots",
        "session.save_as_test",
        "session.subscribe",
        "session.switch_era",
        "session.toggle_asking",
        "session.toggle_logs",
        "session.toggle_traffic",
        "session.url_done",
        "session.url_give_up",
        "catalog.call",
        "catalog.dialog",
        "catalog.space",
        "transcript.full_text",
        "traffic.filter",
        "traffic.newest",
        "traffic.open",
        "message_tree.close",
        "message_tree.collapse",
        "message_tree.copy",
        "message_tree.expand",
        "message_tree.search",
        # a server asks: forms, URL consent, sampling review
        "elicitation.accept",
        "elicitation.cancel",
        "elicitation.decline",
        "answer.wire",
        "url.copy",
        "sampling.ask_model",
        "oauth.cancel",
        # tool, prompt and template arguments
        "arguments.cancel",
        "arguments.defaults",
        "arguments.send",
        "arguments.toggle_editor",
        # dialogs
        "confirm.no",
        "confirm.yes",
        "detail.close",
        "detail.copy_all",
        "export_session.close",
        "export_session.save",
        "help.close",
        "pick.close",
        "roots.apply",
        "roots.close",
        "roots.remove",
        "save_test.close",
        "save_test.save",
        # the chat
        "chat.always",
        "chat.deny",
        "chat.escape",
        "chat.export",
        "chat.new",
        "chat.resume",
        "chat.run",
        "chat.settings",
        "chat.toggle",
        "chat_resume.cancel",
        "chat_settings.cancel",
        "chat_settings.keep",
    }
)

#: The modifiers Textual puts before a key ("ctrl+shift+up").
MODIFIERS = ("ctrl", "alt", "shift", "meta", "super", "hyper")
#: Keys Textual names by a word (letters, digits and signs are written as themselves).
NAMED_KEYS = frozenset(
    {
        "escape",
        "enter",
        "return",
        "tab",
        "space",
        "backspace",
        "delete",
        "insert",
        "home",
        "end",
        "pageup",
        "pagedown",
        "up",
        "down",
        "left",
        "right",
        *(f"f{number}" for number in range(1, 25)),
    }
)
#: Signs Textual names by a word of its own rather than the Unicode name ("/" is ``slash``).
_SIGN_WORDS = frozenset({"slash", "backslash", "at", "minus", "plus", "underscore"})

KEY_FORMAT = (
    'keys are written as Textual writes them: "f5", "ctrl+r", "shift+tab", "escape", "R", "?" '
    '(or its name, "question_mark"); several are separated by commas'
)


def key_problem(keys: str) -> str | None:
    """Why ``keys`` (one ``[keys]`` value) is not keys Textual sends, or ``None`` if it is."""
    if not keys.strip():
        return "no key given"
    for key in (part.strip() for part in keys.split(",")):
        if not key:
            return f"{keys!r} has an empty key between commas"
        *modifiers, base = ("+",) if key == "+" else key.split("+")
        unknown = [m for m in modifiers if m not in MODIFIERS]
        if unknown:
            return f"{key!r}: {unknown[0]!r} is not a modifier ({', '.join(MODIFIERS)})"
        if len(set(modifiers)) != len(modifiers):
            return f"{key!r} repeats a modifier"
        if not _is_key(base):
            return f"{key!r} is not a key Textual knows"
        if modifiers and len(base) == 1 and not (base.isalnum() and base == base.lower()):
            # Textual sends "ctrl+r" and "ctrl+question_mark", never "ctrl+R" or "ctrl+?".
            return f"{key!r}: after a modifier, write a letter in lower case and a sign by its name"
    return None


def _is_key(base: str) -> bool:
    if len(base) == 1:
        return base.isprintable() and not base.isspace()
    if base in NAMED_KEYS or base in _SIGN_WORDS:
        return True
    if base != base.lower() or not base.replace("_", "").isalpha():
        return False
    try:  # a sign by its Unicode name, as Textual names it ("question_mark")
        unicodedata.lookup(base.replace("_", " "))
    except KeyError:
        return False
    return True


def id_problem(binding_id: str) -> str | None:
    """Why no binding has ``binding_id`` (with the nearest ids), or ``None`` if one has."""
    if binding_id in BINDING_IDS:
        return None
    near = difflib.get_close_matches(binding_id, sorted(BINDING_IDS), n=3)
    hint = f"; did you mean {' or '.join(near)}?" if near else ""
    return (
        'no binding has this id (the ids are listed in the docs\' Keys page, "Your own keys")'
        + hint
    )


def keymap_problems(table: Mapping[str, object]) -> tuple[str, str] | None:
    """The first ``(id, why)`` wrong in a ``[keys]`` table, or ``None`` when every entry is fine."""
    for binding_id, keys in table.items():
        if isinstance(keys, dict):  # ``session.refresh = "f5"``: TOML reads a table "session"
            return binding_id, 'an id has a dot, so write it in quotes: "session.refresh" = "f5"'
        problem = id_problem(binding_id)
        if problem is None:
            if not isinstance(keys, str):
                problem = 'must be a string of keys, e.g. "f5" or "ctrl+r,f5"'
            else:
                found = key_problem(keys)
                problem = None if found is None else f"{found} ({KEY_FORMAT})"
        if problem is not None:
            return binding_id, problem
    return None
