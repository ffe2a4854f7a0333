"""The rules of ``check --baseline``: each kind of change between a baseline and the live server.

A rule has a stable id (``B201``), a level (``breaking``: a client that worked against the
baseline may now fail; ``compatible``: it keeps working), a name in the words the change
detectors use (``buf breaking``'s ``FIELD_NO_DELETE``, ``oasdiff``'s
``request-parameter-became-required``, ``griffe``'s ``PARAMETER_ADDED_REQUIRED``: what, then
what happened to it), a one-line doc, why it is at that level, an example of the change and,
for a breaking one, the compatible way to the same end. The ids are grouped as ``buf`` groups
its rules:

- ``B1xx`` something clients use is gone (a tool, prompt, template, capability, era);
- ``B2xx`` what a client sends is refused (tool arguments, prompt arguments, elicitation
  fields: an input schema narrowed);
- ``B3xx`` what a client reads changed (a tool's ``outputSchema``);
- ``B4xx`` what a client may do without asking changed (annotations, task support);
- ``B5xx`` compatible: additions, widenings and wording.

Pure data: the comparison (``changes.py``) reports under these ids; ``--ignore ID`` takes them as
it takes the checks' ids.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Level = Literal["breaking", "compatible"]
LEVELS: tuple[Level, ...] = ("breaking", "compatible")


@dataclass(frozen=True)
class ChangeRule:
    """A kind of change: its id, level, name, one-line doc, why, and what triggers it or not."""

    id: str
    level: Level
    name: str
    title: str
    why: str
    #: A change reported under it.
    example: str
    #: For a breaking rule, the compatible way to the same end ("" for a compatible rule).
    instead: str


CHANGE_RULES: dict[str, ChangeRule] = {}


def _rule(
    id: str, level: Level, name: str, title: str, why: str, example: str, instead: str
) -> None:
    if id in CHANGE_RULES:
        raise ValueError(f"change rule {id} is registered twice")
    CHANGE_RULES[id] = ChangeRule(id, level, name, title, why, example, instead)


# ---- B1xx: gone -----------------------------------------------------------------------------

_rule(
    "B101",
    "breaking",
    "tool-removed",
    "a tool of the baseline is gone (a rename is a removal and an addition)",
    "a client, a saved chat or an agent's config that calls it by name gets 'unknown tool'",
    "rename search to find_items",
    "add find_items, keep search (deprecated in its description) until clients move",
)
_rule(
    "B102",
    "breaking",
    "prompt-removed",
    "a prompt of the baseline is gone (a rename is a removal and an addition)",
    "a client's slash command or saved prompt that gets it by name fails",
    "remove the prompt summarize",
    "keep summarize; add the new prompt beside it",
)
_rule(
    "B103",
    "breaking",
    "resource-template-removed",
    "a resource template of the baseline is gone",
    "a client that builds URIs from the template reads URIs the server no longer serves",
    "drop file:///{path}",
    "keep the template; serve the new one beside it",
)
_rule(
    "B104",
    "breaking",
    "capability-removed",
    "a capability the baseline declared is no longer declared",
    "clients stop asking for what is not declared (prompts, completions) or stop listening for "
    "list_changed, so a feature they used disappears",
    'capabilities {"prompts": {"listChanged": true}} -> {"prompts": {}}',
    "keep declaring what the server still does",
)
_rule(
    "B105",
    "breaking",
    "era-removed",
    "the server no longer speaks a protocol era it spoke in the baseline",
    "every client on that era (2025-11-25: most clients today) can no longer connect",
    "an upgrade to a framework that serves only 2026-07-28",
    "serve both eras (mcp >= 2.3, FastMCP 4 do by default)",
)

# ---- B2xx: what a client sends --------------------------------------------------------------

_rule(
    "B201",
    "breaking",
    "required-argument-added",
    "a required argument (or elicitation field) that was not there",
    "every call (or answer) written against the baseline leaves it out and is refused",
    "add limit to search's required",
    "add limit as optional, with a default",
)
_rule(
    "B202",
    "breaking",
    "argument-became-required",
    "an optional argument (or elicitation field) is now required",
    "calls (or answers) that left it out, as the baseline allowed, are refused",
    'required: ["q"] -> ["q", "limit"]',
    "keep it optional, with a default",
)
_rule(
    "B203",
    "breaking",
    "argument-removed",
    "an argument (or elicitation field) is gone",
    "a client that still sends it is refused (additionalProperties: false) or silently ignored, "
    "so what it asked for no longer happens",
    "drop the argument sort from search",
    "keep accepting sort (document it as ignored) until clients stop sending it",
)
_rule(
    "B204",
    "breaking",
    "argument-type-changed",
    "an argument's (or field's) type changed or narrowed",
    "values of the old type, which clients send, are refused",
    'limit: {"type": "number"} -> {"type": "string"}',
    'widen instead: {"type": "integer"} -> {"type": "number"}',
)
_rule(
    "B205",
    "breaking",
    "argument-enum-value-removed",
    "a value an argument (or a form's choice) allowed is gone, or the values are now limited",
    "a client that sends the removed value (a saved call, a stored answer) is refused",
    'sort: enum ["asc", "desc", "random"] -> ["asc", "desc"]',
    "keep accepting the old value; add new ones",
)
_rule(
    "B206",
    "breaking",
    "argument-bound-tightened",
    "maxLength, maximum or maxItems lowered, a minimum raised, or a bound added",
    "values inside the old bound, which clients send, are refused",
    "q: maxLength 200 -> 100",
    "raise a bound, never lower it",
)
_rule(
    "B207",
    "breaking",
    "argument-format-added",
    "a format or pattern added to an argument (or field), or changed",
    "strings that were fine, which clients send, may now be refused",
    'when: {"type": "string"} -> {"type": "string", "format": "date"}',
    "parse leniently; add the format only on a new argument",
)
_rule(
    "B208",
    "breaking",
    "arguments-closed",
    "additionalProperties: false where the baseline allowed more",
    "a client that sends an extra argument (its own tracing field, an older one) is refused",
    'inputSchema {"type": "object"} -> {"type": "object", "additionalProperties": false}',
    "leave the schema open, ignore what you do not know",
)

# ---- B3xx: what a client reads --------------------------------------------------------------

_rule(
    "B301",
    "breaking",
    "output-schema-removed",
    "a tool that declared an outputSchema no longer does",
    "clients that read structuredContent, validated against the schema, get none",
    "drop outputSchema (and structuredContent) from get_weather",
    "keep the schema and the structured result",
)
_rule(
    "B302",
    "breaking",
    "output-field-removed",
    "a field of a tool's outputSchema is gone",
    "a client reading it finds nothing (a KeyError, an empty cell in a table)",
    "outputSchema: drop temperature",
    "keep temperature; add the new field beside it",
)
_rule(
    "B303",
    "breaking",
    "output-field-became-optional",
    "a required field of a tool's outputSchema is now optional",
    "clients were promised it in every result and read it without checking",
    'required: ["temperature"] -> []',
    "keep it required (send a default)",
)
_rule(
    "B304",
    "breaking",
    "output-type-widened",
    "an output field's type, values or bounds widened or changed",
    "results now carry values old clients never had to handle (a null, a new enum value)",
    'temperature: {"type": "number"} -> {"type": ["number", "null"]}',
    "narrow an output, never widen it; add a new field for the new shape",
)

# ---- B4xx: what a client may do without asking ----------------------------------------------

_rule(
    "B401",
    "breaking",
    "tool-became-destructive",
    "a tool's annotations now say it may destroy data (destructiveHint, readOnlyHint dropped)",
    "clients that ran it without asking (read-only, non-destructive) must now ask, or refuse "
    "it in an unattended run; check --fuzz no longer calls it",
    'annotations {"readOnlyHint": true} -> {"destructiveHint": true}',
    "a new tool for the destructive action; the old one stays read-only",
)
_rule(
    "B402",
    "breaking",
    "tool-task-required",
    "a tool's execution.taskSupport became required",
    "clients that do not speak tasks can no longer call it",
    'execution {"taskSupport": "optional"} -> {"taskSupport": "required"}',
    'keep taskSupport "optional": answer plain calls too',
)

# ---- B5xx: compatible -----------------------------------------------------------------------

_rule(
    "B501",
    "compatible",
    "tool-added",
    "a tool the baseline did not have",
    "clients that do not know it never call it",
    "add find_items",
    "",
)
_rule(
    "B502",
    "compatible",
    "prompt-added",
    "a prompt the baseline did not have",
    "clients that do not know it never get it",
    "add the prompt summarize",
    "",
)
_rule(
    "B503",
    "compatible",
    "resource-added",
    "a resource or resource template the baseline did not have",
    "clients that do not know it never read it",
    "add file:///{path}",
    "",
)
_rule(
    "B504",
    "compatible",
    "resource-removed",
    "a resource of the baseline is no longer listed",
    "resources are data: a listing changes as the data does (a client holding the URI gets "
    "an error reading it, as with any deleted file)",
    "a log file rotated away",
    "",
)
_rule(
    "B505",
    "compatible",
    "capability-added",
    "a capability the baseline did not declare",
    "clients that do not use it are unaffected",
    'capabilities {"tools": {}} -> {"tools": {"listChanged": true}}',
    "",
)
_rule(
    "B506",
    "compatible",
    "era-added",
    "the server now speaks a protocol era it did not in the baseline",
    "clients on the old era connect as before",
    "serve 2026-07-28 beside 2025-11-25",
    "",
)
_rule(
    "B507",
    "compatible",
    "optional-argument-added",
    "an optional argument (or elicitation field) that was not there",
    "calls (and answers) that leave it out are still valid",
    'add {"limit": {"type": "integer", "default": 10}} to search',
    "",
)
_rule(
    "B508",
    "compatible",
    "argument-became-optional",
    "a required argument (or elicitation field) is now optional",
    "calls that send it are still valid",
    'required: ["q", "limit"] -> ["q"]',
    "",
)
_rule(
    "B509",
    "compatible",
    "argument-widened",
    "an argument (or field) accepts more: a type, an enum value, a looser bound, no format",
    "every value that was valid still is",
    "q: maxLength 100 -> 200",
    "",
)
_rule(
    "B510",
    "compatible",
    "output-extended",
    "an output schema added, a field added or made required, or a field narrowed",
    "clients read what they read before; a field they do not know is ignored",
    "outputSchema: add humidity",
    "",
)
_rule(
    "B511",
    "compatible",
    "text-changed",
    "a title, description, name or message changed",
    "wording is read by people and models, not by code (a model may now use the tool "
    "differently: worth a look in review)",
    "a clearer description",
    "",
)
_rule(
    "B512",
    "compatible",
    "annotations-changed",
    "annotations or execution changed, other than becoming destructive or task-required",
    "hints about how a tool behaves; a client may ask before calling it, or stop asking",
    'annotations {} -> {"readOnlyHint": true}',
    "",
)
_rule(
    "B513",
    "compatible",
    "elicitation-changed",
    "a call asks one form more or fewer than in the baseline",
    "a client answers what is asked; a script of answers for the old forms may need a new entry",
    "book_table asks a fourth step",
    "",
)
_rule(
    "B514",
    "compatible",
    "protocol-version-changed",
    "the version negotiated on an era changed (2025-06-18 -> 2025-11-25)",
    "both ends negotiate: clients that speak either connect",
    "an SDK upgrade that answers initialize with 2025-11-25",
    "",
)
