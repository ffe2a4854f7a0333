"""Tokens and client registrations on disk: one owner-only file per server, never shown.

Layout: ``<data dir>/oauth/`` (mode 0700) holds one JSON file per server URL (mode 0600), named
after the host plus a hash of the canonical URL, so two servers on one host never share tokens
and the name alone reveals nothing secret. A file holds the server URL, the SDK's token record
(access token, refresh token, scope), when the access token expires (an absolute time: the SDK
only keeps a relative ``expires_in``, which means nothing after a restart), and the client
registration (dynamic registrations only; configured credentials stay in the config).

Writes are atomic (a new 0600 file renamed over the old one) so a crash never leaves half a token.
A file that cannot be read or parsed counts as absent: the user signs in again rather than
seeing a crash. Nothing in this module prints or logs a token; :class:`StoredAuth` (what
``mcp-tui auth list`` shows) carries no secret.

Pure: no ``mcp``; the SDK adapter is ``oauth.provider.FileTokenStorage``.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

OAUTH_DIR_NAME = "oauth"
DIR_MODE = 0o700
FILE_MODE = 0o600
#: Bigger than any real token record; a bigger file is not ours (or is hostile) and is ignored.
MAX_RECORD_BYTES = 1 << 20


def default_directory() -> Path:
    """``<platform data dir>/oauth``."""
    from mcp_tui.config.paths import data_dir

    return data_dir() / OAUTH_DIR_NAME


def canonical_url(url: str) -> str:
    """The server URL tokens are bound to: scheme and host lower-cased, default port, fragment and
    a trailing slash dropped (``HTTP://Host:443/mcp/`` and ``https://host/mcp`` are one server)."""
    parts = urlsplit(url.strip())
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").lower()
    if ":" in host:
        host = f"[{host}]"
    try:
        port = parts.port
    except ValueError:
        port = None
    default = {"http": 80, "https": 443}.get(scheme)
    netloc = host if port is None or port == default else f"{host}:{port}"
    path = parts.path.rstrip("/")
    return urlunsplit((scheme, netloc, path, parts.query, ""))


def record_name(url: str) -> str:
    """``<host>-<16 hex digits>.json``: readable, unique per canonical URL, safe as a file name."""
    canonical = canonical_url(url)
    host = urlsplit(canonical).hostname or "server"
    slug = re.sub(r"[^a-z0-9.-]+", "_", host)[:40].strip("._-") or "server"
    digest = hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:16]
    return f"{slug}-{digest}.json"


def ensure_private_directory(directory: Path) -> Path:
    """Create ``directory`` (and parents) and make it 0700, whatever the umask or earlier mode."""
    directory.mkdir(parents=True, exist_ok=True, mode=DIR_MODE)
    if os.name == "posix":
        os.chmod(directory, DIR_MODE)
    return directory


def _write_private(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically as an owner-only (0600) file."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{time.monotonic_ns()}.tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
    try:
        if os.name == "posix":
            os.fchmod(fd, FILE_MODE)  # exactly 0600 whatever the umask
        with os.fdopen(fd, "wb") as out:
            fd = -1
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        if fd >= 0:
            os.close(fd)
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise


class TokenFile:
    """The record of one server's sign-in. Every method is synchronous and quick (small files)."""

    def __init__(self, server_url: str, directory: Path | None = None) -> None:
        self.server_url = server_url
        self.directory = directory if directory is not None else default_directory()
        self.path = self.directory / record_name(server_url)

    def load(self) -> dict[str, Any]:
        """The record, or ``{}`` when there is none or it cannot be read (never raises)."""
        try:
            with self.path.open("rb") as handle:
                raw = handle.read(MAX_RECORD_BYTES + 1)
        except OSError:
            return {}
        if len(raw) > MAX_RECORD_BYTES:
            return {}
        try:
            record = json.loads(raw)
        except ValueError:
            return {}
        if not isinstance(record, dict) or record.get("server_url") != canonical_url(
            self.server_url
        ):
            return {}
        return record

    def update(self, **fields: Any) -> None:
        """Set ``fields`` (a ``None`` value removes the key) and save."""
        record = self.load()
        for key, value in fields.items():
            if value is None:
                record.pop(key, None)
            else:
                record[key] = value
        record["server_url"] = canonical_url(self.server_url)
        record["saved_at"] = time.time()
        ensure_private_directory(self.directory)
        _write_private(self.path, json.dumps(record, indent=1, sort_keys=True).encode("utf-8"))

    def delete(self) -> bool:
        """Remove the record; ``True`` if there was one."""
        try:
            self.path.unlink()
        except FileNotFoundError:
            return False
        return True


@dataclass(frozen=True)
class StoredAuth:
    """What is stored for one server, without any secret (for ``mcp-tui auth list``)."""

    server_url: str
    path: Path
    has_access_token: bool
    has_refresh_token: bool
    #: When the access token expires (seconds since the epoch); ``None`` if unknown.
    expires_at: float | None
    #: The dynamically registered client ID (not a secret), if any.
    client_id: str | None
    scope: str | None


def _summary(path: Path, record: dict[str, Any]) -> StoredAuth | None:
    url = record.get("server_url")
    if not isinstance(url, str):
        return None
    tokens = record.get("tokens") if isinstance(record.get("tokens"), dict) else {}
    client = record.get("client_info") if isinstance(record.get("client_info"), dict) else {}
    assert isinstance(tokens, dict) and isinstance(client, dict)
    expires = record.get("expires_at")
    scope = tokens.get("scope")
    client_id = client.get("client_id")
    return StoredAuth(
        server_url=url,
        path=path,
        has_access_token=bool(tokens.get("access_token")),
        has_refresh_token=bool(tokens.get("refresh_token")),
        expires_at=float(expires) if isinstance(expires, int | float) else None,
        client_id=client_id if isinstance(client_id, str) else None,
        scope=scope if isinstance(scope, str) else None,
    )


def stored(directory: Path | None = None) -> list[StoredAuth]:
    """Every server with a stored sign-in, sorted by URL."""
    folder = directory if directory is not None else default_directory()
    found: list[StoredAuth] = []
    try:
        paths = sorted(folder.glob("*.json"))
    except OSError:
        return []
    for path in paths:
        try:
            record = json.loads(path.read_bytes()[:MAX_RECORD_BYTES])
        except (OSError, ValueError):
            continue
        if isinstance(record, dict) and (summary := _summary(path, record)) is not None:
            found.append(summary)
    return sorted(found, key=lambda s: s.server_url)


def forget(server_url: str, directory: Path | None = None) -> bool:
    """Delete the stored tokens and registration for ``server_url``; ``True`` if any existed."""
    return TokenFile(server_url, directory).delete()
