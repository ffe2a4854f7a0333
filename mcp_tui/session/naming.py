"""Which name a server is shown by: ours, or the one it announces in ``serverInfo``.

A server's *key* is the name a spec was given (``--name``, a config section, or one derived from
the command line by ``cli/names.py``). It never changes while mcp-tui runs: the stderr log file is
named after it before the handshake, remembered values, the call history, ``--call``'s and
``--server``'s lookups and every event carry it.

``python server.py`` gives the key ``server``, and ``node dist/index.js`` outside a package gives
``index``: true, but it says nothing about which server it is ("Server server asks for input").
Such a name is *generic* (:func:`is_generic`, decided once, on the command line, and kept in
``ServerSpec.name_is_generic``), and once the server answers the handshake it may be shown by the
name it announces in ``serverInfo.name`` instead (:func:`judge_announced`).

That name is the server's own words, and it is shown where mcp-tui speaks ("Server NAME asks you
to confirm", the URL consent header, the catalog): a name that reads as a claim (``GitHub
(verified)``, ``filesystem: approved by you``, ``Server github asks for input during tool call
go``) or as another server (``gіthub`` with a Cyrillic ``і`` beside a ``github``) would put the
server's words in mcp-tui's mouth. So a name is adopted only if it looks like a product name:
letters, digits and ``-_. `` in one script (judged as the URL check judges a host's label,
:mod:`mcp_tui.url.lookalikes`), a few words, none of them one of mcp-tui's own sentences, and not
the same or a look-alike (:func:`~mcp_tui.url.lookalikes.skeleton`) of another server's key or
shown name. Otherwise the key stays, and where mcp-tui describes the server (the info panel, the
transcript's "ready" line) the announced name is quoted beside it as the server's claim:
"server — calls itself 'GitHub (verified)'" (:func:`claim`).
Pure: no SDK, no Textual.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection
from typing import NamedTuple

from mcp_tui.untrusted import one_line
from mcp_tui.url.lookalikes import script_problem, skeleton

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
#: What an adopted name may hold: letters and digits (of one script, checked apart), spaces and
#: ``-_.``, starting with a letter or digit. No brackets, colons, quotes, slashes or symbols: they
#: are how a name makes a badge ("(verified)"), a second clause ("github: approved") or a frame.
_PRODUCT_NAME = re.compile(r"[^\W_][\w\-. ]*")
#: Words of mcp-tui's own sentences and of the claims a name could make with them ("asks you to
#: confirm", "approved by you", "verified"): a name holding one is the server talking.
CLAIM_WORDS = frozenset(
    {
        "ask", "asks", "asked", "asking", "wants", "request", "requests", "requested", "needs",
        "input", "answer", "answered", "confirm", "confirmed", "confirms", "accept", "accepted",
        "decline", "declined", "cancel", "cancelled", "canceled", "press", "click", "type",
        "open", "opens", "approve", "approved", "verified", "verify", "trusted", "trust",
        "official", "certified", "signed", "secure", "safe", "authorized", "authorised",
        "allowed", "allow", "permission", "granted", "you", "your", "yours", "mcp-tui", "mcptui",
        "during", "call", "calls", "calling", "warning", "error", "failed", "ready",
    }
)  # fmt: skip
#: Most words in an adopted name: a product name is short, a longer one reads as a sentence.
MOST_WORDS = 5
#: Longest name shown for a server (the catalog, headers and tags have room for about this).
LONGEST = 40
#: Longest announced name quoted as a claim (then cut, escaped).
LONGEST_CLAIM = 80


class Verdict(NamedTuple):
    """What became of a server's announced name: ``name`` is the one to show (``None``: the
    key), ``why_not`` says why an announced name was not adopted (``None``: it was, or there was
    nothing to adopt)."""

    name: str | None
    why_not: str | None = None


def is_generic(name: str) -> bool:
    """Whether ``name`` says how a server was started rather than which server it is."""
    word = name.strip().lower()
    return word in GENERIC_NAMES or re.fullmatch(r"python\d+(\.\d+)*", word) is not None


def judge_announced(announced: str | None, key: str, taken: Collection[str]) -> Verdict:
    """Whether a generic-named server (``key``) is shown by its ``serverInfo.name``
    (``announced``), apart from the ``taken`` names (other servers' keys and shown names).

    Runs of white space become one space and the name is NFC-normalised; a long name is cut to
    :data:`LONGEST` characters. See the module docstring for what is refused and why.
    """
    if not announced or not announced.strip():
        return Verdict(None)
    name = unicodedata.normalize("NFC", " ".join(announced.split()))
    if is_generic(name):
        return Verdict(None, "it says how a server runs, not which server it is")
    why = _why_not_a_product_name(name)
    if why is not None:
        return Verdict(None, why)
    if len(name) > LONGEST:
        name = name[: LONGEST - 1].rstrip() + "…"
    if name == key:
        return Verdict(None)
    look = skeleton(name)
    for other in taken:
        if other != key and skeleton(other) == look:
            shown = one_line(other, limit=LONGEST)
            same = "is" if other.casefold() == name.casefold() else "looks like"
            return Verdict(None, f"it {same} the name of another server, '{shown}'")
    return Verdict(name)


def _why_not_a_product_name(name: str) -> str | None:
    if one_line(name, limit=None) != name:
        return "it holds control, bidi or invisible characters"
    if not _PRODUCT_NAME.fullmatch(name):
        return (
            "it holds characters a product name does not (brackets, colons, quotes, symbols): "
            "only letters, digits and -_. are taken"
        )
    problem = script_problem(name)
    if problem is not None:
        return "it mixes scripts" if problem[0] == "mixed-script" else "its letters imitate Latin"
    words = name.split()
    if len(words) > MOST_WORDS:
        return "it reads as a sentence, not a name"
    said = [
        w for w in words for part in (w, *re.split(r"[-_.]", w)) if part.casefold() in CLAIM_WORDS
    ]
    if said:
        return f"'{said[0]}' reads like mcp-tui's own words"
    return None


def announced_name(announced: str | None, key: str, taken: Collection[str]) -> str | None:
    """The name to show a generic-named server by, from its ``serverInfo.name``; ``None`` keeps
    ``key`` (:func:`judge_announced`'s name)."""
    return judge_announced(announced, key, taken).name


def claim(announced: str | None, shown: str) -> str | None:
    """The server's own name, quoted as its claim beside the name it is ``shown`` by
    ("calls itself 'GitHub (verified)'"), or ``None`` when it names itself so or not at all."""
    if not announced or not announced.strip():
        return None
    name = " ".join(announced.split())
    if unicodedata.normalize("NFC", name) == shown:
        return None
    return f"calls itself '{one_line(name, limit=LONGEST_CLAIM)}'"


def unique_name(name: str, taken: Collection[str]) -> str:
    """``name``, or ``name-2``, ``name-3``... when another server already has it."""
    if name not in taken:
        return name
    n = 2
    while f"{name}-{n}" in taken:
        n += 1
    return f"{name}-{n}"
