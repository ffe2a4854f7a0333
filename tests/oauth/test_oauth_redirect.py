"""The one-shot loopback listener: what it refuses, and that it closes once the redirect came."""

from __future__ import annotations

import anyio
import httpx2
import pytest

from mcp_tui.session.oauth.redirect import open_redirect_listener

pytestmark = pytest.mark.anyio


async def get(url: str, **headers: str) -> httpx2.Response:
    async with httpx2.AsyncClient() as http:
        return await http.get(url, headers=headers)


async def test_refusals_keep_the_listener_waiting() -> None:
    async with open_redirect_listener() as listener:
        listener.arm("expected")
        base = listener.redirect_uri
        assert base.startswith("http://127.0.0.1:") and base.endswith("/callback")
        seen: list[str] = []
        listener.on_refused(seen.append)

        assert (await get(base.replace("/callback", "/favicon.ico"))).status_code == 404
        assert (await get(f"{base}?code=c&state=wrong")).status_code == 400
        assert (await get(f"{base}?code=c")).status_code == 400
        assert (await get(f"{base}?code=c&state=expected&state=expected")).status_code == 400
        assert (await get(f"{base}?state=expected")).status_code == 400
        rebinding = await get(f"{base}?code=c&state=expected", Host="evil.example")
        assert rebinding.status_code == 400
        assert listener.result is None
        assert len(seen) == 5 and "state" in seen[0] and "evil.example" in seen[-1]
        assert listener.refused == tuple(seen)

        ok = await get(f"{base}?code=the-code&state=expected&iss=https%3A%2F%2Fas.example")
        assert ok.status_code == 200 and "close this tab" in ok.text
        result = await listener.wait()
        assert (result.code, result.state, result.iss, result.via) == (
            "the-code",
            "expected",
            "https://as.example",
            "listener",
        )
        # One shot: the socket is closed right after.
        await anyio.sleep(0.05)
        with pytest.raises(httpx2.ConnectError):
            await get(base)
        assert listener.paste(f"{base}?code=x&state=expected") is not None


async def test_error_redirect_is_delivered() -> None:
    async with open_redirect_listener() as listener:
        listener.arm("s")
        reply = await get(f"{listener.redirect_uri}?error=access_denied&state=s")
        assert reply.status_code == 200 and "access_denied" in reply.text
        result = await listener.wait()
        assert result.error == "access_denied" and result.code is None


async def test_paste_checks_address_and_state() -> None:
    async with open_redirect_listener() as listener:
        listener.arm("s")
        uri = listener.redirect_uri
        assert "not the address" in (listener.paste("code=c&state=s") or "")
        assert "not the address" in (
            listener.paste(uri.replace("/callback", "/x") + "?code=c&state=s") or ""
        )
        assert "state" in (listener.paste(f"{uri}?code=c&state=t") or "")
        localhost = uri.replace("127.0.0.1", "localhost")
        assert listener.paste(f"  {localhost}?code=c&state=s\n") is None
        result = await listener.wait()
        assert (result.code, result.via) == ("c", "pasted")


async def test_a_busy_port_is_an_os_error() -> None:
    async with open_redirect_listener() as first:
        with pytest.raises(OSError):
            async with open_redirect_listener(first.port):
                pass
