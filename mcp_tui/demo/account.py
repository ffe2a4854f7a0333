"""URL-mode elicitation: connecting the demo account on a page the client never sees into.

- `connect_account` asks the user to open the demo's local connect page (URL mode) and waits for
  its button to be pressed. On 2025-11-25 the press sends `notifications/elicitation/complete`
  for the elicitation's id before the tool's result; on 2026-07-28 (no such notification, no
  `elicitationId`) the URL request comes in an `input_required` result and the retry, which waits
  for the page, reports whether it was completed.
- `list_files` needs the connected account. On 2025-11-25 it fails with -32042
  (`URLElicitationRequiredError`, carrying the URL-mode elicitation) until the account is
  connected, and succeeds when retried after the completion notification. 2026-07-28 retired
  -32042, so there it asks for the same URL in an `input_required` result instead.
- `disconnect_account` forgets the connection so both flows can be shown again.
"""

from __future__ import annotations

from typing import Annotated, Any, Final, Literal

import anyio
import mcp_types as types
from mcp import UrlElicitationRequiredError
from mcp.server.mcpserver import MCPServer
from pydantic import Field

from mcp_tui.demo.asking import Asker, DemoContext, declined_text, run_flow
from mcp_tui.demo.connect_page import ConnectPage
from mcp_tui.demo.state import AccountLink, DemoState, Waiter

DEFAULT_WAIT_SECONDS: Final = 120.0
"""How long a tool waits for the page after the user agreed to open it."""

Folder = Literal["/", "/reports", "/photos"]

FILES: Final[dict[str, list[tuple[str, str]]]] = {
    "/": [
        ("reports/", "folder"),
        ("photos/", "folder"),
        ("notes.md", "2 KB"),
        ("budget.xlsx", "48 KB"),
    ],
    "/reports": [("2031-q1.pdf", "1.2 MB"), ("2031-q2.pdf", "1.4 MB"), ("summary.csv", "9 KB")],
    "/photos": [("team.jpg", "3.1 MB"), ("offsite-2031.jpg", "2.7 MB")],
}


def list_folder(account: str, folder: Folder) -> str:
    rows = [f"  {name:<20} {size}" for name, size in FILES[folder]]
    return "\n".join([f"Files in {folder} of {account}:", *rows])


async def _wait(link: AccountLink, seconds: float) -> bool:
    with anyio.move_on_after(seconds):
        await link.done.wait()
    return link.done.is_set()


async def connect(
    asker: Asker, state: DemoState, page: ConnectPage, purpose: str, wait_seconds: float
) -> str | None:
    """Ask the user to connect the account on the local page; None once it is connected,
    otherwise the text that ends the call (declined, cancelled, or not completed in time)."""
    asker.require("url")
    message = f"{purpose} Open the page and press 'Connect account'."
    not_connected = "Not connected"
    if asker.modern:
        token = asker.remember("link", lambda: state.pending_link().token)
        link = state.link(token)
        if link is None:
            return f"{not_connected}: that connect link has expired. Please try again."
        answer = await asker.url("connect", message, await page.url_for(link.token), "")
        if answer.action != "accept":
            return declined_text(answer, not_connected)
        connected = await _wait(link, wait_seconds)
    else:
        link = state.pending_link()
        ctx = asker.ctx
        waiter = Waiter(state.new_elicitation_id(), ctx.request_context.session, ctx.request_id)
        url = await page.url_for(link.token)
        with state.waiting(link, waiter):
            answer = await asker.url("connect", message, url, waiter.elicitation_id)
            if answer.action != "accept":
                state.forget(link, waiter)
                return declined_text(answer, not_connected)
            connected = await _wait(link, wait_seconds)
    if connected:
        return None
    return (
        f"{not_connected}: the page was not completed within {wait_seconds:g} s. "
        "Press its button, then run this tool again."
    )


def register(server: MCPServer[Any], state: DemoState, page: ConnectPage) -> None:
    """Add `connect_account`, `list_files` and `disconnect_account`."""

    @server.tool(
        structured_output=False,
        title="Connect your account",
        description=(
            "Demonstrates URL-mode elicitation: asks you to open a page that the demo serves on "
            "127.0.0.1 and waits until you press its button. On 2025-11-25 the server then sends "
            "notifications/elicitation/complete; on 2026-07-28 the URL arrives in an "
            "input_required result and the retry reports whether the page was completed."
        ),
        annotations=types.ToolAnnotations(read_only_hint=False, open_world_hint=False),
    )
    async def connect_account(
        ctx: DemoContext,
        wait_seconds: Annotated[
            float, Field(ge=0.1, le=600, description="How long to wait for the page, in seconds.")
        ] = DEFAULT_WAIT_SECONDS,
    ) -> str | types.InputRequiredResult:
        async def flow(asker: Asker) -> str:
            if state.connected and asker.first_round:
                return (
                    f"Already connected as {state.account}. Run disconnect_account to start over."
                )
            purpose = "Connect your demo account so that the demo can list your files."
            problem = await connect(asker, state, page, purpose, wait_seconds)
            return problem or f"Connected as {state.account}."

        return await run_flow(ctx, flow)

    @server.tool(
        structured_output=False,
        title="List your files",
        description=(
            "Demonstrates the -32042 error (URLElicitationRequiredError): fails until the demo "
            "account is connected through the URL in the error, then succeeds when retried. "
            "On 2026-07-28, which retired -32042, it asks for the URL in an input_required "
            "result instead."
        ),
        annotations=types.ToolAnnotations(read_only_hint=True, open_world_hint=False),
    )
    async def list_files(
        ctx: DemoContext,
        folder: Annotated[Folder, Field(description="Which folder to list.")] = "/",
        wait_seconds: Annotated[
            float,
            Field(ge=0.1, le=600, description="2026-07-28 only: how long to wait for the page."),
        ] = DEFAULT_WAIT_SECONDS,
    ) -> str | types.InputRequiredResult:
        async def flow(asker: Asker) -> str:
            if state.account is not None:
                return list_folder(state.account, folder)
            asker.require("url")
            purpose = "Listing files needs your demo account."
            if not asker.modern:
                link = state.pending_link()
                waiter = Waiter(state.new_elicitation_id(), ctx.request_context.session, None)
                state.add_waiter(link, waiter)
                params = types.ElicitRequestURLParams(
                    message=f"{purpose} Open the page, press 'Connect account', then retry.",
                    url=await page.url_for(link.token),
                    elicitation_id=waiter.elicitation_id,
                )
                raise UrlElicitationRequiredError([params], "Connect the demo account first.")
            problem = await connect(asker, state, page, purpose, wait_seconds)
            if problem is not None or state.account is None:
                return problem or "Not connected."
            return list_folder(state.account, folder)

        return await run_flow(ctx, flow)

    @server.tool(
        structured_output=False,
        title="Disconnect your account",
        description="Forgets the demo account connection, so the URL-mode tools ask again.",
        annotations=types.ToolAnnotations(read_only_hint=False, idempotent_hint=True),
    )
    async def disconnect_account() -> str:
        if state.disconnect():
            return "Disconnected. connect_account and list_files will ask for the page again."
        return "The demo account was not connected."
