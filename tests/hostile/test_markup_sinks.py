# ruff: noqa: E501
"""No server string reaches a markup-parsing widget (or a Content/Text) except made safe.

``markup_sinks.py`` scans ``mcp_tui/ui`` statically. Every finding must be in :data:`ALLOWED`
with the reason it is safe; an allowed entry that no longer matches anything fails too, so the
list cannot rot. The checker itself is tested on small snippets, so it is known to catch the
mistakes it exists for.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.hostile.markup_sinks import findings_in, scan

ROOT = Path(__file__).resolve().parents[2]

#: (path, sink, source) -> why it is safe.
ALLOWED: dict[tuple[str, str, str], str] = {
    ("mcp_tui/ui/tour/guide.py", "notify", 'f"Step {self.index + 1} is still running: {step.do_on(self.era)}"'):
        "markup=False; the tour script's own words",
    **{
        ("mcp_tui/ui/tour/note.py", "assemble", source):
        "Content.assemble takes plain text (never markup): the tour script's words, the step "
        "count, and the era as one_line(...) of the negotiated version"
        for source in ("text.heading", "text.state", 'f"{label}: "', "value")
    },
    ("mcp_tui/ui/app/app.py", ".sub_title =", '" · ".join(parts)'):
        "server counts and state words built by mcp-tui; no server text",
    ("mcp_tui/ui/app/keymap.py", "notify",
     'f"[keys] gave {self._app.get_key_display(binding)} to another binding: {what!r} " '
     'f"({binding.id or \'no id\'}) has no key there now."'):
        "markup=False; a binding of mcp-tui's (or Textual's) own, moved by the person's [keys]",
    ("mcp_tui/ui/app/request_line.py", "notify",
     'f"Server {who}: the {what} was withdrawn ({ABANDONED_NOTE}); " '
     'f"the {shown_on} was closed.{kept}"'):
        "markup=False; who is one_line(shown_name(...)): the server's shown name (the user's "
        "own, or the product name a generic-named server announced) made one line; what and "
        "shown_on are constants of the two callers",
    ("mcp_tui/ui/app/request_line.py", "notify",
     'f"Could not save the answer to {self.path}: {exc}"'):
        "markup=False; a local path and a local OSError",
    ("mcp_tui/ui/screens/arguments.py", "Button", 'Content(f"{self._verb} (Ctrl+S)")'):
        "the verb is mcp-tui's own word (Call, Get, Read)",
    ("mcp_tui/ui/screens/arguments.py", "Content", 'f"{self._verb} (Ctrl+S)"'):
        "the verb is mcp-tui's own word (Call, Get, Read)",
    **{
        ("mcp_tui/ui/screens/arguments.py", sink, "origin_text(self.prefill, self.remembered)"):
        "arguments_origin.origin_text returns literal(...) on every path (the note may quote "
        "a schema's words)"
        for sink in ("Static", ".update")
    },
    **{
        ("mcp_tui/ui/screens/confirm.py", sink, source): "ConfirmScreen texts are written by "
        "mcp-tui (quit and re-run questions), never by a server"
        for sink, source in [
            ("Label", "Content(self._title)"),
            ("Content", "self._title"),
            ("Static", "Content(self._question)"),
            ("Content", "self._question"),
            ("Button", 'Content(f"{self._yes} y")'),
            ("Content", 'f"{self._yes} y"'),
            ("Button", 'Content(f"{self._no} n")'),
            ("Content", 'f"{self._no} n"'),
        ]
    },
    ("mcp_tui/ui/screens/elicitation_form.py", "Static", 'Content("Schema notes: " + " · ".join(notes))'):
        "notes are one_line(...) of every note (comprehension plus appends)",
    ("mcp_tui/ui/screens/elicitation_form.py", "Content", '"Schema notes: " + " · ".join(notes)'):
        "notes are one_line(...) of every note (comprehension plus appends)",
    ("mcp_tui/ui/screens/sign_in.py", "Static", "text"):
        "Content.assemble of constants and literal_line(uri)",
    ("mcp_tui/ui/screens/chat_extras.py", "OptionList",
     '*( Option( literal_line( f"{s.created.replace(\'T\', \' \')[:16]} '
     '{s.title or \'(no message)\'}", limit=90, ), id=str(s.path), ) for s in saved )'):
        "each option is literal_line(...) of a saved conversation's date and first message",
    ("mcp_tui/ui/widgets/chat_blocks.py", ".border_title =",
     'BLOCK_TITLES.get(status, BLOCK_TITLES["done"])'):
        "a title from mcp-tui's own constant table",
    ("mcp_tui/ui/screens/pick.py", "OptionList",
     "*(Option(label, id=key) for key, label in self._entries)"):
        "labels are Content parameters (annotated), built by callers with literal_line",
    ("mcp_tui/ui/screens/pick.py", "Option", "label"):
        "a Content parameter (annotated), built by callers with literal_line",
    ("mcp_tui/ui/screens/session/areas.py", "notify", 'f"{one_line(shown_name(server))}: {text}"'):
        "markup=False; the server name made one line, and text a note that may quote a server "
        "error (shown literally: markup is off)",
    ("mcp_tui/ui/screens/session/calls.py", "notify", 'f"Call #{call_id} is not running"'):
        "markup=False; a number",
    ("mcp_tui/ui/screens/session/calls.py", "notify", 'f"Cancelling call #{call_id}"'):
        "markup=False; a number",
    ("mcp_tui/ui/screens/session/calls.py", "notify",
     'f"{one_line(shown_name(server))} is {state}, not ready"'):
        "markup=False; a state word of our own enum (or 'gone', 'not connected')",
    ("mcp_tui/ui/screens/session/calls.py", "notify",
     'f"{one_line(shown_name(server))} is {state}: the {unsent} was not sent. What you " '
     '"typed is kept: the form opens with it again once the server is back (R reconnects)."'):
        "markup=False; the server's shown name made one line; state a word of our own enum (or "
        "'gone'); unsent one of the callers' constants (tool call, prompt, resource)",
    ("mcp_tui/ui/widgets/request/url_destination.py", "Content", "host[cut + len(domain) :]"):
        "verdict.host is the IDNA/ASCII host from url_check (letters, digits, dots, hyphens)",
    ("mcp_tui/ui/widgets/request/url_destination.py", "Content", 'f"{verdict.scheme}://" if verdict.scheme else ""'):
        "url_check allows only a lower-case scheme from its allow-list",
    **{
        ("mcp_tui/ui/screens/url_consent.py", "Static", f"{name}(verdict)"): "url_destination "
        "builds Content (annotated): the verdict's host parts styled (allowed below) and its "
        "warnings and reasons through literal_line"
        for name in ("reasons_content", "site_content", "warnings_content")
    },
    ("mcp_tui/ui/widgets/session/catalog_tree.py", "Text", 'f"{group.capitalize()} ({len(items)})"'):
        "group is one of mcp-tui's own words (tools, prompts, resources, templates)",
    ("mcp_tui/ui/widgets/form/form_pages.py", "Content",
     'f"fields {first}–{last} of {len(self.form.fields)} " '
     'f"(page {self._page + 1} of {self._page_count})"'):
        "numbers only (the page label moved here from schema_form.py with the paging)",
    ("mcp_tui/ui/widgets/text/fitted_text.py", ".update", "self._text"):
        "a Content parameter (annotated); the arguments screen builds it with literal()",
    ("mcp_tui/ui/widgets/text/fitted_text.py", ".update", 'Content.assemble(kept, "\\n", self._more)'):
        "kept: lines wrapped from self._text (Content.wrap, no markup parsed); self._more: a "
        "Content parameter, mcp-tui's own note",
    ("mcp_tui/ui/widgets/text/fitted_text.py", ".update", "Content.assemble(kept, self._more)"):
        "kept: lines wrapped (and truncated) from self._text (Content.wrap/truncate, no markup "
        "parsed); self._more: a Content parameter, mcp-tui's own ellipsis",
    ("mcp_tui/ui/widgets/text/fitted_text.py", ".update",
     'text if spare is None else Content.assemble(text, "\\n", spare)'):
        "Content parameters (annotated): literal() text and mcp-tui's own hint",
    ("mcp_tui/ui/widgets/text/fitted_text.py", ".update", 'Content.assemble(self._text, "\\n", spare)'):
        "Content parameters (annotated): literal() text and mcp-tui's own hint",
    ("mcp_tui/ui/widgets/text/fitted_text.py", "assemble", "spare"):
        "a Content parameter (annotated): the info panel's key hint, mcp-tui's own words",
    ("mcp_tui/ui/widgets/text/fitted_text.py", "assemble", "self._text"):
        "a Content parameter (annotated): built by the callers with literal()/literal_line()",
    ("mcp_tui/ui/widgets/text/fitted_text.py", "assemble", "kept"):
        "lines wrapped from the Content self._text (Content.wrap parses no markup)",
    ("mcp_tui/ui/widgets/text/fitted_text.py", "assemble", "self._more"):
        "a Content parameter (annotated): mcp-tui's own note, built with Content.styled",
    ("mcp_tui/ui/widgets/session/running_calls.py", "Label", "self._label"):
        "a Content parameter (annotated), built by the session screen from literal_line",
    ("mcp_tui/ui/widgets/session/title_bar.py", "Content", 'f" {self.icon}"'):
        "the icon is mcp-tui's own constant (SessionScreen passes it)",
    ("mcp_tui/ui/widgets/session/title_bar.py", "assemble", "icon"):
        "the icon Content above, plus a theme style",
    ("mcp_tui/ui/widgets/session/title_bar.py", "assemble", "middle"):
        "App.format_title of the app's title and sub-title: mcp-tui's name and server counts "
        "(the sub-title's own entry in app.py)",
    ("mcp_tui/ui/widgets/session/traffic_view.py", "Text", "self.time"):
        "precise_clock of the message's local receive time",
    ("mcp_tui/ui/widgets/session/traffic_view.py", "Text", "self.size"):
        "human_size of the message's length (digits and a unit)",
    ("mcp_tui/ui/widgets/session/traffic_view.py", "Text", "self.latency"):
        "a duration formatted by _duration (digits and a unit)",
    ("mcp_tui/ui/widgets/session/transcript.py", "Static", "entry.summary"):
        "Entry.summary is a Content from render.py, whose Content(...) calls are checked here",
    ("mcp_tui/ui/widgets/session/transcript.py", "Static", "b.content"):
        "Block.content is a Content from render.py (the runs Entry.summary is joined from), "
        "whose Content(...) calls are checked here",
    ("mcp_tui/ui/screens/sampling_review.py", "Static", "from_server(server, what)"):
        "from_server returns Content: mcp-tui's words and the role through literal_line(), the "
        "server's name through literal_line()",
    ("mcp_tui/ui/widgets/text/server_text.py", ".label =", "label"):
        "a Content | None parameter (annotated): from_server(), literal_line() of the server's "
        "name after mcp-tui's words",
    ("mcp_tui/ui/widgets/text/server_text.py", ".border_title =", "label"):
        "a Content | None parameter (annotated): a Content is never parsed as markup (Textual "
        "parses only a str), built by from_server() with literal_line()",
    ("mcp_tui/ui/app/palette.py", "assemble", "self.verb"):
        "palette verbs are mcp-tui's own words (Call tool, Get prompt, ...)",
    ("mcp_tui/ui/app/palette.py", "styled", "self.group.ljust(_GROUP_WIDTH)"):
        "palette groups are mcp-tui's own words (palette.GROUPS)",
    ("mcp_tui/ui/app/palette.py", "assemble", "group"): "the styled group just above",
    ("mcp_tui/ui/app/palette.py", "assemble", "content"):
        "the verb and literal_line(subject) built just above",
    ("mcp_tui/ui/app/palette.py", "assemble", "shown"):
        "group, verb and subject built above (each checked here)",
    ("mcp_tui/ui/app/palette.py", "styled", 'f" {key}"'):
        "a key's display from Textual (get_key_display) of mcp-tui's own BINDINGS",
    ("mcp_tui/ui/app/palette.py", "assemble", 'Content.styled(f" {key}", "$text-muted")'):
        "the key display just above",
    ("mcp_tui/ui/app/help.py", "Content", "first"):
        "help rows: key names and context titles from mcp-tui's own BINDINGS and CONTEXTS, "
        "palette group names",
    ("mcp_tui/ui/app/help.py", "Content", "second"):
        "help rows: binding descriptions of mcp-tui's own BINDINGS, palette verb names "
        "(mcp-tui's words, never a subject)",
    ("mcp_tui/ui/app/help.py", "Static", "Content(first)"): "see Content(first)",
    ("mcp_tui/ui/app/help.py", "Static", "Content(second)"): "see Content(second)",
    ("mcp_tui/ui/render.py", "assemble", "mark"): "a constant mark chosen by the action",
    ("mcp_tui/ui/request_header.py", "styled", 'f" ({self._waiting} more waiting)"'):
        "an int count of queued requests",
    ("mcp_tui/ui/request_header.py", "Content", "self.asks"):
        "each request screen's own constant words (' asks for input', ...)",
    ("mcp_tui/ui/screens/sampling_review.py", "Select",
     "[(literal_text_line(t.name, limit=60), i) for i, t in enumerate(request.tools)]"):
        "each label is literal_text_line of the tool name (Rich Text, never markup); the values "
        "are indices",
    ("mcp_tui/ui/render.py", "assemble", "warning"):
        "answered_entry's closed: a constant of each caller (elicitation, sampling), not server "
        "text",
    ("mcp_tui/ui/widgets/key_footer.py", "assemble", "key_part"):
        "a key's display from Textual (get_key_display) of mcp-tui's own BINDINGS",
    ("mcp_tui/ui/widgets/key_footer.py", "assemble", "description_part"):
        "a description of mcp-tui's own (or Textual's) BINDINGS, never server text",
    ("mcp_tui/ui/widgets/key_footer.py", ".tooltip =",
     "key.tooltip if key is not None and key.tooltip else None"):
        "binding tooltips and descriptions of mcp-tui's own (or Textual's) BINDINGS",
    ("mcp_tui/ui/screens/sign_in.py", "styled", 'f" {uri}"'):
        "mcp-tui's own loopback redirect URI, not server text",
    **{
        ("mcp_tui/ui/widgets/request/url_destination.py", "styled", source): "url_check's verdict: the "
        "IDNA/ASCII host (letters, digits, dots, hyphens, IP literals) and an int port"
        for source in ('f"[{host}]"', "host[:cut]", "domain", "host", 'f":{verdict.port}"')
    },
    **{
        (path, sink, source): "argument_base.title_line (annotated to return Content): "
        "literal_line of the node's label plus a constant marker"
        for path, sink, source in [
            ("mcp_tui/ui/widgets/arguments/argument_leaves.py", "assemble", 'title_line(self.node, "value")'),
            ("mcp_tui/ui/widgets/arguments/argument_objects.py", "assemble", 'title_line(self.node, "object")'),
            ("mcp_tui/ui/widgets/arguments/argument_variants.py", "Static", 'title_line(self.node, "part")'),
        ]
    },
    ("mcp_tui/ui/widgets/arguments/argument_leaves.py", "Static", "line + literal_line(value, limit=200)"):
        "line: Content.assemble of title_line (see above) and constants",
    ("mcp_tui/ui/widgets/session/info_panel.py", "assemble", "state"):
        "a state word of our own enum and a number of seconds",
    ("mcp_tui/ui/render.py", "assemble", "entry.summary"):
        "repeated_entry: a Content built by notice_entry (the URI in a literal block), never parsed",
    ("mcp_tui/ui/render.py", "assemble", "note"):
        "repeated_entry: mcp-tui's count and a clock time; no server text",
    ("mcp_tui/ui/widgets/session/transcript.py", ".update", "self.entry.summary"):
        "a Content from repeated_entry (literal blocks); Content is never parsed as markup",
    ("mcp_tui/ui/app/app.py", "notify", 'f"The theme could not be remembered: {exc}"'):
        "markup=False; a local OSError about the theme file",
    ("mcp_tui/ui/call_history.py", ".update", "secret_values(request, outcome)"):
        "a set of strings (the secrets to mask in an export), not a widget",
    ("mcp_tui/ui/screens/export_session.py", "notify",
     'f"Session exported to {_where(paths[0])}: {names}"'):
        "markup=False; the local path and file names the person chose",
    ("mcp_tui/ui/screens/message_tree.py", "Static", "self._status()"):
        "mcp-tui's own key hints (the note is never server text)",
    ("mcp_tui/ui/screens/session/repeat.py", "notify",
     'f"{one_line(shown_name(server))} no longer offers the {kind} {one_line(name)!r}: " '
     '"nothing was sent"'):
        "markup=False; server and name through one_line, kind is mcp-tui's word",
    ("mcp_tui/ui/screens/session/repeat.py", "notify",
     'f"#{record.call_id} is not saved as a test: it did not finish by itself " '
     'f"({one_line(why)})"'):
        "markup=False; the call id and mcp-tui's reason (record_case.unfinished), one line",
    ("mcp_tui/ui/widgets/request/wire_panel.py", "Static", "self._answer"):
        "Content of json_text(...) (unsafe characters as \\uXXXX) or one_line(...) lines",
    ("mcp_tui/ui/widgets/request/wire_panel.py", ".update", "self._answer"):
        "Content of json_text(...) (unsafe characters as \\uXXXX) or one_line(...) lines",
    ("mcp_tui/ui/widgets/request/wire_panel.py", "Static", 'Content(f"← {self.method} params, as received")'):
        "literal Content: method is mcp-tui's words for the screen (elicitation/create), with on "
        "2026-07-28 the inputRequests key as one_line(json_text(...))",
    ("mcp_tui/ui/widgets/request/wire_panel.py", "Content", 'f"← {self.method} params, as received"'):
        "method is mcp-tui's constant for the screen (elicitation/create), never the server's",
    ("mcp_tui/ui/widgets/request/wire_panel.py", "styled", "line"):
        "schema_lines: lines of json_text(params) (unsafe characters as \\uXXXX escapes)",
    ("mcp_tui/ui/widgets/request/wire_panel.py", "Content", "line"):
        "schema_lines: lines of json_text(params) (unsafe characters as \\uXXXX escapes)",
    ("mcp_tui/ui/widgets/request/wire_panel.py", "Content", "text"):
        "json_text(...) of the answer, or one_line(...) of each field name and error",
    ("mcp_tui/ui/widgets/request/sent_wire.py", "Content", "self._text"):
        "json_text(...) of the message sent (as shown), wrapped to find a line: never markup",
    **{
        ("mcp_tui/ui/widgets/request/wire_panel.py", sink, source):
        "key_hint and title are mcp-tui's own words (WIRE_HINT and what F6 does)"
        for sink, source in [
            ("Static", 'Content(f"→ what Ctrl+S sends now ({self.key_hint})")'),
            ("Content", 'f"→ what Ctrl+S sends now ({self.key_hint})"'),
            (".update", "Content(title)"),
            ("Content", "title"),
        ]
    },
    ("mcp_tui/ui/widgets/request/wire_summary.py", "Content", 'text if len(text) <= LINE else text[: LINE - 1] + "…"'):
        "_cut is given json_text(...) (unsafe characters as \\uXXXX escapes), schema_lines' lines "
        "(of json_text) or one_line(...) text only: its callers in wire_summary.py",
    ("mcp_tui/ui/widgets/request/sent_wire.py", ".update", "Content(text)"):
        "literal Content of json_text(...) of the message sent (unsafe characters as \\uXXXX)",
    ("mcp_tui/ui/widgets/request/sent_wire.py", "Content", "text"):
        "json_text(...) of the message sent (unsafe characters as \\uXXXX escapes)",
    ("mcp_tui/ui/widgets/request/sent_wire.py", ".border_title =", "Content(sent_title(message))"):
        "mcp-tui's words and one_line(...) of the request id, as literal Content",
    ("mcp_tui/ui/widgets/request/sent_wire.py", "Content", "sent_title(message)"):
        "mcp-tui's words and one_line(...) of the request id, as literal Content",
}  # fmt: skip


def test_no_server_text_reaches_a_markup_widget_unchecked() -> None:
    found = {(f.path, f.sink, f.source): f for f in scan(ROOT / "mcp_tui" / "ui", ROOT)}
    unexplained = [str(f) for key, f in found.items() if key not in ALLOWED]
    assert not unexplained, "text that may come from a server reaches a widget unchecked:\n" + (
        "\n".join(unexplained)
    )
    stale = [key for key in ALLOWED if key not in found]
    assert not stale, f"allow-list entries that match nothing any more: {stale}"


@pytest.mark.parametrize(
    "code",
    [
        "Label(server.name)",
        "Static(f'{tool.description}')",
        "self.notify(message)",
        "self.notify(f'{info.name}', markup=False)",
        "Button(label=request.message)",
        "OrderedButton(request.message, id='send')",  # a subclass, known by its name
        "widget.border_title = item.title",
        "status.update(error.text)",
        "Content(result.text)",
        "Content.styled(request.message, 'bold')",
        "Text.from_markup(text)",
        "def f(x):\n    lines = []\n    lines.append(x.name)\n    return Static(' '.join(lines))",
        # visible()/one_line() escape control characters, not brackets: a str into a markup sink
        # is still parsed as markup, so only a Content/Text (or markup=False) makes it safe.
        "Static(visible(x))",
        "Label(one_line(server.name))",
        "self.notify(f'{one_line(info.name)} is ready')",
        "widget.border_title = one_line(item.title)",
        "status.update(visible(error.text))",
        "Button(f'Run {one_line(tool.name)}')",
        "self.notify(one_line(x), markup=True)",
        "def f(x):\n    lines = [visible(x)]\n    lines.append('end')\n    return Static('\\n'.join(lines))",
    ],
)
def test_the_checker_flags_unsafe_text(code: str) -> None:
    assert findings_in(code), code


def test_a_subclass_is_reported_under_its_base_widget() -> None:
    [finding] = findings_in("OrderedButton(request.message)")
    assert finding.sink == "Button"


@pytest.mark.parametrize(
    "code",
    [
        "Label('constant')",
        "Label(literal_line(server.name))",
        "Static(Content(one_line(tool.description)))",
        "self.notify(f'{one_line(info.name)} is ready', markup=False)",
        "Button(f'Accept  {ACCEPT_HINT}')",
        "widget.border_title = 'Servers'",
        "status.update(Content(f'{count:,} dropped'))",
        "def f(x: Content):\n    return Label(x)",
        "def f(x):\n    lines = [visible(x)]\n    lines.append('end')\n    return Static(Content('\\n'.join(lines)))",
        "Static(visible(x), markup=False)",
        "Static(literal(x))",
        "widget.border_title = literal_line(item.title)",
        "status.update(Text(one_line(error.text)))",
    ],
)
def test_the_checker_accepts_safe_text(code: str) -> None:
    assert findings_in(code) == [], code
