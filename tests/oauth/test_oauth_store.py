"""Token files (owner-only, atomic, never shown) and ``mcp-tui auth list|forget``."""

from __future__ import annotations

import io
import os
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from mcp_tui.cli.main import main
from mcp_tui.session.oauth.store import (
    TokenFile,
    canonical_url,
    default_directory,
    ensure_private_directory,
    forget,
    record_name,
    stored,
)

REPO = Path(__file__).resolve().parents[2]
SECRET = "at-very-secret-access-token"


@pytest.fixture
def loose_umask() -> Iterator[None]:
    old = os.umask(0)
    try:
        yield
    finally:
        os.umask(old)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def save(url: str, **fields: object) -> TokenFile:
    file = TokenFile(url)
    file.update(**fields)
    return file


def test_modes_are_owner_only_whatever_the_umask(loose_umask: None) -> None:
    file = save("https://a.example/mcp", tokens={"access_token": SECRET})
    assert mode(file.directory) == 0o700
    assert mode(file.path) == 0o600
    file.update(expires_at=5.0)  # a rewrite is a new file: still 0600
    assert mode(file.path) == 0o600
    assert list(file.directory.iterdir()) == [file.path]  # no temporary file left behind


def test_an_existing_loose_directory_is_tightened(tmp_path: Path) -> None:
    folder = tmp_path / "loose"
    folder.mkdir(mode=0o755)
    os.chmod(folder, 0o755)
    ensure_private_directory(folder)
    assert mode(folder) == 0o700


def test_canonical_urls_share_one_record() -> None:
    assert canonical_url("HTTPS://Host.Example:443/mcp/#x") == "https://host.example/mcp"
    assert canonical_url("http://h:8080/mcp?tenant=1") == "http://h:8080/mcp?tenant=1"
    assert record_name("https://host.example/mcp") == record_name("HTTPS://HOST.example/mcp/")
    assert record_name("https://host.example/mcp") != record_name("https://host.example/other")
    assert record_name("https://host.example/mcp").startswith("host.example-")
    assert "/" not in record_name("https://[::1]:9/../../etc")


def test_unreadable_or_foreign_records_count_as_absent() -> None:
    file = save("https://a.example/mcp", tokens={"access_token": SECRET})
    file.path.write_text("{not json", encoding="utf-8")
    assert file.load() == {}
    file.path.write_text('{"server_url": "https://other.example/mcp"}', encoding="utf-8")
    assert file.load() == {}  # a record for another server is never used


def test_forget_and_list_never_show_tokens() -> None:
    save(
        "https://a.example/mcp",
        tokens={"access_token": SECRET, "refresh_token": "rt-secret", "scope": "read"},
        expires_at=1.0,
        client_info={"client_id": "client-123", "client_secret": "cs-secret"},
    )
    [entry] = stored()
    assert entry.server_url == "https://a.example/mcp"
    assert entry.has_access_token and entry.has_refresh_token and entry.client_id == "client-123"
    out = io.StringIO()
    from mcp_tui.cli.auth import run_auth

    assert run_auth(["list"], {}, out) == 0
    text = out.getvalue()
    assert "https://a.example/mcp" in text and "client-123" in text and "expired" in text
    for secret in (SECRET, "rt-secret", "cs-secret"):
        assert secret not in text
    assert forget("https://A.example/mcp/") is True
    assert stored() == []
    assert forget("https://a.example/mcp") is False


def test_cli_forget_by_url_and_by_config_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    save("https://a.example/mcp", tokens={"access_token": SECRET})
    save("https://b.example/mcp", tokens={"access_token": SECRET})
    config = tmp_path / "config.toml"
    config.write_text('[servers.bee]\nurl = "https://b.example/mcp"\n', encoding="utf-8")

    assert main(["auth", "forget", "https://a.example/mcp"]) == 0
    assert "Forgot the sign-in for https://a.example/mcp" in capsys.readouterr().out
    assert main(["auth", "forget", "https://a.example/mcp"]) == 1
    assert "Nothing was stored" in capsys.readouterr().out
    assert main(["auth", "forget", "--config", str(config), "bee"]) == 0
    assert stored() == []
    assert main(["auth", "forget", "--config", str(config), "nobody"]) == 2
    assert "No server named 'nobody'" in capsys.readouterr().err


def test_cli_forget_all_and_empty_list(capsys: pytest.CaptureFixture[str]) -> None:
    save("https://a.example/mcp", tokens={"access_token": SECRET})
    save("https://b.example/mcp", tokens={"access_token": SECRET})
    assert main(["auth", "forget", "--all"]) == 0
    assert "Forgot 2 stored sign-in(s)." in capsys.readouterr().out
    assert main(["auth", "list"]) == 0
    assert f"No stored sign-ins (in {default_directory()})" in capsys.readouterr().out


def test_auth_command_runs_as_a_program(tmp_path: Path, private_data_dir: Path) -> None:
    """The real entry point, as a user types it (and fast: no ``mcp`` import)."""
    save("https://a.example/mcp", tokens={"access_token": SECRET})
    env = {**os.environ, "XDG_DATA_HOME": str(private_data_dir)}
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "mcp_tui", "auth", "list"],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "https://a.example/mcp" in done.stdout and SECRET not in done.stdout
    imported = {line.split("|")[-1].strip() for line in done.stderr.splitlines()}
    assert "mcp" not in imported and "mcp_types" not in imported
