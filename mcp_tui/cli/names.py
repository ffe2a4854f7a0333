"""A short display name for a server named on the command line, from its package, not its file.

``mcp-tui -- node .../node_modules/@modelcontextprotocol/server-everything/dist/index.js`` should
show as ``server-everything``, not ``index.js``: every npm server's entry point is ``index.js``.
The rules, first match wins:

- a URL: its ``host:port``;
- ``env [OPTIONS] [NAME=VALUE]... COMMAND ...``: the name of what ``env`` runs (``env
  LOG=debug node server.js`` is named as ``node server.js``, in ``env -C DIR``'s directory);
- a package runner (``npx``, ``bunx``, ``pnpx``, ``pnpm dlx``, ``npm exec``, ``yarn dlx``,
  ``uvx``, ``uv tool run``, ``pipx run``): the package as typed, without a version
  (``npx -y @scope/pkg@1.2`` -> ``@scope/pkg``, ``uvx mcp-server-git==0.6`` -> ``mcp-server-git``);
  ``--package``/``-p`` (npm's), ``--from`` (uv's) or ``--spec`` (pipx's) name it when given;
- an interpreter (``python``, ``node``, ``deno``, ``bun``, ``tsx``, ``uv run``, ...) with ``-m
  pkg.sub``: ``pkg.sub``; with inline code (``python -c``, ``node -e``): the interpreter; with a
  script: the script's package — the directory under the last
  ``node_modules`` (scope dropped: ``server-everything``), else, for a JavaScript file, the
  ``name`` in the nearest ``package.json`` above it (also without its scope) — else the script's
  stem (``server.py`` -> ``server``);
- anything else: the program's own name (``mcp-server-fetch``; a path to a script inside a
  package is judged as a script).

Names only label servers (``unique_name`` keeps them apart); ``--name`` chooses one outright. A
derived name that says only how the server starts (``server``, ``main``, ``python``: see
``session/naming.py``) marks the spec ``name_is_generic``: it stays the key, and the server is
shown by the name it announces in ``serverInfo`` once connected.
Reading ``package.json`` is the only I/O, bounded to a few small files above the script.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path, PurePath
from urllib.parse import urlsplit

from mcp_tui.config.servers import HttpTarget, StdioTarget

_NPM_PACKAGE = frozenset({"--package", "-p"})
#: Programs that run a package by its name, with the options whose value names the package.
_RUNNERS = {
    "npx": _NPM_PACKAGE,
    "bunx": _NPM_PACKAGE,
    "pnpx": _NPM_PACKAGE,
    "uvx": frozenset({"--from"}),
}
#: ... and those that do it after a subcommand: program -> (subcommand words, package options).
_RUNNER_SUBCOMMANDS = {
    "pnpm": (("dlx",), _NPM_PACKAGE),
    "npm": (("exec",), _NPM_PACKAGE),
    "yarn": (("dlx",), _NPM_PACKAGE),
    "uv": (("tool", "run"), frozenset({"--from"})),
    "pipx": (("run",), frozenset({"--spec"})),
}
#: Programs that run a script (or ``-m module``).
_INTERPRETERS = {"node", "nodejs", "deno", "bun", "tsx", "ts-node", "uv"}
#: Options of runners and interpreters that take a value (the value is not the package/script).
_VALUE_OPTIONS = {
    "--python", "-p", "--package", "--from", "--with", "--with-editable", "--with-requirements",
    "--directory", "--project", "--env-file", "--index", "--index-url", "--extra-index-url",
    "-r", "--require", "--import", "--loader", "-c", "--config", "--cache-dir", "--registry",
    "--spec", "--node-options", "--inspect-port", "-W", "-X", "-e", "--eval",
}  # fmt: skip
#: Options whose value is code to run (python's ``-c``, node's and bun's ``-e``): no script
#: follows, and the words after the code are its arguments (``python -c CODE --port 3``).
_INLINE_CODE = {"python": frozenset({"-c"}), "node": frozenset({"-e", "--eval"})}
_JS_SUFFIXES = {".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".jsx", ".tsx"}
#: How many directories above a script are searched for ``package.json``.
_PACKAGE_JSON_DEPTH = 6
_PACKAGE_JSON_MAX_BYTES = 1_000_000


def derive_name(target: StdioTarget | HttpTarget) -> str:
    """The display name of a server given on the command line (see the module docstring)."""
    if isinstance(target, HttpTarget):
        return urlsplit(target.url).netloc.rpartition("@")[2] or "server"
    program = _program(target.command)
    args = list(target.args)
    if program == "env":
        command = _env_command(args, target.cwd)
        return derive_name(command) if command is not None else program
    if program in _RUNNER_SUBCOMMANDS:
        words, options = _RUNNER_SUBCOMMANDS[program]
        if args[: len(words)] == list(words):
            return _package(args[len(words) :], options) or program
    if program in _RUNNERS:
        return _package(args, _RUNNERS[program]) or program
    if program in _INTERPRETERS or program.startswith("python") or program == "py":
        if program in ("uv", "deno") and args[:1] == ["run"]:
            args = args[1:]
        family = "python" if program.startswith("python") or program == "py" else "node"
        inline = _INLINE_CODE[family] if program != "deno" else frozenset()
        return _script_or_module(args, target.cwd, inline) or program
    directly = "/" in target.command or "\\" in target.command  # a script run as a program
    if directly and PurePath(target.command).suffix.lower() in {*_JS_SUFFIXES, ".py"}:
        return _script_name(target.command, target.cwd)
    return program or "server"


#: ``env``'s options that take a value (GNU and BSD ``env``).
_ENV_VALUE_OPTIONS = {"-u", "--unset", "-C", "--chdir", "-P", "-S", "--split-string"}


def _env_command(args: Sequence[str], cwd: str | None) -> StdioTarget | None:
    """The command ``env ARGS`` runs (after its options and ``NAME=VALUE`` assignments), with
    the directory ``-C`` moves it to; ``None`` when it runs nothing (``env`` prints variables)."""
    words = list(args)
    while words:
        word = words.pop(0)
        option, eq, value = word.partition("=")
        if word == "--":
            break
        if not word.startswith("-") or word == "-":
            if "=" in word or word == "-":  # NAME=VALUE, or ``-`` (as -i)
                continue
            words.insert(0, word)
            break
        if option.startswith("-S") and not option.startswith("--") and len(option) > 2:
            option, eq, value = "-S", "=", word[2:]  # -S"node server.js"
        if option in _ENV_VALUE_OPTIONS and not eq:
            value = words.pop(0) if words else ""
        if option in ("-S", "--split-string"):
            words[:0] = value.split()  # -S "node server.js": split as env does
        elif option in ("-C", "--chdir"):
            cwd = str(Path(cwd or ".") / value)
    if not words:
        return None
    return StdioTarget(words[0], tuple(words[1:]), cwd=cwd)


def _program(command: str) -> str:
    name = PurePath(command.replace("\\", "/")).name
    for suffix in (".exe", ".cmd", ".bat"):
        if name.lower().endswith(suffix):
            return name[: -len(suffix)]
    return name


def _operands(args: Sequence[str]) -> list[tuple[str | None, str]]:
    """``(option, value)`` for options that take one, ``(None, word)`` for the other words, in
    order; flags are dropped and ``--`` ends the options."""
    found: list[tuple[str | None, str]] = []
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            found += [(None, a) for a in args[i + 1 :]]
            break
        if arg.startswith("-") and len(arg) > 1:
            option, eq, value = arg.partition("=")
            if eq:
                found.append((option, value))
            elif option in _VALUE_OPTIONS and i + 1 < len(args):
                found.append((option, args[i + 1]))
                i += 1
            elif option == "-m" and i + 1 < len(args):
                found.append(("-m", args[i + 1]))
                i += 1
        else:
            found.append((None, arg))
        i += 1
    return found


def _package(args: Sequence[str], options: frozenset[str]) -> str | None:
    """The package a runner runs (named by one of ``options``, else the first word), without its
    version."""
    operands = _operands(args)
    chosen = next((v for o, v in operands if o in options), None)
    if chosen is None:
        chosen = next((v for o, v in operands if o is None), None)
    if not chosen:
        return None
    if chosen.startswith("@"):  # @scope/name@version
        scope, _, rest = chosen.partition("/")
        return f"{scope}/{rest.partition('@')[0]}" if rest else chosen
    # name@version (npm, uvx), name==1.0 / name[extra]>=1 (pip specifiers)
    return re.split(r"[@=<>!~\[; ]", chosen, maxsplit=1)[0] or chosen


def _script_or_module(
    args: Sequence[str], cwd: str | None, inline: frozenset[str] = frozenset()
) -> str | None:
    for option, value in _operands(args):
        if option == "-m":
            return value
        if option in inline:
            return None
        if option is None:
            if value in ("run", "exec", "tool"):
                continue
            return _script_name(value, cwd)
    return None


def _script_name(script: str, cwd: str | None) -> str:
    """The package a script belongs to, else its stem."""
    path = PurePath(script.replace("\\", "/"))
    parts = path.parts
    if "node_modules" in parts:
        below = parts[len(parts) - parts[::-1].index("node_modules") :]
        if below and below[0].startswith("@") and len(below) > 1:
            return below[1]
        if below:
            return below[0]
    if path.suffix.lower() in _JS_SUFFIXES:
        name = _package_json_name(Path(cwd or ".") / Path(*parts) if parts else Path(script))
        if name:
            return name
    return path.stem or path.name or script


def _package_json_name(script: Path) -> str | None:
    """``name`` of the nearest ``package.json`` above ``script``, without its scope."""
    try:
        directory = script.resolve().parent
    except (OSError, RuntimeError):
        return None
    for folder in [directory, *directory.parents][:_PACKAGE_JSON_DEPTH]:
        candidate = folder / "package.json"
        try:
            if not candidate.is_file() or candidate.stat().st_size > _PACKAGE_JSON_MAX_BYTES:
                continue
            data = json.loads(candidate.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        name = data.get("name") if isinstance(data, dict) else None
        if isinstance(name, str) and name.strip():
            return name.strip().rpartition("/")[2] or name.strip()
    return None
