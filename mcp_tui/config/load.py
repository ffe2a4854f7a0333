"""mcp-tui's config: our own TOML, and the JSON files other MCP clients already use.

Every file becomes a :class:`LoadedConfig`: the :class:`~mcp_tui.config.servers.ServerSpec` of
each server plus the app-level :class:`AppSettings`. Three shapes are read:

- **our TOML** (``config.example.toml`` documents every key): ``[app]`` settings,
  ``[servers.NAME]`` tables and the others (``[chat]``, ``[check]``, ``[keys]``: ``keys.py``).
  Validated strictly (``extra="forbid"``): a typo in *our* file is reported, with its key path
  and line, instead of being silently ignored.
- ``{"mcpServers": {...}}`` JSON (Claude Desktop, Cursor, Claude Code, Windsurf, Cline), and
- ``{"servers": {...}}`` JSON (VS Code's ``mcp.json``, comments and trailing commas allowed).
  These files belong to other tools and carry keys we do not use (``envFile``, ``inputs``,
  ``autoApprove``...): such keys are skipped with a *note* rather than refused, so the file people
  already have keeps working. Notes are shown to the user, never fatal.

``${VAR}``, ``${VAR:-default}`` and ``${env:VAR}`` are expanded in commands, arguments, env values,
``cwd``, URLs and headers (secrets stay out of the file). Relative ``cwd`` and log paths are
relative to the config file's folder.

Every problem raises :class:`~mcp_tui.errors.ConfigError` with one paragraph that names the file,
the key path and the line. Pure: no ``mcp``, no ``textual``.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, TypeAdapter, ValidationError

from mcp_tui.config.foreign import ConfigFormat, ForeignConfigError, translate_json
from mcp_tui.config.models import (
    AppConfig,
    ChatConfig,
    CheckConfig,
    HttpServerConfig,
    RateLimitConfig,
    ServerCommon,
    StdioServerConfig,
)
from mcp_tui.config.problems import Locator
from mcp_tui.config.servers import (
    ServerSpec,
)
from mcp_tui.config.settings import AppSettings
from mcp_tui.config.specs import build_spec, resolve_path
from mcp_tui.config.text import (
    KeyPath,
    json_key_lines,
    load_jsonc,
    toml_key_lines,
)
from mcp_tui.errors import ConfigError

__all__ = [
    "AppConfig",
    "AppSettings",
    "ConfigFormat",
    "HttpServerConfig",
    "LoadedConfig",
    "RateLimitConfig",
    "StdioServerConfig",
    "load_config",
]

_M = TypeVar("_M", bound=BaseModel)


@dataclass(frozen=True)
class LoadedConfig:
    """One config file, read and checked."""

    path: Path
    format: ConfigFormat
    #: Every usable server in file order, by name, including disabled ones.
    servers: dict[str, ServerSpec]
    #: Names of servers with ``enabled = false`` (JSON: ``"disabled": true``).
    disabled: frozenset[str] = frozenset()
    settings: AppSettings = field(default_factory=AppSettings)
    #: Things we skipped or could not honour (unknown keys in another tool's JSON), never fatal.
    notes: tuple[str, ...] = ()
    #: Disabled servers whose ``${VAR}`` could not be filled in: an error only if selected.
    problems: dict[str, ConfigError] = field(default_factory=dict)
    #: Every server name in file order, usable or not.
    names: tuple[str, ...] = ()

    def default_servers(self) -> list[ServerSpec]:
        """The servers opened when none is named: every enabled one, in file order."""
        return [s for name, s in self.servers.items() if name not in self.disabled]

    def select(self, names: Sequence[str]) -> list[ServerSpec]:
        """The servers named with ``--server``, in that order; unknown names are an error."""
        unknown = [n for n in names if n not in self.servers and n not in self.problems]
        if unknown:
            known = ", ".join(self.names) or "none"
            raise ConfigError(
                f"Config file {self.path} has no server named "
                f"{', '.join(map(repr, unknown))} (the servers in this file: {known})."
            )
        chosen: list[ServerSpec] = []
        for name in names:
            if name in self.problems:
                raise self.problems[name]
            if self.servers[name] not in chosen:
                chosen.append(self.servers[name])
        return chosen


# ---- loading ------------------------------------------------------------------------------------


def load_config(
    path: str | os.PathLike[str], environ: Mapping[str, str] | None = None
) -> LoadedConfig:
    """Read one config file; its shape is chosen by extension (``.json``) or content.

    Raises :class:`ConfigError` for a missing or unreadable file, a syntax error (with line and
    column) or an invalid value (with key path and line).
    """
    file = Path(path)
    env = os.environ if environ is None else environ
    try:
        text = file.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise ConfigError(f"Config file {file} does not exist.") from None
    except IsADirectoryError:
        raise ConfigError(f"Config file {file} is a directory, not a file.") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"Config file {file} is not UTF-8 text ({exc.reason}).") from None
    except OSError as exc:
        raise ConfigError(f"Config file {file} cannot be read: {exc.strerror}.") from None
    if file.suffix.lower() in (".json", ".jsonc") or text.lstrip().startswith(("{", "//", "/*")):
        return _load_json(file, text, env)
    return _load_toml(file, text, env)


def _load_toml(file: Path, text: str, env: Mapping[str, str]) -> LoadedConfig:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"Config file {file} is not valid TOML: {exc}.") from None
    locator = Locator(file, toml_key_lines(text))
    unknown = [k for k in data if k not in ("app", "servers", "chat", "check", "keys")]
    if unknown:
        raise locator.error(
            (unknown[0],),
            "unknown table or key (the file has [app], [chat], [check], [keys] and [servers.NAME])",
        )
    app = _validate(AppConfig, data.get("app", {}), ("app",), locator)
    chat = _validate(ChatConfig, data["chat"], ("chat",), locator) if "chat" in data else None
    check = _validate(CheckConfig, data.get("check", {}), ("check",), locator)
    _known_checks(check, locator)
    keys = _keymap(data.get("keys", {}), locator)
    servers_raw = data.get("servers", {})
    if not isinstance(servers_raw, dict):
        raise locator.error(("servers",), "must be a table of servers: [servers.NAME]")
    servers = _ServerTable(file, env, app, locator)
    for name, entry in servers_raw.items():
        key: KeyPath = ("servers", name)
        if not isinstance(entry, dict):
            raise locator.error(key, "must be a table with `command` or `url`")
        has_command, has_url = "command" in entry, "url" in entry
        if has_command == has_url:
            raise locator.error(
                key, "needs exactly one of `command` (a stdio server) or `url` (an HTTP server)"
            )
        model: type[ServerCommon] = StdioServerConfig if has_command else HttpServerConfig
        servers.add(name, key, _validate(model, entry, key, locator))
    return servers.result("toml", _settings(app, file, chat, check, keys), ())


def _keymap(table: object, locator: Locator) -> dict[str, str]:
    """``[keys]``: binding id -> keys, every id and key checked (``config/keys.py``)."""
    if not isinstance(table, dict):
        raise locator.error(("keys",), 'must be a table of binding ids: "session.refresh" = "f5"')
    if not table:
        return {}
    from mcp_tui.config.keys import keymap_problems

    problem = keymap_problems(table)
    if problem is not None:
        raise locator.error(("keys", problem[0]), problem[1])
    return {str(binding_id): str(keys) for binding_id, keys in table.items()}


def _known_checks(check: CheckConfig, locator: Locator) -> None:
    """``[check] ignore`` must name checks that exist: a typo would silently ignore nothing."""
    if not check.ignore:
        return  # the checks are not imported on the way to the TUI's first frame
    from mcp_tui.check.report import unknown_ids

    unknown = unknown_ids(check.ignore)
    if unknown:
        raise locator.error(
            ("check", "ignore"),
            f"no check has the id {', '.join(unknown)} (the ids are in the docs' `mcp-tui "
            "check` rules, and `mcp-tui check --explain ID` lists them)",
        )


def _settings(
    app: AppConfig,
    file: Path,
    chat: ChatConfig | None = None,
    check: CheckConfig | None = None,
    keys: dict[str, str] | None = None,
) -> AppSettings:
    return AppSettings(
        keymap=keys or {},
        check_ignore=tuple(i.upper() for i in check.ignore) if check is not None else (),
        check_strict=check.strict if check is not None else False,
        chat=chat.settings() if chat is not None else None,
        review_before_send=app.review_before_send,
        traffic_log=resolve_path(app.traffic_log, file) if app.traffic_log else None,
        stderr_log=resolve_path(app.stderr_log, file) if app.stderr_log else None,
        rate_limit_count=app.rate_limit.count,
        rate_limit_seconds=app.rate_limit.seconds,
        connect_timeout=app.connect_timeout,
        arming_delay=app.arming_delay,
        mode=app.mode,
        elicitation=app.elicitation,
        sampling=app.sampling,
    )


def _validate(model: type[_M], data: Any, prefix: KeyPath, locator: Locator) -> _M:
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise locator.from_validation(prefix, exc) from None


def _load_json(file: Path, text: str, env: Mapping[str, str]) -> LoadedConfig:
    data, clean = load_jsonc(text, f"Config file {file}")
    locator = Locator(file, json_key_lines(clean))
    try:
        shape = translate_json(data)
    except ForeignConfigError as exc:
        raise locator.error(exc.key, exc.message) from None
    app = AppConfig()
    servers = _ServerTable(file, env, app, locator)
    for entry in shape.entries:
        try:
            parsed = _ADAPTERS[entry.kind].validate_python(entry.values)
        except ValidationError as exc:
            raise locator.from_validation(entry.key, exc, rename=entry.original_keys) from None
        servers.add(entry.name, entry.key, parsed, rename=entry.original_keys)
    return servers.result(shape.format, _settings(app, file), shape.notes)


class _ServerTable:
    """Collects the servers of one file; defers the ``${VAR}`` errors of disabled servers."""

    def __init__(
        self, file: Path, env: Mapping[str, str], app: AppConfig, locator: Locator
    ) -> None:
        self.file, self.env, self.app, self.locator = file, env, app, locator
        self.servers: dict[str, ServerSpec] = {}
        self.disabled: set[str] = set()
        self.problems: dict[str, ConfigError] = {}
        self.names: list[str] = []

    def add(
        self,
        name: str,
        key: KeyPath,
        parsed: ServerCommon,
        rename: Mapping[str, str] | None = None,
    ) -> None:
        self.names.append(name)
        if not parsed.enabled:
            self.disabled.add(name)
        try:
            self.servers[name] = build_spec(
                name, parsed, self.app, key, self.file, self.env, self.locator, rename
            )
        except ConfigError as exc:
            if parsed.enabled:
                raise
            self.problems[name] = exc

    def result(
        self, fmt: ConfigFormat, settings: AppSettings, notes: tuple[str, ...]
    ) -> LoadedConfig:
        return LoadedConfig(
            path=self.file,
            format=fmt,
            servers=self.servers,
            disabled=frozenset(self.disabled),
            settings=settings,
            notes=notes,
            problems=self.problems,
            names=tuple(self.names),
        )


_ADAPTERS: dict[str, TypeAdapter[Any]] = {
    "stdio": TypeAdapter(StdioServerConfig),
    "http": TypeAdapter(HttpServerConfig),
}
