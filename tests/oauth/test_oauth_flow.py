"""OAuth end to end against the SDK's own authorization and resource server (in-process, 127.0.0.1).

Each test runs a real ``ServerConnection`` against ``fixtures/oauth_server.py``: discovery and
dynamic registration by the SDK's client, the authorization URL through the consent seam (a
:class:`ConsentingUser` standing in for the person at the screen), the real browser opener with
``BROWSER`` pointed at ``follow_browser.py``, the redirect onto the loopback listener, the token
exchange, the token file. What the server saw (``provider.events``) and what the "browser" did
(``FakeBrowser.visits``) are checked from their side.
"""

from __future__ import annotations

import json
import stat
from pathlib import Path

import httpx2
import pytest

from mcp_tui.config.servers import HttpTarget, ServerSpec
from mcp_tui.session.elicitation import ElicitationOutcome, ElicitationRequest
from mcp_tui.session.events import ConnectionState
from mcp_tui.session.oauth.authorization import AuthorizationOutcome, AuthorizationRequest
from mcp_tui.session.oauth.provider import build_auth
from mcp_tui.session.oauth.store import TokenFile, default_directory
from tests.oauth.oauth_testkit import (
    ConsentingUser,
    FakeBrowser,
    Recorder,
    load_fixture,
    running,
    use_fake_browser,
)

pytestmark = pytest.mark.anyio

fx = load_fixture("oauth_server")


def spec_for(url: str, **target: object) -> ServerSpec:
    return ServerSpec("fixture", HttpTarget(url, **target), mode="legacy")  # type: ignore[arg-type]


async def connect(spec: ServerSpec, user: object, recorder: Recorder | None = None):  # type: ignore[no-untyped-def]
    from mcp_tui.session.connection import ServerConnection

    return ServerConnection(
        spec,
        handler=_NoForms(),
        sink=recorder if recorder is not None else Recorder(),
        authorization=user,  # type: ignore[arg-type]
    )


class _NoForms:
    async def elicit(self, request: ElicitationRequest) -> ElicitationOutcome:
        return ElicitationOutcome.cancel("the fixture never elicits")


def stored_record(url: str) -> dict[str, object]:
    return TokenFile(url).load()


async def sign_in(url: str, browser: FakeBrowser) -> tuple[ConsentingUser, Recorder]:
    user, recorder = ConsentingUser(), Recorder()
    conn = await connect(spec_for(url), user, recorder)
    async with running(conn):
        assert await conn.wait_ready(30), conn.detail
        outcome = await conn.call_tool("whoami", {})
        assert outcome.error is None, outcome.error
    return user, recorder


async def test_discovery_registration_browser_and_token(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    browser = use_fake_browser(monkeypatch, tmp_path)
    async with fx.oauth_server() as server:
        user, recorder = await sign_in(server.url, browser)

        # The server's side: one registration, one authorization, one code exchange.
        assert server.provider.events == ["register", "authorize", "token:authorization_code"]
        [request] = user.requests
        assert request.server == "fixture" and request.server_url == server.url
        assert request.url.startswith(f"{server.base_url}/authorize?")
        assert request.scopes == ("mcp:read",)
        assert request.authorization_server == server.base_url
        # The consent screen's request is a URL-mode elicitation request with our own message.
        elicitation = ElicitationRequest.for_sign_in(request)
        assert elicitation.mode == "url" and elicitation.url == request.url
        assert request.redirect.redirect_uri in elicitation.message
        # The redirect URI: our listener on loopback, a random port, the one registered.
        [redirect_uri] = server.provider.redirect_uris
        assert redirect_uri == request.redirect.redirect_uri
        assert redirect_uri.startswith("http://127.0.0.1:") and redirect_uri.endswith("/callback")
        [client] = server.provider.clients.values()
        assert [str(u) for u in client.redirect_uris or []] == [redirect_uri]
        # The browser: the authorize URL (302), then our listener (200).
        visits = browser.visits()
        assert (
            visits[0].startswith("GET " + f"{server.base_url}/authorize?") and "-> 302" in visits[0]
        )
        assert visits[1].startswith(f"GET {redirect_uri}?code=") and visits[1].endswith("-> 200")

        # The listener is closed right after: nothing answers on its port any more.
        with pytest.raises(httpx2.ConnectError):
            httpx2.get(redirect_uri)

        # Tokens on disk, never in events.
        record = stored_record(server.url)
        tokens = record["tokens"]
        assert isinstance(tokens, dict)
        [access] = server.provider.access
        assert tokens["access_token"] == access
        assert all(access not in text for text in recorder.texts())
        assert "signed in; token stored" in recorder.texts()


async def test_token_files_are_owner_only(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    browser = use_fake_browser(monkeypatch, tmp_path)
    async with fx.oauth_server() as server:
        await sign_in(server.url, browser)
    directory = default_directory()
    assert directory.is_relative_to(tmp_path)
    assert stat.S_IMODE(directory.stat().st_mode) == 0o700
    files = list(directory.iterdir())
    assert len(files) == 1 and files[0] == TokenFile(server.url).path
    assert stat.S_IMODE(files[0].stat().st_mode) == 0o600
    assert json.loads(files[0].read_text())["server_url"] == server.url


async def test_stored_token_is_reused_without_asking(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    browser = use_fake_browser(monkeypatch, tmp_path)
    async with fx.oauth_server() as server:
        await sign_in(server.url, browser)
        events_before = list(server.provider.events)
        # A second run: the same token, no consent, no browser; also headless (no handler).
        for user in (ConsentingUser(decision="decline"), None):
            conn = await connect(spec_for(server.url), user)
            async with running(conn):
                assert await conn.wait_ready(30), conn.detail
                assert (await conn.call_tool("whoami", {})).error is None
            if user is not None:
                assert user.requests == []
        assert server.provider.events == events_before


async def test_expired_token_is_refreshed(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    browser = use_fake_browser(monkeypatch, tmp_path)
    async with fx.oauth_server() as server:
        await sign_in(server.url, browser)
        old = stored_record(server.url)["tokens"]
        # The access token expires: on the server, and in the record (as time passing would).
        server.provider.expire_access_tokens()
        TokenFile(server.url).update(expires_at=1.0)
        user, recorder = ConsentingUser(decision="decline"), Recorder()
        conn = await connect(spec_for(server.url), user, recorder)
        async with running(conn):
            assert await conn.wait_ready(30), conn.detail
            assert (await conn.call_tool("whoami", {})).error is None
        assert user.requests == []  # refreshed, not asked again
        assert server.provider.events[-1] == "token:refresh_token"
        assert server.provider.events.count("authorize") == 1
        new = stored_record(server.url)["tokens"]
        assert isinstance(new, dict) and isinstance(old, dict)
        assert new["access_token"] != old["access_token"]
        assert new["access_token"] in server.provider.access
        assert "access token refreshed and stored" in recorder.texts()


async def test_refused_consent_opens_nothing(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    browser = use_fake_browser(monkeypatch, tmp_path)
    async with fx.oauth_server() as server:
        user = ConsentingUser(decision="decline")
        conn = await connect(spec_for(server.url), user)
        async with running(conn):
            assert not await conn.wait_ready(30)
        assert conn.state is ConnectionState.FAILED
        assert "declined" in (conn.detail or "")
        assert len(user.requests) == 1
        assert browser.visits() == []  # the URL was never opened
        assert "authorize" not in server.provider.events
        assert "tokens" not in stored_record(server.url)


async def test_wrong_state_is_refused(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    browser = use_fake_browser(monkeypatch, tmp_path, tamper_state=True)
    async with fx.oauth_server() as server:
        user = ConsentingUser()
        conn = await connect(spec_for(server.url), user)
        async with running(conn):
            assert not await conn.wait_ready(30)
        assert conn.state is ConnectionState.FAILED
        assert "cancelled" in (conn.detail or "")
        assert len(user.refusals) == 1 and "state" in user.refusals[0]
        # The forged redirect reached the listener and got a 400; no code was exchanged.
        callback = [v for v in browser.visits() if "/callback?" in v]
        assert len(callback) == 1 and "state=forged-state" in callback[0]
        assert callback[0].endswith("-> 400")
        assert "token:authorization_code" not in server.provider.events
        assert "tokens" not in stored_record(server.url)


async def test_authorization_server_refusal(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    use_fake_browser(monkeypatch, tmp_path)
    async with fx.oauth_server(deny=True) as server:
        conn = await connect(spec_for(server.url), ConsentingUser())
        async with running(conn):
            assert not await conn.wait_ready(30)
        assert "access_denied" in (conn.detail or "")
        assert "the user said no" in (conn.detail or "")


class PastingUser(ConsentingUser):
    """Opens nothing: fetches the authorization URL itself (as a browser on another machine
    would) and pastes the address it was sent back to, after two wrong pastes."""

    async def authorize(self, request: AuthorizationRequest) -> AuthorizationOutcome:
        self.requests.append(request)
        redirect = request.redirect
        self.paste_errors.append(redirect.paste("https://example.com/callback?code=x&state=y"))
        async with httpx2.AsyncClient() as http:
            response = await http.get(request.url, follow_redirects=False)
        location = response.headers["location"]
        tampered = location.replace("state=", "state=x")
        self.paste_errors.append(redirect.paste(tampered))
        self.paste_errors.append(redirect.paste(f"  {location}\n"))
        await redirect.wait()
        return AuthorizationOutcome("accept")


async def test_pasted_redirect(tmp_path: Path) -> None:
    async with fx.oauth_server() as server:
        user = PastingUser()
        conn = await connect(spec_for(server.url), user)
        async with running(conn):
            assert await conn.wait_ready(30), conn.detail
        wrong_place, wrong_state, taken = user.paste_errors
        assert wrong_place is not None and "not the address" in wrong_place
        assert wrong_state is not None and "state" in wrong_state
        assert taken is None
        assert server.provider.events[-1] == "token:authorization_code"


async def test_headless_fails_clearly_without_a_person(tmp_path: Path) -> None:
    async with fx.oauth_server() as server:
        conn = await connect(spec_for(server.url), None)
        async with running(conn):
            assert not await conn.wait_ready(30)
        detail = conn.detail or ""
        assert "requires you to sign in" in detail and "mcp-tui call" in detail
        assert "authorize" not in server.provider.events


async def test_static_authorization_header_wins(tmp_path: Path) -> None:
    async with fx.oauth_server() as server:
        spec = spec_for(server.url, headers={"Authorization": "Bearer not-a-token"})
        assert build_auth(spec, ConsentingUser()) is None
        user = ConsentingUser()
        conn = await connect(spec, user)
        async with running(conn):
            assert not await conn.wait_ready(30)
        assert conn.state is ConnectionState.FAILED  # the server refused the static token
        assert user.requests == [] and server.provider.events == []


async def test_oauth_can_be_switched_off() -> None:
    from mcp_tui.config.oauth_settings import OAuthSettings

    spec = spec_for("http://127.0.0.1:9/mcp", oauth=OAuthSettings(enabled=False))
    assert build_auth(spec, ConsentingUser()) is None
