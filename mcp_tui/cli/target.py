"""The server named on the command line: a URL or a command after ``--``, as a server spec.

``mcp-tui https://host/mcp`` and ``mcp-tui -- python server.py`` name one server without a config
file. This module turns those words into a :class:`~mcp_tui.config.servers.ServerSpec`: it checks
a URL argument (and explains the usual slips, such as a command given without ``--``), reads
``--header`` and ``--env`` options, checks that the command exists, and keeps names unique beside
the config's servers (the name itself comes from ``names.py``). A command named here
inherits the caller's environment, as it would when run from the shell. Pure: every mistake raises
:class:`~mcp_tui.errors.UsageError` (or ``ConnectionFailed`` for a missing command) with one
paragraph that says what to write instead.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Mapping, Sequence
from pathlib import Path
from urllib.parse import urlsplit

from mcp_tui.cli.names import derive_name
from mcp_tui.config.servers import HttpTarget, ServerSpec, StdioTarget
from mcp_tui.config.settings import AppSettings
from mcp_tui.errors import ConnectionFailed, UsageError
from mcp_tui.session.naming import is_generic, unique_name
from mcp_tui.untrusted import command_line

_HEADER_NAME = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")
_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def parse_headers(raw: Sequence[str]) -> dict[str, str]:
    """``--header "Name: value"`` (repeatable) as a dict; a later header replaces an earlier one."""
    headers: dict[str, str] = {}
    for item in raw:
        name, sep, value = item.partition(":")
        name = name.strip()
        if not sep or not _HEADER_NAME.fullmatch(name):
            raise UsageError(
                f'--header {item!r} is not a header: write it as "Name: value", for example '
                '--header "Authorization: Bearer $TOKEN".'
            )
        if any(ch in value for ch in "\r\n\0"):
            raise UsageError(f"--header {name}: the value must not contain line breaks.")
        headers[name] = value.strip()
    return headers


def parse_env(raw: Sequence[str]) -> dict[str, str]:
    """``--env KEY=VALUE`` (repeatable) as a dict; a later one replaces an earlier one."""
    env: dict[str, str] = {}
    for item in raw:
        name, sep, value = item.partition("=")
        if not sep or not _ENV_NAME.fullmatch(name):
            raise UsageError(
                f"--env {item!r} is not a variable: write it as KEY=VALUE, for example "
                "--env LOG_LEVEL=debug (KEY: letters, digits and _, not starting with a digit)."
            )
        if "\0" in value:
            raise UsageError(f"--env {name}: the value must not contain a NUL character.")
        env[name] = value
    return env


def with_env(specs: Sequence[ServerSpec], env: Mapping[str, str]) -> list[ServerSpec]:
    """``--env``: the variables go to every stdio server of the run, over the config's ``env``.

    A server named after ``--`` already inherits the caller's environment; for a config server
    (which gets only the SDK's safe default unless it sets ``inherit_env``) these are added to its
    own ``env``. HTTP servers have no environment of ours: ``--env`` with none but them is a
    mistake.
    """
    if not env:
        return list(specs)
    if not any(isinstance(s.target, StdioTarget) for s in specs):
        raise UsageError(
            "--env sets environment variables for a stdio server (a command after `--`, or a "
            "config server with `command`); an HTTP server has none of ours."
        )
    from msgspec.structs import replace

    return [
        replace(s, target=replace(s.target, env={**s.target.env, **env}))
        if isinstance(s.target, StdioTarget)
        else s
        for s in specs
    ]


def check_url_argument(url: str, following: Sequence[str] = ()) -> str:
    """An http(s) URL with a host, or a usage error that says what was probably meant.

    ``following`` are the words after it, to spell out the ``--`` form of a command.
    """
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme in ("http", "https"):
        if parts.hostname:
            return url
        raise UsageError(f"The URL {url!r} has no host name.")
    looks_like_address = re.match(r"^[\w.-]+:\d+(/|$)", url) or re.match(
        r"^[\w-]+(\.[\w-]+)+(/|$)", url
    )
    if looks_like_address and "://" not in url:
        raise UsageError(
            f"{url!r} is not a URL. If it is a server address, write the scheme: http://{url}"
        )
    if re.match(r"^[A-Za-z][A-Za-z0-9+.-]*:", url):
        raise UsageError(
            f"The URL {url!r} is refused: mcp-tui connects to http:// and https:// URLs only "
            "(Streamable HTTP, or the legacy SSE transport with --transport sse)."
        )
    words = command_line("mcp-tui", "--", url, *following) + ("" if following else " ...")
    raise UsageError(
        f"{url!r} is not a URL. To start a stdio server, put its command after `--`: {words}"
    )


def command_line_target(
    url: str | None,
    command: list[str] | None,
    *,
    transport: str | None,
    headers: Sequence[str],
) -> StdioTarget | HttpTarget | None:
    """The server given by ``URL`` or ``-- COMMAND``, if any; mixing them is a usage error."""
    if url is not None and command is not None:
        raise UsageError(
            f"Give either a URL or a command after `--`, not both (got {url!r} and "
            f"{' '.join(command)!r})."
        )
    if command is not None:
        if not command:
            raise UsageError("Nothing follows `--`: write the server's command there.")
        if transport or headers:
            raise UsageError("--transport and --header apply to a URL, not to a stdio command.")
        # Named on the command line, like a command run from the shell: it inherits the
        # caller's whole environment (``FOO=1 mcp-tui -- server`` passes FOO on).
        return StdioTarget(command[0], tuple(command[1:]), inherit_env=True)
    if url is not None:
        return HttpTarget(
            check_url_argument(url),
            transport="sse" if transport == "sse" else "streamable-http",
            headers=parse_headers(headers),
        )
    if transport or headers:
        raise UsageError("--transport and --header need a URL to connect to.")
    return None


def check_command_exists(target: StdioTarget, cwd: str | None = None) -> None:
    """Fail early, in one paragraph, when a stdio server's program cannot be found."""
    command = target.command
    if os.sep in command or (os.altsep and os.altsep in command):
        path = Path(cwd or ".") / command
        if not path.exists():
            raise ConnectionFailed(f"Cannot start the server: {command} does not exist.")
        if not os.access(path, os.X_OK) or path.is_dir():
            raise ConnectionFailed(f"Cannot start the server: {command} is not executable.")
        return
    if shutil.which(command) is None:
        raise ConnectionFailed(
            f"Cannot start the server: the command {command!r} was not found on PATH. Check "
            "the spelling, install it, or give its full path."
        )


def with_roots(
    specs: Sequence[ServerSpec], roots: Sequence[str] | None, no_roots: bool = False
) -> list[ServerSpec]:
    """``--root DIR`` (repeatable) replaces every server's roots; each must be a directory.
    ``--no-roots`` replaces them with none."""
    from msgspec.structs import replace

    if no_roots:
        if roots is not None:
            raise UsageError("--no-roots and --root contradict each other: give one of them.")
        return [replace(s, roots=()) for s in specs]
    if roots is None:
        return list(specs)

    from mcp_tui.config.roots import RootError, make_root

    paths: list[str] = []
    for directory in roots:
        try:
            path = make_root(directory).path
        except RootError as error:
            raise UsageError(f"--root: {error}.") from None
        if path not in paths:
            paths.append(path)
    return [replace(s, roots=tuple(paths)) for s in specs]


def with_mode(specs: Sequence[ServerSpec], mode: str | None) -> list[ServerSpec]:
    """``--mode`` overrides every server's mode (the command line beats the config)."""
    if mode is None:
        return list(specs)
    from msgspec.structs import replace

    return [replace(s, mode=mode) for s in specs]


def command_line_spec(
    target: StdioTarget | HttpTarget,
    name: str | None,
    settings: AppSettings,
    taken: Sequence[str],
) -> ServerSpec:
    """The spec of the server named on the command line, with the config's defaults; ``name`` is
    ``--name`` and ``taken`` the config's names, which it may not repeat."""
    if isinstance(target, StdioTarget):
        check_command_exists(target)
    if name is not None and name in taken:
        raise UsageError(f"--name {name!r} is already the name of a server in the config file.")
    derived = derive_name(target) if name is None else name
    return ServerSpec(
        name or unique_name(derived, taken),
        target,
        mode=settings.mode,
        elicitation=settings.elicitation,
        sampling=settings.sampling,
        # A URL's host names its server; a generic derived name waits for the server's own.
        name_is_generic=name is None and isinstance(target, StdioTarget) and is_generic(derived),
    )
