"""-32042 (URL elicitation required): consent for each page, wait for it, then offer a retry.

A tool call that fails with -32042 names pages the user must visit first. The session screen
hands such an outcome here (:func:`url_required`): each page goes through the elicitation handler
like any URL-mode request, an accepted one waits visibly until it is finished, and only then is
one retry of the same call offered. A loop guard stops a server that keeps asking for the same
pages, or for pages :data:`MAX_URL_ROUNDS` times in a row.

The flow decides; the caller retries: a call made by hand is retried as a new call in the
transcript, and a call the chat's model made is retried for the model, which then gets the
retried outcome instead of the -32042 (the question is asked over whichever screen is waiting).

It is handed the screen that waits (a question is put over it only when it is on top again)
and where to write a line in the transcript: the session screen's calls use this module, so it
cannot import them.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Any, cast

from msgspec import Struct
from textual.screen import Screen

from mcp_tui.session.elicitation import ElicitationRequest
from mcp_tui.ui.app_interface import McpApp
from mcp_tui.ui.render import Entry, url_loop_entry
from mcp_tui.ui.shown_names import shown_name
from mcp_tui.ui.url_waits import FINISHED
from mcp_tui.untrusted import one_line

#: A chain of -32042 answers (each retry asking for other pages) stops after this many rounds.
MAX_URL_ROUNDS = 3


class UrlRound(Struct, frozen=True):
    """A -32042 round whose pages were finished: the URLs asked for, and the rounds so far."""

    urls: tuple[str, ...]
    rounds: int


async def url_required(
    screen: Screen[Any],
    show: Callable[[Entry], None],
    server: str,
    name: str,
    requests: Sequence[Any],
    previous: UrlRound | None,
    *,
    asking_over: object | None = None,
) -> UrlRound | None:
    """-32042: consent for each URL, wait for the pages to finish, then offer one retry.

    The tool failed because the user must first visit pages the server named. Each request
    goes through the elicitation handler like any URL-mode request (queued, checked,
    recorded in the transcript); an accepted one waits, visibly, until the server completes
    it or the user says it is done. Only then is the retry offered (one key), once the user is
    back on ``asking_over`` (default: ``screen``). The loop guard: a retry answered with the same
    URLs again stops here, and so does a chain of more than :data:`MAX_URL_ROUNDS` rounds.

    Returns the round to retry with (the caller calls again, passing it as ``previous`` for the
    next -32042), or ``None`` when the call is not to be retried (the transcript says why,
    through ``show``).
    """
    app = cast(McpApp, screen.app)
    handler = app.handler
    asked = [r for r in requests if isinstance(r, ElicitationRequest)]
    if handler is None or not asked:
        return None
    urls = tuple(r.url or "" for r in asked)
    url_list = sorted(set(urls))
    if previous is not None and sorted(set(previous.urls)) == url_list:
        _stop_url_loop(
            show,
            server,
            name,
            url_list,
            "After the retry the server asked for the same page"
            + ("s" if len(url_list) > 1 else "")
            + " again, so the page was not finished (or the server does not know yet). "
            "mcp-tui stops here instead of asking in a loop; call the tool again when the "
            "page is done.",
        )
        return None
    rounds = previous.rounds + 1 if previous is not None else 1
    if rounds > MAX_URL_ROUNDS:
        _stop_url_loop(
            show,
            server,
            name,
            url_list,
            f"The server asked for pages {rounds} times in a row; mcp-tui stops retrying. "
            "Call the tool again yourself to continue.",
        )
        return None
    keys = []
    for request in asked:
        outcome = await handler.elicit(request)
        if outcome.action != "accept":
            verb = "declined" if outcome.action == "decline" else "cancelled"
            _stop_url_loop(
                show, server, name, [], f"You {verb} the page, so the call is not retried."
            )
            return None
        keys.append(app.wait_for_page(request).key)
    waits = await app.url_waits.settled(keys)
    unfinished = [w for w in waits if w.state not in FINISHED]
    if unfinished or len(waits) != len(keys):
        why = {
            "gave_up": "You stopped waiting for the page.",
            "timed_out": "The page did not finish in time.",
            "closed": "The connection ended.",
        }
        state = unfinished[0].state if unfinished else None
        reason = why.get(state or "", "The wait ended before the page was finished.")
        _stop_url_loop(show, server, name, [], reason)
        return None
    if not await _offer_retry(screen, server, name, len(keys), asking_over):
        return None
    return UrlRound(urls, rounds)


def _on_top(screen: Screen[Any], asking_over: object | None) -> bool:
    top: object = screen.app.screen
    return top is (asking_over if asking_over is not None else screen)


async def _offer_retry(
    screen: Screen[Any], server: str, name: str, pages: int, asking_over: object | None
) -> bool:
    """Ask (once the user is back on the screen that waits) whether to retry the call now."""
    while not _on_top(screen, asking_over):  # never put a question over a form being filled
        if not screen.is_attached or getattr(asking_over, "is_attached", True) is False:
            return False
        await asyncio.sleep(0.2)
    from mcp_tui.ui.screens.confirm import ArmedConfirmScreen

    the_pages = "The page is" if pages == 1 else f"All {pages} pages are"
    retry = await screen.app.push_screen_wait(
        ArmedConfirmScreen(
            f"Retry {one_line(name, limit=60)}?",
            f"{the_pages} finished: {one_line(shown_name(server), limit=60)} can now run "
            f"{one_line(name, limit=60)}. Retry the call with the same arguments?",
            yes="Retry now",
            no="Not now",
            danger=False,
        )
    )
    return bool(retry)


def _stop_url_loop(
    show: Callable[[Entry], None], server: str, name: str, urls: list[str], reason: str
) -> None:
    show(url_loop_entry(server, name, urls, reason))
