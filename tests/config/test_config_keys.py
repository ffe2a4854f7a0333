"""``[keys]``: the person's own keys, by binding id, checked before any screen exists.

A typo in an id or a key would leave the binding where it was without a word, so both are config
errors naming the file, the key and the line; what is right reaches the app's options as the
keymap Textual applies (tests/ui/app/test_keymap.py shows it applied).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from mcp_tui.config.keys import key_problem
from mcp_tui.config.load import load_config
from tests.config.config_kit import error_of, write


def test_a_keys_table_reaches_the_app_options(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """
        [keys]
        "session.refresh" = "f5"
        "elicitation.accept" = "ctrl+s, f10"
        """,
        "config.toml",
    )
    settings = load_config(path, {}).settings
    keymap = {"session.refresh": "f5", "elicitation.accept": "ctrl+s, f10"}
    assert settings.keymap == keymap
    assert settings.to_options().keymap == keymap


def test_no_keys_table_is_no_keymap(tmp_path: Path) -> None:
    path = write(tmp_path, "[app]\n", "config.toml")
    assert load_config(path, {}).settings.to_options().keymap == {}


def test_an_unknown_binding_id_names_the_file_the_key_the_line_and_the_nearest_ids(
    tmp_path: Path,
) -> None:
    path = write(
        tmp_path,
        """
        [keys]
        "session.refresh" = "f5"
        "session.refesh" = "f6"
        """,
        "config.toml",
    )
    message = error_of(path)
    assert message.startswith(f'Config file {path}, line 3: keys."session.refesh": ')
    assert "no binding has this id" in message and "Your own keys" in message
    assert "did you mean session.refresh" in message


@pytest.mark.parametrize(
    ("keys", "why"),
    [
        ("ctrl+", "is not a key Textual knows"),
        ("pgdn", "is not a key Textual knows"),
        ("F5", "is not a key Textual knows"),
        ("", "no key given"),
        ("f5,,f6", "empty key between commas"),
        ("cmd+s", "'cmd' is not a modifier"),
        ("ctrl+ctrl+s", "repeats a modifier"),
        ("ctrl+S", "write a letter in lower case"),
        ("ctrl+?", "a sign by its name"),
    ],
)
def test_a_key_textual_never_sends_is_refused_with_the_way_to_write_it(
    tmp_path: Path, keys: str, why: str
) -> None:
    path = write(tmp_path, f'[keys]\n"session.refresh" = "{keys}"\n', "config.toml")
    message = error_of(path)
    assert message.startswith(f'Config file {path}, line 2: keys."session.refresh": ')
    assert why in message and '"ctrl+r"' in message


@pytest.mark.parametrize(
    "keys",
    ["f5", "ctrl+r", "shift+tab", "escape", "R", "?", "question_mark", "ctrl+question_mark",
     "slash", "+", "ctrl+shift+up", "enter, ctrl+s", "f24", "é"],
)  # fmt: skip
def test_keys_as_textual_writes_them_are_accepted(keys: str) -> None:
    assert key_problem(keys) is None


def test_a_value_that_is_not_a_string_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, '[keys]\n"session.refresh" = 5\n', "config.toml")
    assert 'line 2: keys."session.refresh": must be a string of keys' in error_of(path)


def test_an_unquoted_dotted_id_is_told_to_quote_it(tmp_path: Path) -> None:
    """``session.refresh = "f5"`` is a table ``session`` in TOML: say what to write instead."""
    path = write(tmp_path, '[keys]\nsession.refresh = "f5"\n', "config.toml")
    message = error_of(path)
    assert "keys.session: an id has a dot, so write it in quotes" in message


def test_keys_must_be_a_table(tmp_path: Path) -> None:
    path = write(tmp_path, 'keys = "f5"\n', "config.toml")
    assert "line 1: keys: must be a table of binding ids" in error_of(path)
