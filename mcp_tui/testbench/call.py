"""What a case and a setup or teardown step have in common: one call and the answers to what it
asks.

A :class:`~mcp_tui.testbench.model.Case` is a call with expectations; a
:class:`~mcp_tui.testbench.model.Step` is a call made for the state a case needs (create the item
the case deletes, then remove it). Both call a tool, get a prompt or read a resource, with the
same arguments, answers (the entries of an answers file) and policies, so one
:class:`Call` holds those keys and their rules for both.

Pure: pydantic and the config's answers model.
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from mcp_tui.config.answers import AnswerEntry

#: Every table of a test file: unknown keys and wrong types are errors, the models frozen.
STRICT = ConfigDict(extra="forbid", frozen=True, strict=True)

CallKind = Literal["tool", "prompt", "resource"]


class Call(BaseModel):
    """One call: a tool, a prompt or a resource, with its arguments and answers."""

    model_config = STRICT
    #: What the table is, for the one-call message ("a case makes one call").
    WHAT: ClassVar[str] = "a call"

    tool: str | None = Field(default=None, min_length=1, description="Call this tool.")
    prompt: str | None = Field(default=None, min_length=1, description="Get this prompt.")
    resource: str | None = Field(default=None, min_length=1, description="Read this resource URI.")
    arguments: dict[str, Any] = Field(
        default_factory=dict,
        description="The tool's arguments (any JSON) or the prompt's (strings).",
    )
    task: bool = Field(default=False, description="Call an optional-task tool as a task.")
    answers: list[AnswerEntry] = Field(
        default_factory=list,
        description="Answers to the elicitation and sampling requests, as in an answers file: "
        "in order, or by `match`.",
    )
    elicit: Literal["accept-defaults", "decline", "cancel"] = Field(
        default="cancel", description="How requests no answer covers are answered."
    )
    sampling: Literal["decline", "cancel"] = Field(
        default="decline", description="How sampling requests no answer covers are refused."
    )
    timeout: float | None = Field(
        default=None,
        gt=0,
        description="Seconds before the call is cancelled (default: the file's).",
    )

    @model_validator(mode="after")
    def _one_call(self) -> Call:
        given = [k for k in ("tool", "prompt", "resource") if getattr(self, k) is not None]
        if len(given) != 1:
            got = " and ".join(given) if given else "none"
            raise ValueError(
                f"{self.WHAT} makes one call: exactly one of `tool`, `prompt` or `resource` "
                f"(got {got})"
            )
        if self.resource is not None and self.arguments:
            raise ValueError("a resource read takes no `arguments` (the URI says it all)")
        if self.prompt is not None:
            bad = [k for k, v in self.arguments.items() if not isinstance(v, str)]
            if bad:
                raise ValueError(f"a prompt's arguments are strings; `{bad[0]}` is not")
        if self.tool is None and self.task:
            raise ValueError("`task` goes with `tool`")
        return self

    @property
    def kind(self) -> CallKind:
        if self.tool is not None:
            return "tool"
        return "prompt" if self.prompt is not None else "resource"

    @property
    def target(self) -> str:
        return self.tool or self.prompt or self.resource or ""
