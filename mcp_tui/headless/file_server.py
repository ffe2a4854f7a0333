"""The server a test file names, as a spec the runner can connect to.

Everything that can be wrong with a file's ``[server]`` is found here, before any server starts: a
``${VAR}`` that is not set, a config server that does not exist (the error names the file, line
and key). It sits beside the runner rather than in ``testbench/`` because ``demo = true`` is the
bundled demo server's own command line.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from mcp_tui.config.load import load_config
from mcp_tui.config.paths import locate_config
from mcp_tui.config.servers import HttpTarget, ServerSpec, StdioTarget
from mcp_tui.config.text import TrackedEnviron
from mcp_tui.errors import ConfigError
from mcp_tui.testbench.load import LoadedFile, TestFileError, expand_server
from mcp_tui.testbench.model import ServerDecl
from mcp_tui.testbench.plan import file_stem


def prepare_file(loaded: LoadedFile, environ: Mapping[str, str]) -> tuple[LoadedFile, ServerSpec]:
    """A file ready to run: its answers' ``${VAR}`` filled in, its server's spec, and in its
    ``secrets`` every value those (and the server's ``${VAR}``, in the file or in the config it
    names) took from the environment, for the reports to mask. ``mcp-tui test``, ``check --run``
    and the pytest plugin all start here."""
    from mcp_tui.testbench.answer_vars import expand_answer_variables

    tracked = TrackedEnviron(environ)
    filled = expand_answer_variables(loaded, tracked)
    spec = server_spec(filled, tracked)
    return dataclasses.replace(filled, secrets=frozenset(tracked.taken.values())), spec


def server_spec(loaded: LoadedFile, environ: Mapping[str, str]) -> ServerSpec:
    """The spec of a file's server; :class:`TestFileError` (naming the line) when it cannot be."""
    decl = expand_server(loaded, environ)
    name = file_stem(loaded.path)
    if decl.demo:
        from mcp_tui.demo.server import demo_stdio_command, demo_stdio_env

        argv = list(demo_stdio_command())
        return ServerSpec("demo", StdioTarget(argv[0], tuple(argv[1:]), env=dict(demo_stdio_env())))
    if decl.command is not None:
        folder = loaded.path.resolve().parent
        cwd = (folder / decl.cwd) if decl.cwd is not None else folder
        target = StdioTarget(
            decl.command[0],
            tuple(decl.command[1:]),
            env=dict(decl.env),
            cwd=str(cwd),
            inherit_env=True,
        )
        return ServerSpec(name, target)
    if decl.url is not None:
        return ServerSpec(
            name, HttpTarget(decl.url, transport=decl.transport, headers=dict(decl.headers))
        )
    return _config_server(loaded, decl, environ)


def _config_server(loaded: LoadedFile, decl: ServerDecl, environ: Mapping[str, str]) -> ServerSpec:
    def fail(key: str, message: str) -> TestFileError:
        line = loaded.line_of("server", key)
        at = f", line {line}" if line is not None else ""
        return TestFileError(f"Test file {loaded.path}{at}: server.{key}: {message}")

    try:
        if decl.config is not None:
            config = load_config(loaded.path.resolve().parent / decl.config, environ)
        else:
            # Where the config is (XDG_CONFIG_HOME, ...) is no value of the server's.
            plain = environ.untracked if isinstance(environ, TrackedEnviron) else environ
            location = locate_config(None, plain)
            if not location.path.exists():
                raise fail(
                    "name",
                    f"no config file to find it in (none at {location.path}); "
                    "give its file with `config = ...`",
                )
            config = load_config(location.path, environ)
        return config.select([decl.name or ""])[0]
    except TestFileError:
        raise
    except ConfigError as exc:
        raise fail(
            "config" if decl.config is not None and "does not exist" in str(exc) else "name",
            str(exc),
        ) from None
