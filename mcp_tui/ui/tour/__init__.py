"""``mcp-tui demo --tour``: a guided walk through every kind of elicitation on the demo server.

``script.py`` is the tour as plain data (steps: the demo tool to call, what the spec asks of the
client, which messages went over the wire on each era, what to press); ``guide.py`` drives it on
the real session screen, forms and wire panel; ``note.py`` is the docked note that says where
the tour is.
"""
