"""``mcp-tui call`` and ``mcp-tui list`` end to end against the fixture server, over Streamable
HTTP on 127.0.0.1 (served from a thread of this process) and over stdio (a child process)."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
import webbrowser
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from mcp_tui.cli import main as cli
from tests.fixtures import elicit_server

PY = sys.executable
FIXTURE = Path(elicit_server.__file__)
ERAS = ["legacy", "2026-07-28"]


@contextmanager
def serving(**options: Any) -> Iterator[str]:
    """The fixture server (``build_server(**options)``) over Streamable HTTP on 127.0.0.1."""
    import uvicorn

    app = elicit_server.build_server(**options).streamable_http_app()
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", log_config=None)
    )
    thread = threading.Thread(target=server.run, name="fixture-http", daemon=True)
    thread.start()
    for _ in range(400):
        if server.started:
            break
        threading.Event().wait(0.05)
    assert server.started, "the fixture server did not start"
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        server.should_exit = True
        thread.join(10)


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    """The fixture server for this module's tests."""
    with serving() as address:
        yield address


@pytest.fixture(scope="module")
def slow_list_url() -> Iterator[str]:
    """The fixture server answering each ``tools/list`` only after half a second."""
    with serving(list_delay=0.5) as address:
        yield address


@pytest.fixture
def no_browser(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any attempt to open a browser fails the test."""

    def refuse(*_args: object, **_kwargs: object) -> bool:
        raise AssertionError("a headless run tried to open a browser")

    for name in ("open", "open_new", "open_new_tab"):
        monkeypatch.setattr(webbrowser, name, refuse)


class Listener:
    """A TCP port on 127.0.0.1 that counts every connection made to it."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.hits = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            self.hits += 1
            conn.close()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(2)
        self.sock.close()


@pytest.fixture
def listener() -> Iterator[Listener]:
    lis = Listener()
    yield lis
    lis.close()


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = cli.main(argv)
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    return code, captured.out, captured.err


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# ---- answers files ------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ERAS)
def test_toml_answers_in_order(
    url: str, tmp_path: Path, mode: str, capsys: pytest.CaptureFixture[str]
) -> None:
    answers = write(
        tmp_path,
        "answers.toml",
        '[[answers]]\naction = "accept"\ncontent = { answer = "one" }\n\n'
        '[[answers]]\naction = "decline"\n',
    )
    code, out, err = run(
        ["call", "two_questions", "--answers", str(answers), "--mode", mode, url], capsys
    )
    assert code == 0, err
    assert json.loads(out) == [
        {"action": "accept", "content": {"answer": "one"}},
        {"action": "decline"},
    ]
    assert 'elicitation #1 (form): "First question: how are you?"' in err
    assert '-> accept {"answer": "one"}  (answer #1 (line 1) of' in err
    assert 'elicitation #2 (form): "Second question: and tomorrow?"' in err
    assert "-> decline  (answer #2 (line 5) of" in err


@pytest.mark.parametrize("mode", ERAS)
def test_json_answers_matched_by_message(
    url: str, tmp_path: Path, mode: str, capsys: pytest.CaptureFixture[str]
) -> None:
    answers = write(
        tmp_path,
        "answers.json",
        json.dumps(
            {
                "answers": [
                    {"match": "^Second", "action": "accept", "content": {"answer": "second"}},
                    {"action": "accept", "content": {"answer": "in order"}},
                ]
            }
        ),
    )
    code, out, err = run(
        ["call", "--mode", mode, "two_questions", "--answers", str(answers), url], capsys
    )
    assert code == 0, err
    assert [r["content"]["answer"] for r in json.loads(out)] == ["in order", "second"]


@pytest.mark.parametrize("mode", ERAS)
def test_accept_is_completed_with_defaults_in_exact_types(
    url: str, tmp_path: Path, mode: str, capsys: pytest.CaptureFixture[str]
) -> None:
    answers = write(tmp_path, "a.json", '[{"action": "accept", "content": {"name": "Ada"}}]')
    code, out, err = run(
        ["call", "profile", "--answers", str(answers), "--mode", mode, url], capsys
    )
    assert code == 0, err
    content = json.loads(out)["content"]
    assert content == {
        "name": "Ada",
        "age": 30,
        "ratio": 95.5,
        "subscribe": False,
        "color": "green",
        "tags": ["a"],
    }
    assert isinstance(content["age"], int) and isinstance(content["ratio"], float)


def outgoing_actions(log: Path) -> list[str]:
    actions = []
    for line in log.read_text(encoding="ascii").splitlines():
        entry = json.loads(line)
        if entry["dir"] != "out":
            continue
        result = entry["message"].get("result") or {}
        if "action" in result:
            actions.append(result["action"])
        for response in (entry["message"].get("params") or {}).get("inputResponses", {}).values():
            actions.append(response["action"])
    return actions


@pytest.mark.parametrize("mode", ERAS)
@pytest.mark.parametrize(
    ("content", "field"),
    [
        ({"name": "Ada", "age": 12}, "'age'"),
        ({"name": "Ada", "age": "36"}, "'age'"),
        ({"name": "A"}, "'name'"),
        ({"name": "Ada", "nickname": "x"}, "'nickname'"),
        ({"name": "Ada", "color": "purple"}, "'color'"),
    ],
)
def test_invalid_scripted_answer_is_never_sent(
    url: str,
    tmp_path: Path,
    mode: str,
    content: dict[str, Any],
    field: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    answers = write(tmp_path, "a.json", json.dumps([{"action": "accept", "content": content}]))
    log = tmp_path / "traffic.jsonl"
    argv = ["call", "profile", "--answers", str(answers), "--mode", mode, "--log", str(log), url]
    code, out, err = run(argv, capsys)
    assert code == 4, err
    assert out == ""
    assert (
        f"stopped: elicitation #1: answer #1 (line 1) does not fit the form: field {field}" in err
    )
    assert "accept" not in outgoing_actions(log), "nothing accepted went to the server"


def test_accept_defaults_without_a_default_for_a_required_field(
    url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(["call", "profile", "--elicit", "accept-defaults", url], capsys)
    assert code == 4 and out == ""
    assert "the schema's defaults do not fit the form: field 'name': " in err


@pytest.mark.parametrize(("policy", "action"), [("decline", "decline"), (None, "cancel")])
def test_policy_without_answers_file(
    url: str, policy: str | None, action: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["call", "profile", url] + (["--elicit", policy] if policy else [])
    code, out, err = run(argv, capsys)
    assert code == 0, err
    assert json.loads(out) == {"action": action}
    assert f"-> {action}  (--elicit {action})" in err


# ---- URL mode -----------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ERAS)
def test_url_request_is_printed_and_never_opened(
    url: str,
    tmp_path: Path,
    mode: str,
    listener: Listener,
    no_browser: None,
    capsys: pytest.CaptureFixture[str],
) -> None:
    page = f"http://127.0.0.1:{listener.port}/consent?x=1"
    answers = write(tmp_path, "a.toml", '[[answers]]\naction = "accept"\nmode = "url"\n')
    args = json.dumps({"url": page})
    argv = ["call", "visit", "--args", args, "--answers", str(answers), "--mode", mode, url]
    code, out, err = run(argv, capsys)
    assert code == 0, err
    assert json.loads(out) == {"action": "accept"}
    assert 'elicitation #1 (url): "Please visit the page"' in err
    assert f"URL: {page} (not opened)" in err
    assert "host: 127.0.0.1" in err and "loopback" in err
    assert listener.hits == 0, "nobody fetched the URL"


def test_refused_url_is_declined_whatever_the_file_says(
    url: str, tmp_path: Path, no_browser: None, capsys: pytest.CaptureFixture[str]
) -> None:
    answers = write(tmp_path, "a.toml", '[[answers]]\naction = "accept"\nmode = "url"\n')
    args = json.dumps({"url": "javascript:alert(1)"})
    code, out, err = run(
        ["call", "visit", "--args", args, "--answers", str(answers), "--mode", "legacy", url],
        capsys,
    )
    assert code == 0, err
    assert json.loads(out) == {"action": "decline"}
    assert "refused:" in err and "(the URL check (refused URLs decline))" in err


def test_url_request_without_answer_is_declined(
    url: str, listener: Listener, no_browser: None, capsys: pytest.CaptureFixture[str]
) -> None:
    args = json.dumps({"url": f"http://127.0.0.1:{listener.port}/"})
    code, out, err = run(
        ["call", "visit", "--args", args, "--elicit", "accept-defaults", url], capsys
    )
    assert code == 0, err
    assert json.loads(out) == {"action": "decline"}
    assert "-> decline  (default for URL requests)" in err
    assert listener.hits == 0


def test_an_international_host_is_printed_in_the_form_that_would_be_opened(
    url: str, no_browser: None, capsys: pytest.CaptureFixture[str]
) -> None:
    """The URL line is the A-label form (what the TUI shows and opens), the Unicode beside it."""
    args = json.dumps({"url": "https://аpple.com/login?next=ü"})  # Cyrillic а
    code, _out, err = run(["call", "visit", "--args", args, url], capsys)
    assert code == 0, err
    assert "URL: https://xn--pple-43d.com/login?next=ü (not opened)" in err
    assert "shown as: https://аpple.com/login?next=ü" in err
    assert "mixes Cyrillic and Latin" in err


def test_a_host_read_two_ways_is_refused(
    url: str, no_browser: None, capsys: pytest.CaptureFixture[str]
) -> None:
    args = json.dumps({"url": "https://faß.de/"})
    code, out, err = run(["call", "visit", "--args", args, url], capsys)
    assert code == 0, err
    assert json.loads(out) == {"action": "decline"}
    assert "refused:" in err and "xn--fa-hia.de" in err and "fass.de" in err


# ---- results, errors, list ----------------------------------------------------------------------


def test_is_error_result_exits_1(url: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["call", "fails", url], capsys)
    assert code == 1
    assert "this tool always fails" in out
    assert "the tool returned an error (isError)" in err


def test_unknown_tool_exits_1(url: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["call", "no_such_tool", url], capsys)
    assert code == 1, err


def test_json_output_is_the_raw_result(url: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        ["call", "echo_json", "--json", "--args", '{"text": "hi\\u001b[2J", "n": 3}', url],
        capsys,
    )
    assert code == 0, err
    assert "\x1b" not in out, "JSON output is pure ASCII"
    result = json.loads(out)
    assert json.loads(result["content"][0]["text"]) == {"text": "hi\x1b[2J", "n": 3}


def test_text_output_escapes_control_characters(
    url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    text = "a\x1b]52;c;ZXZpbA==\x07b\u202ec\nline two\tend"
    code, out, _ = run(["call", "echo", "--args", json.dumps({"text": text}), url], capsys)
    assert code == 0
    assert out == "a\\e]52;c;ZXZpbA==\\x07b\\u202ec\nline two\tend\n"


def test_list_json(url: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["list", "--json", url], capsys)
    assert code == 0, err
    data = json.loads(out)
    assert data["server"]["name"] == "fixture-server"
    tools = {t["name"]: t for t in data["tools"]}
    assert {"profile", "two_questions", "visit", "fails", "slow", "echo", "echo_json"} <= set(tools)
    assert tools["echo_json"]["inputSchema"]["properties"]["n"]["type"] == "integer"


def test_timeout_exits_3(url: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["call", "slow", "--timeout", "0.5", url], capsys)
    assert code == 3 and out == ""
    assert "gave up after 0.5 s (--timeout)" in err


def test_connection_refused_exits_3(capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    code, out, err = run(["call", "echo", f"http://127.0.0.1:{port}/mcp"], capsys)
    assert code == 3 and out == ""
    assert "cannot connect to 127.0.0.1:" in err


# ---- stdio --------------------------------------------------------------------------------------


def test_stdio_call_with_answers_and_server_stderr(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    answers = write(
        tmp_path,
        "a.toml",
        '[[answers]]\nmatch = "."\naction = "accept"\ncontent = {answer = "x"}\n',
    )
    argv = ["call", "two_questions", "--answers", str(answers), "--mode", "legacy"]
    code, out, err = run([*argv, "--", PY, str(FIXTURE)], capsys)
    assert code == 0, err
    assert [r["content"] for r in json.loads(out)] == [{"answer": "x"}, {"answer": "x"}]
    code, out, err = run(
        ["call", "echo_json", "--args", '{"text": "\\u001b]0;x\\u0007"}', "--", PY, str(FIXTURE)],
        capsys,
    )
    assert code == 0
    assert "[elicit_server stderr] echo_json called with '\\x1b]0;x\\x07'" in err
    assert "\x1b" not in err


def test_stdio_list_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        ["list", "--quiet", "--mode", "2026-07-28", "--", PY, str(FIXTURE)], capsys
    )
    assert code == 0, err
    assert out.startswith("server: fixture-server 1.2.3 (protocol 2026-07-28)\n\ntools (25):\n")
    # 26 tools; on 2026-07-28 the client drops bad_header (its x-mcp-header is invalid).
    assert "\n  profile\n      One form with every field kind.\n      input: {" in out
    assert "bad_header" not in out
    assert "\nprompts (2):\n  greet(name*)\n" in out and "\n  greeting(name*)\n" in out
    assert "\nresources (1):\n  fixture://readme" in out


def test_config_server_target(tmp_path: Path, url: str, capsys: pytest.CaptureFixture[str]) -> None:
    config = write(
        tmp_path,
        "mcp.json",
        json.dumps({"mcpServers": {"fx": {"type": "http", "url": url}, "other": {"command": "x"}}}),
    )
    argv = ["call", "echo_json", "--config", str(config), "--server", "fx"]
    code, out, err = run(argv, capsys)
    assert code == 0, err
    assert json.loads(out) == {"text": "", "n": 0}
    code, _, err = run(["call", "echo", "--config", str(config)], capsys)
    assert code == 2 and "choose one with --server NAME" in err


def test_reader_leaving_early_keeps_the_exit_code(url: str) -> None:
    """``mcp-tui list | head -1``: no traceback, exit code of the run itself."""
    proc = subprocess.Popen(
        [
            PY,
            "-m",
            "mcp_tui",
            "call",
            "echo",
            "--args",
            json.dumps({"text": "x\n", "times": 500_000}),
            url,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.readline() == b"x\n"
    proc.stdout.close()
    err = proc.stderr.read().decode()
    proc.stderr.close()
    assert proc.wait(60) == 0, err
    assert "Traceback" not in err and "BrokenPipe" not in err


@pytest.mark.parametrize("suffix", [".json", ".toml"])
def test_answers_recorded_in_the_tui_replay_unchanged(
    url: str, tmp_path: Path, suffix: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """What ``--save-answers`` writes (``AnswerRecorder``) is what ``call --answers`` replays, in
    the format its name says (a .toml file got JSON, which then failed as "not valid TOML")."""
    import tomllib

    from mcp_tui.config.answers import AnswerRecorder

    content = {
        "name": 'Ada "the first" \\ Lovelace',
        "age": 36,
        "ratio": 0.5,
        "subscribe": True,
        "color": "blue",
        "tags": ["a", "c"],
    }
    path = tmp_path / f"recorded{suffix}"
    recorder = AnswerRecorder(path)
    recorder.record(
        message="Tell us about yourself",
        mode="form",
        action="accept",
        content=content,
        server="fixture",
        tool="profile",
    )
    text = path.read_text(encoding="utf-8")
    parsed = tomllib.loads(text) if suffix == ".toml" else json.loads(text)
    assert parsed["answers"][0]["content"] == content
    if suffix == ".toml":
        assert text.count("[[answers]]") == 1
    code, out, err = run(["call", "profile", "--answers", str(path), url], capsys)
    assert code == 0, err
    assert json.loads(out) == {"action": "accept", "content": content}
    assert "recorded for a different message" not in err


def test_save_answers_needs_a_name_that_says_the_format(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _out, err = run(["--save-answers", str(tmp_path / "rec.yaml"), "--", PY, "-V"], capsys)
    assert code == 2
    assert "--save-answers" in err and ".toml" in err and ".json" in err


# ---- calling after the first tools listing (issue 7 follow-up) ----------------------------------


def traffic(log: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in log.read_text(encoding="ascii").splitlines()]


@pytest.mark.parametrize("mode", ERAS)
def test_call_waits_for_the_tools_listing_so_mcp_param_headers_are_sent(
    slow_list_url: str, mode: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The SDK mirrors ``x-mcp-header`` arguments into ``Mcp-Param-*`` headers only for tools it
    has seen listed. A call made before the first ``tools/list`` returns goes without them: a
    server that checks refuses it (the SDK then re-lists and sends it again), one that does not
    check gets no header. ``call`` waits for the listing, so the first ``tools/call`` has it."""
    log = tmp_path / "traffic.jsonl"
    args = '{"region": "eu-west"}'
    argv = ["call", "route", "--json", "--args", args, "--mode", mode, "--log", str(log)]
    code, out, err = run([*argv, slow_list_url], capsys)
    assert code == 0, err
    result = json.loads(json.loads(out)["content"][0]["text"])
    expected = "eu-west" if mode == "2026-07-28" else None  # the header is a 2026-07-28 feature
    assert result == {"region": "eu-west", "header": expected}
    calls = [
        e for e in traffic(log) if e["dir"] == "out" and e["message"].get("method") == "tools/call"
    ]
    assert len(calls) == 1, "sent once: no refusal for a missing header, no second try"
    assert "did not list" not in err


@pytest.mark.parametrize("mode", ERAS)
def test_call_sends_tools_call_after_the_tools_list_response(
    slow_list_url: str, mode: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """On the wire: the ``tools/list`` response is in before the ``tools/call`` request goes out."""
    log = tmp_path / "traffic.jsonl"
    code, _, err = run(
        ["call", "echo_json", "--log", str(log), "--mode", mode, slow_list_url], capsys
    )
    assert code == 0, err
    entries = traffic(log)
    list_ids = {
        e["message"]["id"]
        for e in entries
        if e["dir"] == "out" and e["message"].get("method") == "tools/list"
    }
    order = [
        "list-response" if e["dir"] == "in" and e["message"].get("id") in list_ids else "call"
        for e in entries
        if (e["dir"] == "in" and e["message"].get("id") in list_ids)
        or (e["dir"] == "out" and e["message"].get("method") == "tools/call")
    ]
    assert order[:2] == ["list-response", "call"], order


@pytest.mark.parametrize("mode", ["2026-07-28"])
def test_a_tool_the_server_did_not_list_is_still_called_with_a_warning(
    url: str, mode: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``bad_header`` is listed with an invalid ``x-mcp-header``, so the client drops it from the
    listing; servers may also hide tools. ``call`` still calls it, and says so on stderr."""
    code, out, err = run(["call", "bad_header", "--mode", mode, url], capsys)
    assert code == 0, err
    assert out == "bad_header ran\n"
    assert (
        "mcp-tui: warning: the server did not list a tool named 'bad_header'; calling it anyway"
        in err
    )


def test_unlisted_tool_name_is_escaped_in_the_warning(
    url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(["call", "no\x1b[2Jtool", url], capsys)
    assert code == 1
    assert "a tool named 'no\\e[2Jtool'; calling it anyway" in err
    assert "\x1b" not in err


# ---- what reaches stderr in a real process ------------------------------------------------------


def run_module(argv: list[str]) -> subprocess.CompletedProcess[str]:
    """``python -m mcp_tui ARGV`` in a child: no pytest logging handlers or warning filters."""
    return subprocess.run(
        [PY, "-m", "mcp_tui", *argv],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        cwd=Path(__file__).resolve().parents[2],
        timeout=120,
        check=False,
    )


def test_library_warnings_are_one_prefixed_line_and_none_with_quiet(url: str) -> None:
    """The SDK logs "dropping tool ..." (logger ``client``, no handler): never raw on stderr."""
    done = run_module(["call", "bad_header", "--mode", "2026-07-28", url])
    assert done.returncode == 0, done.stderr
    dropping = [line for line in done.stderr.splitlines() if "dropping tool" in line]
    assert len(dropping) == 1, done.stderr
    assert dropping[0].startswith(
        "mcp-tui: warning from client: dropping tool 'bad_header': invalid x-mcp-header"
    )
    quiet = run_module(["call", "bad_header", "-q", "--mode", "2026-07-28", url])
    assert quiet.returncode == 0, quiet.stderr
    assert "dropping tool" not in quiet.stderr
    assert quiet.stdout == "bad_header ran\n"


def test_no_deprecation_warning_on_stderr(url: str) -> None:
    """On a 2025-era connection mcp-tui asks for log messages (``logging/setLevel``), which the
    SDK flags with ``MCPDeprecationWarning``; the user must never see it."""
    done = run_module(["call", "echo_json", "--mode", "legacy", url])
    assert done.returncode == 0, done.stderr
    assert "Warning" not in done.stderr and "deprecated" not in done.stderr, done.stderr


# ---- read and get: forms asked while reading a resource or getting a prompt --------------------


@pytest.mark.parametrize("mode", ERAS)
def test_read_answers_a_form_asked_while_reading(
    url: str, tmp_path: Path, mode: str, capsys: pytest.CaptureFixture[str]
) -> None:
    answers = write(
        tmp_path, "a.toml", '[[answers]]\naction = "accept"\ncontent = {answer = "3"}\n'
    )
    code, out, err = run(
        ["read", "order://tea", "--answers", str(answers), "--mode", mode, url], capsys
    )
    assert code == 0, err
    assert json.loads(out) == {"item": "tea", "action": "accept", "content": {"answer": "3"}}
    assert 'elicitation #1 (form): "How many tea?"' in err


@pytest.mark.parametrize("mode", ERAS)
def test_get_answers_a_form_asked_while_getting_a_prompt(
    url: str, mode: str, capsys: pytest.CaptureFixture[str]
) -> None:
    greet = ["get", "greeting", "--args", '{"name": "Ada"}', "--elicit", "accept-defaults"]
    code, out, err = run([*greet, "--mode", mode, url], capsys)
    assert code == 0, err
    role, text = out.split("\n", 1)
    assert role == "[user]"
    assert json.loads(text) == {
        "name": "Ada",
        "action": "accept",
        "content": {"answer": "fine"},
    }
    code, out, _err = run(
        ["get", "greeting", "--args", '{"name": "Ada"}', "--json", "--mode", mode, url], capsys
    )
    assert code == 0
    message = json.loads(out)["messages"][0]
    assert message["role"] == "user"
    assert json.loads(message["content"]["text"])["action"] == "cancel"  # --elicit's default


def test_read_and_get_failures_exit_1_and_bad_arguments_2(
    url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(["read", "nowhere://x", url], capsys)
    assert code == 1 and out == ""
    assert "reading nowhere://x failed:" in err
    code, _out, err = run(["get", "no_such_prompt", url], capsys)
    assert code == 1 and "getting the prompt no_such_prompt failed:" in err
    code, _out, err = run(["get", "greeting", "--args", '{"name": 3}', url], capsys)
    assert code == 2 and "prompt arguments are strings" in err
    code, _out, err = run(["read", "order://x", "--args", "{}", url], capsys)
    assert code == 2


def test_a_generic_script_name_gives_way_to_the_servers_own(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``python server.py`` says nothing about which server it is: once the server announces
    ``fixture-server`` in ``serverInfo``, its lines carry that name (``session/naming.py``)."""
    script = tmp_path / "server.py"
    script.write_text(FIXTURE.read_text(encoding="utf-8"), encoding="utf-8")
    argv = ["call", "echo_json", "--args", '{"text": "hi"}', "--", PY, str(script)]
    code, _, err = run(argv, capsys)
    assert code == 0, err
    assert "[fixture-server stderr] echo_json called with 'hi'" in err
    # --name chooses outright
    argv = ["call", "echo_json", "--name", "server", "--args", "{}", "--", PY, str(script)]
    code, _, err = run(argv, capsys)
    assert code == 0, err
    assert "[server stderr] echo_json called with ''" in err
