"""Unit tests: the URL waits registry, their transcript lines, and no Textual private overrides."""

from __future__ import annotations

import asyncio
import importlib
import inspect
import pkgutil
import sys

import pytest
from textual.app import App

import mcp_tui
from mcp_tui.config.options import AppOptions
from mcp_tui.session.elicitation import ElicitationRequest
from mcp_tui.ui.app import McpTuiApp
from mcp_tui.ui.render import url_wait_entry
from mcp_tui.ui.url_waits import EARLY_COMPLETIONS_KEPT, UrlWaits, WaitState


def request(ident: str | None = "e1", server: str = "demo", **kw: object) -> ElicitationRequest:
    return ElicitationRequest(
        server=server,
        message="m",
        mode="url",
        url="https://example.com:8443/x",
        elicitation_id=ident,
        **kw,  # type: ignore[arg-type]
    )


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_add_is_idempotent_and_complete_matches_server_and_id() -> None:
    waits = UrlWaits()
    first = waits.add(request("e1"))
    assert waits.add(request("e1")) is first  # the consent answer and the -32042 path
    other = waits.add(request("e1", server="other"))
    assert waits.complete("demo", "nope") == []
    assert waits.complete("demo", "e1") == [first]
    assert first.state == "completed" and other.waiting
    assert waits.complete("demo", "e1") == []  # repeated: nothing changes
    assert first.host == "example.com:8443" and first.subject == "demo"


def test_early_completions_count_but_are_bounded() -> None:
    waits = UrlWaits()
    waits.complete("demo", "early")
    assert waits.add(request("early")).state == "completed"
    for i in range(EARLY_COMPLETIONS_KEPT + 5):
        waits.complete("demo", f"junk-{i}")
    assert waits.add(request("junk-0")).waiting  # forgotten: memory stays bounded
    assert waits.add(request("junk-10")).state == "completed"


def test_deadlines_and_time_left() -> None:
    clock = Clock()
    waits = UrlWaits(timeout=60, clock=clock)
    wait = waits.add(request())
    assert wait.remaining(clock.now) == 60
    clock.now += 59.5
    assert waits.expire() == [] and wait.remaining(clock.now) == 0.5
    clock.now += 0.5
    assert waits.expire() == [wait] and wait.state == "timed_out"
    assert waits.end(wait.key, "done") is None  # already ended


def test_call_end_only_ends_waits_without_an_id() -> None:
    waits = UrlWaits()
    modern = waits.add(request(None, call_id=7))
    legacy = waits.add(request("e2", call_id=7))
    elsewhere = waits.add(request(None, call_id=8))
    assert waits.call_ended("demo", 7) == [modern]
    assert legacy.waiting and elsewhere.waiting
    assert waits.server_gone("demo") == [legacy, elsewhere]
    assert elsewhere.state == "closed"


def test_ended_waits_are_forgotten_beyond_a_bound() -> None:
    waits = UrlWaits(keep_ended=3)
    keys = []
    for i in range(10):
        wait = waits.add(request(f"id{i}"))
        keys.append(wait.key)
        waits.end(wait.key, "gave_up")
    assert [k for k in keys if waits.get(k) is not None] == keys[-3:]


@pytest.mark.anyio
async def test_settled_wakes_when_every_wait_ended() -> None:
    waits = UrlWaits()
    a, b = waits.add(request("a")), waits.add(request("b"))
    task = asyncio.ensure_future(waits.settled([a.key, b.key]))
    await asyncio.sleep(0)
    waits.complete("demo", "a")
    await asyncio.sleep(0)
    assert not task.done()
    waits.end(b.key, "done")
    assert [w.state for w in await asyncio.wait_for(task, 5)] == ["completed", "done"]


def test_transcript_lines_for_each_way_a_wait_ends() -> None:
    waits = UrlWaits(timeout=600)
    texts: dict[str, str | None] = {}
    states: tuple[WaitState, ...] = ("completed", "done", "gave_up", "timed_out", "closed")
    for state in (*states, "call_ended"):
        wait = waits.add(request(state, tool="list_files"))
        waits.end(wait.key, state)
        entry = url_wait_entry(wait, 600)
        texts[state] = entry.summary.plain if entry is not None else None
    assert texts["completed"] == (
        "✓ demo › list_files: the page at example.com:8443 is finished (the server completed "
        "elicitation completed)"
    )
    assert texts["done"] == "✓ demo › list_files: you marked the page at example.com:8443 as done"
    assert texts["gave_up"] is not None and "(you gave up)" in texts["gave_up"]
    assert (
        texts["timed_out"] is not None and "no completion within 10 minutes" in texts["timed_out"]
    )
    assert texts["closed"] is not None and "the connection ended" in texts["closed"]
    assert texts["call_ended"] is None  # the call's own result says it all


# --- nothing overrides a Textual private name ------------------------------------------------

#: Set on every class by Textual's metaclass machinery, not by us.
GENERATED = {
    "_decorated_handlers",
    "_reactives",
    "_inherit_css",
    "_inherit_bindings",
    "_inherit_component_classes",
    "_css_type_name",
    "_merged_bindings",
    "_css_type_names",
    "_computes",
    "_abc_impl",
}


#: Overridden on purpose, each with a test of its own that fails if Textual changes under it.
DELIBERATE = {
    # Nothing shows through an opaque screen (``test_app.py``: the session screen under a form).
    "McpTuiApp._background_screens (App)",
    # Keys reach the focused control in the order they were typed, even while it is busy
    # (``key_order.py``; ``test_form_burst.py`` checks the internals it relies on are there).
    "OrderedKeys._forward_event (Widget)",
    "SequencedScreen._forward_event (Screen)",
    # The box a boolean draws (☑ / ☐); test_contrast.py reads those glyphs off the screen.
    "BoolControl._button (ToggleButton)",
    # A screen that answers a server drops keys typed before it was armed (``screens/arming.py``;
    # test_arming_screens.py and url/test_consent_arming.py press keys at 0 ms and 50 ms).
    "ArmedScreen._forward_event (Screen)",
    # ...and it appeared when its first frame was written, which Textual does in this method and
    # has no hook for (test_arming_screens.py types a key while the callbacks after it are late).
    "ArmedScreen._compositor_refresh (Screen)",
    # Server values drawn inert while the value stays the server's (``widgets/text/inert.py``): what
    # is drawn and where the cursor and clicks land are measured on the drawn text
    # (test_inert_values.py reads the bytes written, and types and clicks over ESCs).
    "InertInput._value (Input)",
    "InertInput._cell_offset_to_index (Input)",
    "InertInput._position_to_cell (Input)",
    "InertTextArea._set_document (TextArea)",
}


def _modules() -> list[str]:
    """Every module of mcp_tui but ``__main__`` ones (importing those would run the program).
    A module needing an optional extra that is not installed is left out."""
    names = []
    for info in pkgutil.walk_packages(mcp_tui.__path__, "mcp_tui."):
        if info.name.rsplit(".", 1)[-1] == "__main__":
            continue
        try:
            importlib.import_module(info.name)
        except ModuleNotFoundError as exc:
            if exc.name is not None and exc.name.split(".")[0] != "mcp_tui":
                continue
            raise
        names.append(info.name)
    return names


def _overrides_in(module_name: str) -> set[str]:
    """``Class.name (TextualBase)`` for every private name a class of the module (or a mixin of
    mcp_tui it uses) defines that a Textual class after it in the MRO defines too. Mixins
    (``class OrderedKeys(object)`` at run time) are judged in the classes that use them, and
    reported under their own name."""
    found = set()
    module = sys.modules[module_name]
    for cls in vars(module).values():
        if not inspect.isclass(cls) or cls.__module__ != module_name:
            continue
        mro = cls.__mro__
        for at, ours in enumerate(mro):
            if not ours.__module__.startswith("mcp_tui"):
                continue
            for name in vars(ours):
                if not name.startswith("_") or name.startswith("__") or name in GENERATED:
                    continue
                base = next(
                    (b for b in mro[at + 1 :] if b.__module__.startswith("textual")
                     and name in vars(b)),
                    None,
                )  # fmt: skip
                if base is not None:
                    found.add(f"{ours.__qualname__}.{name} ({base.__qualname__})")
    return found


def test_no_class_overrides_a_textual_private_name() -> None:
    """A private Textual method or attribute redefined here breaks silently on an upgrade (and
    mypy found ``_flush``/``_close_all`` overridden with other signatures once)."""
    found = set().union(*map(_overrides_in, _modules()))
    clashes = sorted(found - DELIBERATE)
    assert clashes == [], (
        "these override Textual internals (rename them, or use a public hook): " + str(clashes)
    )
    assert found >= DELIBERATE, f"deliberate overrides no longer there: {DELIBERATE - found}"


def test_the_guard_sees_a_mixin_override() -> None:
    """The guard's own check: a private override in a mixin is found through its user."""
    from textual.widgets import Input

    class Mixin:
        def _on_blur(self, event: object) -> None: ...

    class Control(Mixin, Input):
        pass

    module = type(sys)("mcp_tui._guard_probe")
    Mixin.__module__ = Control.__module__ = module.__name__
    vars(module).update(Mixin=Mixin, Control=Control)
    sys.modules[module.__name__] = module
    try:
        assert "test_the_guard_sees_a_mixin_override.<locals>.Mixin._on_blur (Input)" in (
            _overrides_in(module.__name__)
        )
    finally:
        del sys.modules[module.__name__]


def test_the_app_sets_no_textual_private_attribute() -> None:
    base = set(vars(App())) | set(dir(App))
    app = McpTuiApp([], AppOptions())
    ours = set(vars(app)) - set(vars(App()))
    assert {n for n in ours if n in base} == set()
    assert {n for n in vars(app) if n.startswith("_") and n in dir(App)} == set()


def test_a_defect_in_the_url_check_does_not_break_a_waiting_row(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import mcp_tui.url.check as url_check  # url_waits imports it when first needed

    def broken(raw: str) -> object:
        raise ValueError("bug")

    monkeypatch.setattr(url_check, "check_url", broken)
    assert UrlWaits().add(request()).host == "(unreadable host)"
