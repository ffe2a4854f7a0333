"""Roots: the directories a server may work on, offered to it as ``file://`` URIs.

A server that asks ``roots/list`` (server-filesystem, for one) replaces the directories it was
started with by what the client answers. mcp-tui offers, per server, the directories chosen with
``--root DIR`` (repeatable) or ``roots = [...]`` in the config (``--no-roots`` or ``roots = []``:
none). With nothing chosen, the default depends on the server's command line: a stdio server
given existing directories as arguments (``server-filesystem ~/data``) is offered none, so it
keeps working on what it was told; any other server is offered the directory mcp-tui was started
in. Offering the working directory there would silently narrow ``~/data`` to wherever the user
happened to be. The list can change while connected (the roots dialog); on the 2025 eras the
server is then told with ``notifications/roots/list_changed`` and asks again. 2026-07-28 has no
such notification (and no ``roots/list`` request of its own): a server asks for roots inside an
``input_required`` result, so a changed list simply reaches its next request.

Pure data (no ``mcp`` import): the connection turns :class:`Root` into the SDK's ``Root``.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from pathlib import Path

from msgspec import Struct

from mcp_tui.config.servers import ServerSpec, StdioTarget


class Root(Struct, frozen=True):
    """One root: a directory's absolute path, its ``file://`` URI and a short name."""

    path: str
    uri: str
    name: str


class RootError(ValueError):
    """A root that cannot be offered; the message names the directory and why."""


def file_uri(path: str | os.PathLike[str]) -> str:
    """The ``file://`` URI of an absolute path, every byte that needs it percent-encoded
    (spaces, ``#``, ``%``, ``?``, non-ASCII as UTF-8), as RFC 8089 writes it."""
    return Path(path).as_uri()


def make_root(directory: str | os.PathLike[str], *, base: str | None = None) -> Root:
    """A :class:`Root` for ``directory`` (``~`` expanded; relative to ``base`` or the current
    directory); :class:`RootError` if it is not an existing directory."""
    raw = os.fspath(directory)
    if not raw.strip():
        raise RootError("a root must name a directory (it is empty)")
    path = Path(raw).expanduser()
    if not path.is_absolute():
        path = Path(base or os.getcwd()) / path
    try:
        resolved = path.resolve(strict=True)
    except (OSError, RuntimeError):
        raise RootError(f"{str(path)!r} is not an existing directory") from None
    if not resolved.is_dir():
        raise RootError(f"{raw!r} is not a directory")
    return Root(path=str(resolved), uri=file_uri(resolved), name=resolved.name or str(resolved))


def default_roots() -> tuple[Root, ...]:
    """The directory mcp-tui was started in (the default when nothing else is chosen)."""
    try:
        return (make_root(os.getcwd()),)
    except (RootError, OSError):  # the directory was removed under us: offer nothing
        return ()


def command_line_directories(args: Sequence[str], cwd: str | None = None) -> tuple[str, ...]:
    """The existing directories among a stdio server's arguments (``--opt=DIR`` counts; the
    module after ``-m`` does not, as ``python -m pkg`` names a package that may be a folder),
    relative ones taken from the server's ``cwd``, in order, without repeats."""
    found: list[str] = []
    skip = False
    for arg in args:
        if skip:
            skip = False
            continue
        if arg == "-m":
            skip = True
            continue
        value = arg.split("=", 1)[1] if arg.startswith("-") and "=" in arg else arg
        if not value or value.startswith("-"):
            continue
        try:
            path = Path(value).expanduser()
            if not path.is_absolute():
                path = Path(cwd or os.getcwd()) / path
            if path.is_dir():
                resolved = str(path.resolve())
                if resolved not in found:
                    found.append(resolved)
        except (OSError, RuntimeError, ValueError):
            continue
    return tuple(found)


def initial_roots(chosen: Iterable[str] | None, kept: Sequence[str] = ()) -> tuple[Root, ...]:
    """The roots a connection starts with: ``chosen``; with ``None``, none when the server was
    given directories of its own (``kept``, from :func:`command_line_directories`), else the
    working directory.

    Directories that no longer exist are left out here (the command line and the config check
    them when read, so this only happens when one is removed afterwards).
    """
    if chosen is None:
        return () if kept else default_roots()
    roots: list[Root] = []
    for directory in chosen:
        try:
            root = make_root(directory)
        except RootError:
            continue
        if all(r.uri != root.uri for r in roots):
            roots.append(root)
    return tuple(roots)


def kept_directories(spec: ServerSpec) -> tuple[str, ...]:
    """The directories a server keeps because none were chosen for it and its command line
    names some (see the module docstring); empty when roots were chosen or it is not stdio."""
    target = spec.target
    if spec.roots is not None or not isinstance(target, StdioTarget):
        return ()
    return command_line_directories(target.args, target.cwd)


def spec_roots(spec: ServerSpec) -> tuple[Root, ...]:
    """The roots ``spec``'s connection starts with."""
    return initial_roots(spec.roots, kept_directories(spec))


def describe_roots(spec: ServerSpec) -> str:
    """The info panel's words for what ``spec`` is offered before the roots dialog changes it."""
    if spec.roots is not None:
        return ", ".join(spec.roots) or "none"
    kept = kept_directories(spec)
    if kept:
        return "none (it keeps the directories on its command line: " + ", ".join(kept) + ")"
    return "the working directory"
