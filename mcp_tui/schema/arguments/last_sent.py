"""The arguments a tool was last called with, offered again when its arguments form reopens.

A developer hand-testing a server calls the same tool again and again with small changes; a form
that starts from the schema's defaults every time makes them type everything again. So the
arguments sent from the form are kept, per server (the caller holds one :data:`Memory` per server)
and tool, in memory only, for the app's lifetime, and the next form starts from them. A prompt's
arguments and a resource template's variables are kept the same way, each under its own
:data:`Kind` (a prompt may share a tool's name).

Only what was *sent* is kept, and what the user tried to send: a form sent after its server went
away sent nothing, but what was typed is kept (``unsent``), labelled as never sent. A form closed
with Escape and "Close without sending?" answered yes is gone, as the question says: a half-typed
attempt the user gave up on should not come back by itself, and the form's only question stays
true. ``--call TOOL --args JSON`` may fill an empty place (the user typed those too, in the shell)
but never replaces a call sent from the form; a model's calls in the chat are not kept at all
(they are the model's choices, not the user's).

Remembered values are offered only while they still make sense: the tool's ``inputSchema`` must
be the one they were sent against (a ``tools/list_changed`` with a different schema makes them
stale) and they must still validate against it. Otherwise they are dropped and the form starts
from the defaults, with a :attr:`Prefill.note` saying why.

Pure Python, cheap to import: the validator is imported only when something is recalled.
"""

from __future__ import annotations

import copy
import hashlib
import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal, TypeAlias

#: Where remembered arguments came from: sent from the arguments form, or ``--call``; or typed in
#: the form and sent after the server went away (``unsent``: nothing left, the values are kept).
Origin: TypeAlias = Literal["form", "--call", "unsent"]
#: What the arguments were sent to: a tool's call, a prompt's get, a resource template's read.
Kind: TypeAlias = Literal["tool", "prompt", "template"]
#: How a note names what changed, by kind.
_CHANGED = {
    "tool": "The tool's schema",
    "prompt": "The prompt's arguments",
    "template": "The template's variables",
}


@dataclass(frozen=True, slots=True)
class LastSent:
    """One tool's last arguments, with the fingerprint of the schema they were sent against."""

    arguments: dict[str, Any]
    fingerprint: str
    at: datetime
    origin: Origin = "form"
    #: The call ran as a task by the person's choice (a tool whose ``taskSupport`` is optional).
    as_task: bool = False

    @property
    def clock(self) -> str:
        """The local time they were sent, as ``12:03:04``."""
        return self.at.strftime("%H:%M:%S")

    @property
    def event(self) -> str:
        """What happened at :attr:`clock`, for a sentence: ``the call at 12:03:04``."""
        if self.origin == "unsent":
            return f"the values typed at {self.clock}"
        return f"the call at {self.clock}"

    @property
    def label(self) -> str:
        """Where the values came from, as the form says it: ``last sent 12:03:04`` (``typed
        12:03:04 (not sent)`` when the server had gone away)."""
        if self.origin == "--call":
            return f"from --call {self.clock}"
        if self.origin == "unsent":
            return f"typed {self.clock} (not sent)"
        return f"last sent {self.clock}"


#: One server's remembered arguments, by kind and name (a tool's name, a prompt's name, a
#: template's URI template).
Memory: TypeAlias = dict[tuple[Kind, str], LastSent]


@dataclass(frozen=True, slots=True)
class Prefill:
    """What a form (a tool's, a prompt's, a template's) starts from: ``arguments`` (``None``: the
    schema's defaults), where they came from (``label``), ``note``: why remembered values were
    not used, and whether the last call ran as a task (``as_task``: the form's "run as a task"
    box starts ticked)."""

    arguments: dict[str, Any] | None = None
    label: str | None = None
    note: str | None = None
    as_task: bool = False


def fingerprint(schema: object) -> str:
    """A digest of the schema's canonical JSON: equal for equal schemas, whatever the key order."""
    try:
        text = json.dumps(schema, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    except (TypeError, ValueError):  # not JSON (a test double, a NaN): still comparable
        text = repr(schema)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def remember(
    memory: Memory,
    tool: str,
    schema: object,
    arguments: dict[str, Any],
    *,
    at: datetime | None = None,
    origin: Origin = "form",
    kind: Kind = "tool",
    as_task: bool = False,
) -> None:
    """Keep ``arguments`` as the last ones sent to ``tool`` (a prompt or template by ``kind``; a
    copy: the caller's dict may change later).

    ``--call`` only fills an empty place: it never replaces what was sent from the form.
    """
    key = (kind, tool)
    if origin == "--call" and key in memory:
        return
    when = at if at is not None else datetime.now()
    arguments = copy.deepcopy(dict(arguments))
    memory[key] = LastSent(arguments, fingerprint(schema), when, origin, as_task)


def recall(memory: Memory, tool: str, schema: object, *, kind: Kind = "tool") -> Prefill:
    """What the form of ``tool`` (a prompt or template by ``kind``) should start from; stale
    values are dropped, with a note."""
    key = (kind, tool)
    last = memory.get(key)
    if last is None or not last.arguments:
        # No arguments (a tool that takes none, or only optional ones left empty) is what the
        # defaults give anyway: nothing to fill in, nothing to say.
        return Prefill()
    if last.fingerprint != fingerprint(schema):
        del memory[key]
        return Prefill(
            note=f"{_CHANGED[kind]} changed since {last.event}: the form starts from the defaults."
        )
    from .check import path_text, validate_arguments

    verdict = validate_arguments(last.arguments, schema)
    if verdict.errors:  # a schema that cannot be used (``problem``) checks nothing: keep them
        del memory[key]
        path, message = verdict.errors[0]
        return Prefill(
            note=f"The arguments {last.label} do not fit the schema "
            f"({path_text(path)}: {message}): the form starts from the defaults."
        )
    return Prefill(copy.deepcopy(last.arguments), last.label, as_task=last.as_task)
