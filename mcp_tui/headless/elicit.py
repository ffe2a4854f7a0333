"""Answering elicitation and sampling requests without a person: from an answers file, else by a
policy.

:class:`ScriptedHandler` is the :class:`~mcp_tui.session.elicitation.ElicitationHandler` of
``mcp-tui call``. For each request it picks an answer (``config/answers.py``), and for a form's
``accept`` completes the content with the schema's defaults and validates it with the same schema
engine as the TUI's forms. Content that does not fit is **never sent**: the handler answers
``cancel``, records a failure that names the fields, and asks the run to stop (exit code 4).

URL-mode requests are printed with the checked URL and host and are never opened; they get the
answers file's answer, or ``decline``. A URL the checker refuses is always declined.

Sampling requests (``sampling/createMessage``) get the answers file's ``sampling`` reply (its text,
model name and stop reason), else the ``--sampling`` policy: ``decline`` (the default; the server
gets "User rejected sampling request") or ``cancel``.

Every request seen and every answer given is reported on stderr, escaped (server text is
untrusted). A request's lines go out in one write when it has been answered: the handler never
awaits, so nothing else can print in between, and a CI run answering hundreds of requests makes
one system call per request instead of three.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal, TextIO

from mcp_tui.config.answers import AnswerScript, ScriptedAnswer
from mcp_tui.schema.fields import FormSpec
from mcp_tui.session.elicitation import ElicitationOutcome, ElicitationRequest
from mcp_tui.session.sampling import SamplingOutcome, SamplingRequest, ToolUse
from mcp_tui.untrusted import one_line, visible

ElicitPolicy = Literal["accept-defaults", "decline", "cancel"]
#: ``--sampling``: how sampling requests the answers file does not cover are refused.
SamplingRefusal = Literal["decline", "cancel"]


@dataclass
class ScriptedHandler:
    """Answers every request of one ``call`` run; see the module docstring."""

    err: TextIO
    #: The tool being called (``None`` for a resource read or a prompt: answers with
    #: ``tool = ...`` are then not used).
    tool: str | None
    answers: AnswerScript | None = None
    policy: ElicitPolicy = "cancel"
    sampling_policy: SamplingRefusal = "decline"
    #: Called once when an answer could not be given validly: the run stops.
    on_failure: Callable[[], None] = lambda: None
    #: Why the run must end with exit code 4, or ``None``.
    failure: str | None = None
    seen: int = 0
    #: What was answered, in order: (mode, action, content) for tests and the summary.
    given: list[tuple[str, str, dict[str, Any] | None]] = field(default_factory=list)
    #: The lines of the request being answered, written together (see the module docstring).
    _lines: list[str] = field(default_factory=list, init=False, repr=False)
    #: The last form's field summary: the same form is asked again and again (parse cache).
    _described: tuple[FormSpec, str] | None = field(default=None, init=False, repr=False)

    async def elicit(self, request: ElicitationRequest) -> ElicitationOutcome:
        self.seen += 1
        if self.failure is not None:  # the run is stopping: answer nothing more
            self.given.append((request.mode, "cancel", None))
            return ElicitationOutcome.cancel("the run is stopping")
        try:
            outcome = self._url(request) if request.mode == "url" else self._form(request)
            self._write_lines()  # a stderr that cannot be written fails the request, as print did
        except Exception as exc:  # never raise into the session: cancel and stop
            outcome = self._fail(f"could not answer: {exc}")
        self.given.append((request.mode, outcome.action, outcome.content))
        return outcome

    # ---- form mode ------------------------------------------------------------------------------

    def _form(self, request: ElicitationRequest) -> ElicitationOutcome:
        form = request.form or FormSpec(fields=())
        self._say(f"elicitation #{self.seen} (form): {_quote(request.message)}")
        if form.fields:
            self._say(f"  fields: {self._describe_fields(form)}")
        if request.app_ui:
            self._say(
                f"  the server also offers an app UI for this form "
                f"({one_line(request.app_ui, limit=200)}): mcp-tui answers the form itself"
            )
        picked = self.answers.pick(request.message, "form", self.tool) if self.answers else None
        if picked is not None:
            self._note_recorded_message(picked, request.message)
            entry = picked.entry
            source = f"{picked.where()} of {self.answers.path}" if self.answers else ""
            if entry.answer != "accept":
                return self._give(ElicitationOutcome(entry.answer), source)
            return self._accept(form, dict(entry.content or {}), source, picked)
        if self.policy == "accept-defaults":
            return self._accept(form, {}, "--elicit accept-defaults", None)
        source = f"--elicit {self.policy}" + (
            " (no answer left in the answers file)" if self.answers else ""
        )
        return self._give(ElicitationOutcome(self.policy), source)

    def _accept(
        self,
        form: FormSpec,
        content: dict[str, Any],
        source: str,
        picked: ScriptedAnswer | None,
    ) -> ElicitationOutcome:
        from mcp_tui.schema.validate import complete_with_defaults

        what = picked.where() if picked else "the schema's defaults"
        result = complete_with_defaults(form, content)
        if not result.ok or result.content is None:
            problems = "; ".join(
                f"field {one_line(name)!r}: {one_line(message)}"
                for name, message in result.errors.items()
            )
            verb = "does" if picked else "do"
            return self._fail(f"{what} {verb} not fit the form: {problems}; nothing was sent")
        return self._give(ElicitationOutcome("accept", dict(result.content)), source, form)

    # ---- URL mode -------------------------------------------------------------------------------

    def _url(self, request: ElicitationRequest) -> ElicitationOutcome:
        from mcp_tui.url.check import check_url

        verdict = check_url(request.url or "")
        self._say(f"elicitation #{self.seen} (url): {_quote(request.message)}")
        self._say(f"  URL: {one_line(verdict.url, limit=2048)} (not opened)")
        if verdict.allowed and verdict.url_unicode != verdict.url:
            self._say(f"  shown as: {one_line(verdict.url_unicode, limit=2048)}")
        if verdict.allowed:
            host = verdict.host_unicode or verdict.host
            if verdict.host_unicode and verdict.host_unicode != verdict.host:
                host += f" ({verdict.host})"
            if verdict.registrable_domain_unicode:
                host += f", site {verdict.registrable_domain_unicode}"
            self._say(f"  host: {one_line(host)}")
            for warning in verdict.warnings:
                self._say(f"  warning: {one_line(warning)}")
        else:
            self._say(f"  refused: {one_line('; '.join(verdict.reasons))}")
        picked = self.answers.pick(request.message, "url", self.tool) if self.answers else None
        if not verdict.allowed:
            return self._give(ElicitationOutcome.decline(), "the URL check (refused URLs decline)")
        if picked is None:
            return self._give(ElicitationOutcome.decline(), "default for URL requests")
        self._note_recorded_message(picked, request.message)
        source = f"{picked.where()} of {self.answers.path}" if self.answers else ""
        return self._give(ElicitationOutcome(picked.entry.answer), source)

    # ---- sampling -------------------------------------------------------------------------------

    async def sample(self, request: SamplingRequest) -> SamplingOutcome:
        """A ``sampling/createMessage``: the answers file's reply, else ``--sampling``."""
        self.seen += 1
        if self.failure is not None:
            self.given.append(("sampling", "cancel", None))
            return SamplingOutcome.cancel("the run is stopping")
        try:
            outcome = self._sampling(request)
            self._write_lines()
        except Exception as exc:  # never raise into the session: refuse and stop
            self._fail(f"could not answer: {exc}")
            outcome = SamplingOutcome.cancel(str(exc))
        reply = None if outcome.action != "accept" else {"text": outcome.text}
        self.given.append(("sampling", outcome.action, reply))
        return outcome

    def _sampling(self, request: SamplingRequest) -> SamplingOutcome:
        self._say(
            f"sampling #{self.seen}: {len(request.messages)} message(s), "
            f"maxTokens {request.max_tokens}; last: {_quote(request.message)}"
        )
        if request.system_prompt:
            self._say(f"  system prompt: {_quote(request.system_prompt)}")
        if request.tools:
            names = ", ".join(one_line(t.name, limit=60) for t in request.tools[:10])
            self._say(f"  tools offered: {names}")
        picked = self.answers.pick(request.message, "sampling", self.tool) if self.answers else None
        if picked is None:
            source = f"--sampling {self.sampling_policy}" + (
                " (no sampling answer left in the answers file)" if self.answers else ""
            )
            self._say(f"  -> {self.sampling_policy}  ({source})")
            return SamplingOutcome(self.sampling_policy)
        where = f"{picked.where()} of {self.answers.path}" if self.answers else ""
        reply = picked.entry.sampling
        if reply is None:
            self._say(f"  -> {picked.entry.answer}  ({one_line(where, limit=400)})")
            return SamplingOutcome(picked.entry.answer)
        use = reply.tool_use
        outcome = SamplingOutcome(
            "accept",
            text=reply.text,
            model=reply.model,
            stop_reason="toolUse" if use is not None else reply.stop_reason,
            tool_use=ToolUse(use.name, dict(use.input)) if use is not None else None,
        )
        if use is not None and use.name not in {t.name for t in request.tools}:
            self._say(f"  note: the request offers no tool {one_line(use.name)!r}")
        self._say(
            f"  -> accept {json.dumps(reply.text, ensure_ascii=True)} (model "
            f"{json.dumps(reply.model, ensure_ascii=True)}, {one_line(reply.stop_reason)})  "
            f"({one_line(where, limit=400)})"
        )
        return outcome

    # ---- reporting ------------------------------------------------------------------------------

    def _give(
        self, outcome: ElicitationOutcome, source: str, form: FormSpec | None = None
    ) -> ElicitationOutcome:
        shown: str = outcome.action
        if outcome.content is not None:
            shown += " " + json.dumps(_masked(outcome.content, form), ensure_ascii=True)
        self._say(f"  -> {shown}" + (f"  ({one_line(source, limit=400)})" if source else ""))
        return outcome

    def _fail(self, reason: str) -> ElicitationOutcome:
        if self.failure is None:
            self.failure = f"elicitation #{self.seen}: {reason}"
        self._say(f"  -> cancel: {reason}")
        self._write_lines()  # before stopping the run, as each line was printed at once before
        self.on_failure()
        return ElicitationOutcome.cancel(reason)

    def _note_recorded_message(self, picked: ScriptedAnswer, message: str) -> None:
        recorded = picked.entry.message
        if recorded is not None and picked.entry.match is None and recorded != message:
            self._say(
                f"  note: {picked.where()} was recorded for a different message: {_quote(recorded)}"
            )

    def _say(self, line: str) -> None:
        self._lines.append(f"mcp-tui: {line}\n")

    def _write_lines(self) -> None:
        """Write the request's lines at once (what ``print(..., flush=True)`` each would write)."""
        if self._lines:
            text = "".join(self._lines)
            self._lines.clear()
            self.err.write(text)
            self.err.flush()

    def _describe_fields(self, form: FormSpec) -> str:
        described = self._described
        if described is not None and described[0] is form:
            return described[1]
        text = _describe_fields(form)
        self._described = (form, text)
        return text


def _quote(text: str) -> str:
    """Server text in quotes, on one line, every unsafe character escaped."""
    return f'"{one_line(text, limit=300)}"'


def _describe_fields(form: FormSpec) -> str:
    parts = []
    for f in form.fields:
        text = f"{f.name}{'*' if f.required else ''} ({f.kind.value})"
        if f.has_default:
            text += f" = {json.dumps(f.default, ensure_ascii=False)}"
        parts.append(text)
    return visible(", ".join(parts), limit=1000, keep_newlines=False)


def _masked(content: dict[str, Any], form: FormSpec | None) -> dict[str, Any]:
    """``content`` as printed: the value of a field that looks like a secret (a key filled in
    from ``${API_KEY}``) is never written to a log, only that one was sent."""
    if form is None:
        return content
    from mcp_tui.schema.secrets import looks_secret

    secret = {field.name for field in form.fields if looks_secret(field)}
    return {k: ("***" if k in secret and v not in ("", None) else v) for k, v in content.items()}
