"""Signing in to a remote server (OAuth), on the SDK's ``OAuthClientProvider``.

- :mod:`.authorization`: the seam to the person who signs in (the request, the outcome, the
  handler the TUI implements; headless has none and says what to do instead);
- :mod:`.provider`: the SDK's provider set up for one server (discovery, registration or
  configured credentials, the consent step, token storage);
- :mod:`.redirect`: the one-shot loopback listener the browser comes back to;
- :mod:`.store`: the owner-only token files (pure, also read by ``mcp-tui auth``).

What is configured for a server's sign-in is a plain record in ``config/oauth_settings.py``; the
URL it opens goes through ``url/`` like any server-chosen URL. Nothing here imports from the
session folder above it: the connection imports this package, never the other way round.
"""
