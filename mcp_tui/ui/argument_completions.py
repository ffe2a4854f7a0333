"""The server's suggestions as you type a prompt argument or a resource-template variable.

A server that advertises ``completions`` answers ``completion/complete`` with the values that
complete what was typed so far (``session/completions.py``). :class:`ArgumentCompletions` asks it
for the field being edited of an arguments screen:

- when a field gains focus (an empty value asks for every choice) and after each edit;
- debounced: a request waits :data:`DEBOUNCE` seconds of quiet first, so a fast typist costs one
  request, not one per key;
- superseded requests are cancelled: each one runs in the screen's ``"completion"`` worker group
  with ``exclusive=True``, so a newer keystroke cancels the older worker, whether it is still
  waiting out the debounce or awaiting the server;
- with the values typed into the *other* fields as ``context.arguments``.

The answer is shown under the form as one line of literal text ("Suggestions for *field*: a · b
· c"), and the first value that extends what was typed is offered in the field itself the way
Textual's input suggester does it (dim text after the cursor; → or End… accepts it: Right at the
end of the input, Textual's own key). Suggestions are the server's text: never markup, never
trusted, only ever put into the field when the person accepts one. A failure is shown in the same
line, quietly.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING

from textual.content import Content
from textual.suggester import SuggestionReady
from textual.widgets import Input, Static

from mcp_tui.ui.literal import literal_line

if TYPE_CHECKING:
    from textual.screen import Screen

    from mcp_tui.session.completions import Completion

log = logging.getLogger(__name__)

#: Seconds of quiet after a keystroke before the server is asked.
DEBOUNCE = 0.2
#: How many values the suggestion line lists.
SHOWN = 12

#: ``(argument, value, other arguments) -> Completion``: one server, one prompt or template.
Completer = Callable[[str, str, Mapping[str, str]], Awaitable["Completion"]]


class ArgumentCompletions:
    """Completions for the text fields of one arguments screen (see the module docstring)."""

    def __init__(self, screen: Screen[object], complete: Completer, line: Static) -> None:
        self.screen = screen
        self._complete = complete
        self.line = line
        #: How many requests were sent to the server (for tests: debouncing is visible here).
        self.sent = 0
        #: The last answer shown: (field, value typed, values).
        self.shown: tuple[str, str, tuple[str, ...]] | None = None

    def request(self, argument: str, control: Input, context: Mapping[str, str]) -> None:
        """The field ``argument`` was edited or focused: ask again, replacing any older request."""
        others = {k: v for k, v in context.items() if k != argument and v}
        self.screen.run_worker(
            self._fetch(argument, control, control.value, others),
            group="completion",
            exclusive=True,
            exit_on_error=False,
        )

    async def _fetch(
        self, argument: str, control: Input, value: str, context: Mapping[str, str]
    ) -> None:
        await asyncio.sleep(DEBOUNCE)
        if control.value != value or not control.is_attached:
            return  # edited again meanwhile (its own request follows)
        self.sent += 1
        try:
            result = await self._complete(argument, value, context)
        except Exception as exc:  # the session never raises; a fake or a bug must not either
            log.debug("completion failed", exc_info=True)
            self._show_error(argument, str(exc))
            return
        if control.value != value or not control.is_attached:
            return
        if result.error is not None:
            self._show_error(argument, result.error)
            return
        self._show(argument, value, result)
        extension = offered_extension(value, result.values)
        if extension is not None:
            control.post_message(SuggestionReady(value, extension))

    def _show(self, argument: str, value: str, result: Completion) -> None:
        self.shown = (argument, value, result.values)
        self.line.update(suggestion_line(argument, result))
        self.line.display = True

    def _show_error(self, argument: str, error: str) -> None:
        self.shown = None
        self.line.update(
            Content.assemble(
                ("No suggestions for ", "dim"),
                literal_line(argument, limit=40, style="dim"),
                (": ", "dim"),
                literal_line(error, limit=200, style="dim"),
            )
        )
        self.line.display = True

    def hide(self) -> None:
        self.line.display = False


def offered_extension(value: str, values: tuple[str, ...]) -> str | None:
    """The value → puts in the field: the first that extends what was typed, as typed; else the
    first that extends it in another case, as servers match (``l`` gets ``LHR``, and → gives
    ``LHR``: the server's spelling, not ``lHR``)."""
    exact = next((v for v in values if v.startswith(value) and v != value), None)
    if exact is not None:
        return exact
    folded = value.casefold()
    return next(
        (v for v in values if v.casefold().startswith(folded) and len(v) > len(value)), None
    )


def suggestion_line(argument: str, result: Completion) -> Content:
    """ "Suggestions for *argument*: a · b · c (+N more)", every value literal text."""
    if not result.values:
        return Content.assemble(
            ("No suggestions for ", "dim"), literal_line(argument, limit=40, style="dim")
        )
    more = len(result.values) - SHOWN
    if result.total is not None and result.total > len(result.values):
        more = result.total - SHOWN
    elif result.has_more:
        more = max(more, 1)
    values = Content(" · ").join(literal_line(v, limit=60) for v in result.values[:SHOWN])
    return Content.assemble(
        ("Suggestions for ", "dim"),
        literal_line(argument, limit=40, style="bold"),
        ": ",
        values,
        literal_line(f"  (+{more} more)" if more > 0 else "", style="dim"),
        ("   (→ at the end of the field takes the dim suggestion)", "dim italic"),
    )


def completer_for(connection: object, kind: str, name: str) -> Completer | None:
    """``connection.completions.complete`` for prompt or template ``name``, or ``None`` when the
    server does not offer completions (or the connection cannot ask: a test's fake)."""
    completions = getattr(connection, "completions", None)
    complete = getattr(completions, "complete", None)
    if not getattr(completions, "offered", False) or complete is None:
        return None

    def ask(argument: str, value: str, context: Mapping[str, str]) -> Awaitable[Completion]:
        result: Awaitable[Completion] = complete(kind, name, argument, value, context)
        return result

    return ask
