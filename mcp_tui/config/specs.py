"""One validated server entry of a config file -> a :class:`~mcp_tui.config.servers.ServerSpec`.

The step after validation: ``${VAR}``s expanded (an unset one is reported at its own key and
line), relative paths made relative to the config file's folder, roots checked, and the
``[app]`` defaults (mode, elicitation, sampling) filled in where the server sets none. The same
for our TOML and for the JSON of other clients (``rename`` maps our key names back to theirs).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from mcp_tui.config.models import (
    AppConfig,
    HttpServerConfig,
    ServerCommon,
    StdioServerConfig,
    check_url,
)
from mcp_tui.config.paths import expand_user_path
from mcp_tui.config.problems import Locator
from mcp_tui.config.servers import HttpTarget, ServerSpec, StdioTarget
from mcp_tui.config.text import ExpansionError, KeyPath, TrackedEnviron, expand_variables


def resolve_path(raw: str, file: Path) -> Path:
    """``~`` expanded; a relative path is relative to the config file's folder."""
    path = expand_user_path(raw)
    return path if path.is_absolute() else file.resolve().parent / path


def build_spec(
    name: str,
    parsed: ServerCommon,
    app: AppConfig,
    key: KeyPath,
    file: Path,
    env: Mapping[str, str],
    locator: Locator,
    rename: Mapping[str, str] | None = None,
) -> ServerSpec:
    """A :class:`ServerSpec` from one validated entry, with ``${VAR}``s filled in (and the
    values they took from the environment kept: ``ServerSpec.from_environment``)."""
    names = rename or {}
    tracked = TrackedEnviron(env)

    def expand(value: str, *sub: str | int) -> str:
        try:
            return expand_variables(value, tracked, config_path=file)
        except ExpansionError as exc:
            first = sub[0] if sub else ""
            renamed = (names.get(first, first), *sub[1:]) if isinstance(first, str) else sub
            raise locator.error((*key, *renamed), f"{exc}.") from None

    target: StdioTarget | HttpTarget
    if isinstance(parsed, StdioServerConfig):
        cwd = expand(parsed.cwd, "cwd") if parsed.cwd is not None else None
        target = StdioTarget(
            command=expand(parsed.command, "command"),
            args=tuple(expand(a, "args", i) for i, a in enumerate(parsed.args)),
            env={k: expand(v, "env", k) for k, v in parsed.env.items()},
            cwd=str(resolve_path(cwd, file)) if cwd else None,
            inherit_env=parsed.inherit_env,
        )
    elif isinstance(parsed, HttpServerConfig):
        url = expand(parsed.url, "url")
        try:
            url = check_url(url)
        except ValueError as exc:
            raise locator.error((*key, names.get("url", "url")), f"{exc}.") from None
        target = HttpTarget(
            url=url,
            transport=parsed.transport,
            headers={k: expand(v, "headers", k) for k, v in parsed.headers.items()},
            oauth=parsed.oauth.settings() if parsed.oauth is not None else None,
        )
    else:  # pragma: no cover - the two models above are the only ones
        raise TypeError(type(parsed).__name__)
    roots: tuple[str, ...] | None = None
    if parsed.roots is not None:
        from mcp_tui.config.roots import RootError, make_root

        found: list[str] = []
        for index, raw in enumerate(parsed.roots):
            try:
                path = make_root(resolve_path(expand(raw, "roots", index), file)).path
            except RootError as exc:
                raise locator.error((*key, "roots", index), f"{exc}.") from None
            if path not in found:
                found.append(path)
        roots = tuple(found)
    return ServerSpec(
        name=name,
        target=target,
        mode=parsed.mode or app.mode,
        elicitation=parsed.elicitation or app.elicitation,
        sampling=parsed.sampling or app.sampling,
        roots=roots,
        from_environment=tuple(dict.fromkeys(tracked.taken.values())),
    )
