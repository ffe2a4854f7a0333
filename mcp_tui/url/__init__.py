"""A server-chosen URL, made safe to show and to open: the check and the browser opener.

Pure Python (no MCP SDK, no Textual): the URL check reads a raw string by the browser's rules and
refuses what could be read two ways (:mod:`.check`, the host part in :mod:`.host` and
:mod:`.host_names`); :mod:`.browser` opens an allowed URL in a graphical browser without touching
the terminal. The UI's consent screens and the headless runner use it; the session layer only
carries the URL it was sent.
"""
