"""Roots: the directories a server may work on, offered to it as ``file://`` URIs.

A server that asks ``roots/list`` (server-filesystem started without directory arguments, for
one) works only on what the client answers. mcp-tui offers, per server, the directories chosen
with ``--root DIR`` (repeatable) or ``roots = [...]`` in the config, and by default the directory
it was started in. The list can change while connected (the roots dialog); on the 2025 eras the
server is then told with ``notifications/roots/list_changed`` and asks again. 2026-07-28 has no
such notification (and no ``roots/list`` request of its own): a server asks for roots inside an
``input_required`` result, so a changed list simply reaches its next request.

Pure data (no ``mcp`` import): the connection turns :class:`Root` into the SDK's ``Root``.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from msgspec import Struct


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


def initial_roots(chosen: Iterable[str] | None) -> tuple[Root, ...]:
    """The roots a connection starts with: ``chosen`` (``None``: the working directory).

    Directories that no longer exist are left out here (the command line and the config check
    them when read, so this only happens when one is removed afterwards).
    """
    if chosen is None:
        return default_roots()
    roots: list[Root] = []
    for directory in chosen:
        try:
            root = make_root(directory)
        except RootError:
            continue
        if all(r.uri != root.uri for r in roots):
            roots.append(root)
    return tuple(roots)
