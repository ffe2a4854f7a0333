"""A case's expectations against what its call did: every difference, as expected vs got.

:func:`check` never stops at the first difference: a failing case lists each expectation that did
not hold, each a :class:`Failure` with the key it was written under (so the report can name its
line), what was expected and what came. :func:`diff_text` turns the two into something a person
reads at a glance: a unified diff for multi-line text and JSON, the two values side by side for
short ones. Every JSON value (``structured``, a pointer's value, a ``requestedSchema``) is compared
with :func:`~mcp_tui.testbench.json_equal.json_equal`, never Python's ``==`` (``True == 1``).
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Sequence
from typing import Any

from mcp_tui.testbench.failure import Failure
from mcp_tui.testbench.json_equal import json_equal
from mcp_tui.testbench.model import ElicitationExpect, Expect, SamplingExpect
from mcp_tui.testbench.observed import Observed, SeenElicitation, SeenSampling
from mcp_tui.testbench.structured import check_structured, resolve_pointer

__all__ = ["Failure", "as_text", "check", "diff_text", "resolve_pointer"]


def check(expect: Expect, seen: Observed) -> list[Failure]:
    """Every expectation of ``expect`` that ``seen`` does not meet (empty: the case passed)."""
    failures: list[Failure] = []
    failures += _outcome(expect, seen)
    failures += _text(expect, seen)
    failures += check_structured(expect, seen)
    failures += _requests(expect, seen)
    failures += _wire(expect, seen)
    if expect.within is not None and seen.seconds > expect.within:
        failures.append(
            Failure(
                ("within",),
                f"the call took {seen.seconds:.2f} s, over its budget of {expect.within:g} s",
                expect.within,
                round(seen.seconds, 3),
                diffable=False,
            )
        )
    return failures


def _outcome(expect: Expect, seen: Observed) -> list[Failure]:
    out: list[Failure] = []
    wanted = expect.expected_outcome
    if seen.outcome != wanted:
        out.append(
            Failure(
                ("outcome",),
                f"the call ended {seen.outcome}, not {wanted}",
                wanted,
                _describe_outcome(seen),
                diffable=False,
            )
        )
        return out
    if expect.error_code is not None and seen.error_code != expect.error_code:
        out.append(
            Failure(
                ("error_code",),
                "another JSON-RPC error code",
                expect.error_code,
                seen.error_code,
                diffable=False,
            )
        )
    if expect.error_regex is not None:
        error = seen.error or (seen.text if seen.outcome == "tool_error" else "")
        if not re.search(expect.error_regex, error or ""):
            out.append(
                Failure(
                    ("error_regex",),
                    "the error does not match the regex",
                    expect.error_regex,
                    error or "(no error)",
                    diffable=False,
                )
            )
    return out


def _describe_outcome(seen: Observed) -> str:
    if seen.outcome == "error":
        return seen.error or f"error {seen.error_code}"
    if seen.outcome == "answer_refused":
        return f"answer_refused: {seen.answer_problem}"
    if seen.outcome == "tool_error":
        return f"tool_error: {seen.text}"
    if seen.outcome == "ok":
        return f"ok: {seen.text}"
    return f"{seen.outcome}: {seen.error}" if seen.error else seen.outcome


def _text(expect: Expect, seen: Observed) -> list[Failure]:
    out: list[Failure] = []
    if expect.text is not None and seen.text != expect.text:
        out.append(
            Failure(("text",), "the result's text differs", expect.text, seen.text, snapshot=True)
        )
    contains = expect.text_contains
    for i, part in enumerate([contains] if isinstance(contains, str) else contains or []):
        if part not in seen.text:
            key: tuple[str | int, ...] = (
                ("text_contains",) if isinstance(contains, str) else ("text_contains", i)
            )
            out.append(
                Failure(
                    key,
                    f"the result's text does not contain {json.dumps(part)}",
                    part,
                    seen.text,
                    diffable=False,
                )
            )
    if expect.text_regex is not None and not re.search(expect.text_regex, seen.text):
        out.append(
            Failure(
                ("text_regex",),
                "the result's text does not match the regex",
                expect.text_regex,
                seen.text,
                diffable=False,
            )
        )
    return out


def _requests(expect: Expect, seen: Observed) -> list[Failure]:
    out: list[Failure] = []
    if expect.elicitation_count is not None and len(seen.elicitations) != expect.elicitation_count:
        out.append(
            Failure(
                ("elicitation_count",),
                "another number of elicitation requests",
                expect.elicitation_count,
                _list_elicitations(seen.elicitations),
                diffable=False,
            )
        )
    for i, want in enumerate(expect.elicitations or []):
        if i >= len(seen.elicitations):
            out.append(
                Failure(
                    ("elicitations", i),
                    f"no elicitation request #{i + 1}",
                    "a request",
                    _list_elicitations(seen.elicitations),
                    diffable=False,
                )
            )
            break
        out += _elicitation(i, want, seen.elicitations[i])
    if expect.sampling_count is not None and len(seen.sampling) != expect.sampling_count:
        out.append(
            Failure(
                ("sampling_count",),
                "another number of sampling requests",
                expect.sampling_count,
                len(seen.sampling),
                diffable=False,
            )
        )
    for i, want_s in enumerate(expect.sampling or []):
        if i >= len(seen.sampling):
            out.append(
                Failure(
                    ("sampling", i),
                    f"no sampling request #{i + 1}",
                    "a request",
                    f"{len(seen.sampling)} request(s)",
                    diffable=False,
                )
            )
            break
        out += _sampling(i, want_s, seen.sampling[i])
    return out


def _list_elicitations(seen: Sequence[SeenElicitation]) -> str:
    if not seen:
        return "0 requests"
    lines = [f"{len(seen)} request(s):"]
    lines += [
        f"  #{i + 1} {e.mode} {json.dumps(e.message)} -> {e.action}" for i, e in enumerate(seen)
    ]
    return "\n".join(lines)


def _elicitation(i: int, want: ElicitationExpect, got: SeenElicitation) -> list[Failure]:
    out: list[Failure] = []
    at = f"elicitation request #{i + 1}"

    def fail(
        key: str,
        summary: str,
        expected: Any,
        value: Any,
        diffable: bool = True,
        snapshot: bool = False,
    ) -> None:
        failure = Failure(
            ("elicitations", i, key), f"{at}: {summary}", expected, value, diffable, snapshot
        )
        out.append(failure)

    if want.mode is not None and want.mode != got.mode:
        fail("mode", "another mode", want.mode, got.mode, False)
    if want.message is not None and want.message != got.message:
        fail("message", "another message", want.message, got.message)
    if want.message_regex is not None and not re.search(want.message_regex, got.message):
        fail("message_regex", "the message does not match", want.message_regex, got.message, False)
    if want.url_regex is not None and not re.search(want.url_regex, got.url or ""):
        fail("url_regex", "the URL does not match", want.url_regex, got.url or "(no URL)", False)
    if want.schema_ is not None and (
        got.schema is None or not json_equal(want.schema_, got.schema)
    ):
        came = got.schema is not None
        fail("schema", "the requestedSchema differs", want.schema_, got.schema, snapshot=came)
    if want.action is not None and want.action != got.action:
        fail("action", "answered otherwise", want.action, got.action, False)
    return out


def _sampling(i: int, want: SamplingExpect, got: SeenSampling) -> list[Failure]:
    out: list[Failure] = []
    at = f"sampling request #{i + 1}"

    def fail(key: str, summary: str, expected: Any, value: Any, diffable: bool = True) -> None:
        out.append(Failure(("sampling", i, key), f"{at}: {summary}", expected, value, diffable))

    if want.message is not None and want.message != got.message:
        fail("message", "another last message", want.message, got.message)
    if want.message_regex is not None and not re.search(want.message_regex, got.message):
        fail(
            "message_regex",
            "the last message does not match",
            want.message_regex,
            got.message,
            False,
        )
    if want.system_prompt_regex is not None and not re.search(
        want.system_prompt_regex, got.system_prompt or ""
    ):
        fail(
            "system_prompt_regex",
            "the system prompt does not match",
            want.system_prompt_regex,
            got.system_prompt or "(none)",
            False,
        )
    if want.max_tokens is not None and want.max_tokens != got.max_tokens:
        fail("max_tokens", "another maxTokens", want.max_tokens, got.max_tokens, False)
    if want.action is not None and want.action != got.action:
        fail("action", "answered otherwise", want.action, got.action, False)
    return out


def _wire(expect: Expect, seen: Observed) -> list[Failure]:
    out: list[Failure] = []
    sent = list(seen.sent)
    for i, method in enumerate(expect.sent or []):
        if method not in sent:
            out.append(
                Failure(
                    ("sent", i),
                    f"mcp-tui did not send {method}",
                    method,
                    "sent: " + (", ".join(dict.fromkeys(sent)) or "nothing"),
                    diffable=False,
                )
            )
    for i, method in enumerate(expect.not_sent or []):
        if method in sent:
            out.append(
                Failure(
                    ("not_sent", i),
                    f"mcp-tui sent {method}",
                    f"no {method}",
                    f"{sent.count(method)} x {method}",
                    diffable=False,
                )
            )
    return out


# ---- showing a difference -----------------------------------------------------------------------


def as_text(value: Any) -> str:
    """A value as a person compares it: strings as they are, the rest as indented JSON."""
    if isinstance(value, str):
        return value
    return json.dumps(value, indent=2, ensure_ascii=False, sort_keys=True)


def diff_text(expected: Any, got: Any, *, diffable: bool = True) -> list[str]:
    """Lines showing expected vs got: a unified diff when either side spans lines, else both."""
    want, have = as_text(expected), as_text(got)
    if diffable and ("\n" in want or "\n" in have or len(want) + len(have) > 160):
        lines = list(
            difflib.unified_diff(
                want.splitlines(), have.splitlines(), "expected", "got", lineterm="", n=2
            )
        )
        return lines or [f"expected: {want}", f"     got: {have}"]
    if "\n" in have:
        return [f"expected: {want}", "     got:", *("  " + line for line in have.splitlines())]
    return [f"expected: {want}", f"     got: {have}"]
