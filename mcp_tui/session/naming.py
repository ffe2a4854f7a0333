"""Which name a server is shown by: ours, or the one it announces in ``serverInfo``.

A server's *key* is the name a spec was given (``--name``, a config section, or one derived from
the command line by ``cli/names.py``). It never changes while mcp-tui runs: the stderr log file is
named after it before the handshake, remembered values, the call history, ``--call``'s and
``--server``'s lookups and every event carry it.

``python server.py`` gives the key ``server``, and ``node dist/index.js`` outside a package gives
``index``: true, but it says nothing about which server it is ("Server server asks for input").
Such a name is *generic* (:func:`is_generic`, decided once, on the command line, and kept in
``ServerSpec.name_is_generic``), and once the server answers the handshake it is shown by the name
it announces in ``serverInfo.name`` instead (:func:`announced_name`): server text, so only when it
reads as one plain line, cut to a label's length, and never the same as another server's name.
Pure: no SDK, no Textual.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from mcp_tui.untrusted import one_line

#: Names that say how a server was started, not which server it is: entry points' file stems
#: (``server.py``, ``main.ts``, ``index.js``, ``__main__.py``), interpreters and launchers run
#: with inline code or an image (``python -c``, ``docker run ...``), and frameworks' default
#: ``serverInfo`` names (so a server that announces one keeps ours).
GENERIC_NAMES = frozenset(
    {
        "server", "main", "index", "app", "__main__", "__init__", "run", "cli", "start", "serve",
        "stdio", "mcp", "mcp_server", "mcp-server", "mcpserver", "src", "dist", "build", "bin",
        "python", "python3", "py", "pypy", "pypy3", "node", "nodejs", "deno", "bun", "tsx",
        "ts-node", "uv", "uvx", "npx", "bunx", "pnpx", "npm", "pnpm", "yarn", "pipx", "docker",
        "podman", "sh", "bash", "zsh", "env", "fastmcp", "mcp server",
    }
)  # fmt: skip
#: What an adopted name may hold: letters and digits of any script, spaces, and the punctuation
#: of package and product names.
_PLAIN = re.compile(r"[\w .,:;@/+&'()-]+")
#: Longest name shown for a server (the catalog, headers and tags have room for about this).
LONGEST = 40


def is_generic(name: str) -> bool:
    """Whether ``name`` says how a server was started rather than which server it is."""
    word = name.strip().lower()
    return word in GENERIC_NAMES or re.fullmatch(r"python\d+(\.\d+)*", word) is not None


def announced_name(announced: str | None, key: str, taken: Collection[str]) -> str | None:
    """The name to show a generic-named server by, from its ``serverInfo.name``; ``None`` keeps
    ``key``.

    Not adopted: an empty or generic name, one that would need escapes to be shown (control,
    bidi or invisible characters: such a name reads worse than ``server``), or one with symbols
    beyond a product name's punctuation (it is shown where mcp-tui speaks: "Server NAME asks for
    input", so it may not draw a check mark or a frame there). Runs of white space
    become one space, a long name is cut to :data:`LONGEST` characters, and a name already
    ``taken`` by another server (its key or its shown name) gets ``-2``, ``-3``...
    """
    if not announced:
        return None
    name = " ".join(announced.split())
    if not name or is_generic(name) or one_line(name, limit=None) != name:
        return None
    if not _PLAIN.fullmatch(name):  # no symbols to draw a badge or a frame ("✓ verified")
        return None
    if len(name) > LONGEST:
        name = name[: LONGEST - 1].rstrip() + "…"
    if name == key:
        return None
    return unique_name(name, [t for t in taken if t != key])


def unique_name(name: str, taken: Collection[str]) -> str:
    """``name``, or ``name-2``, ``name-3``... when another server already has it."""
    if name not in taken:
        return name
    n = 2
    while f"{name}-{n}" in taken:
        n += 1
    return f"{name}-{n}"
