"""The command line: arguments in, a TUI app or a headless run out (the top layer).

``main.py`` dispatches ``mcp-tui`` and its subcommands; ``args.py`` holds the parsers (pure, tested
without an app); ``target.py`` turns a URL or the words after ``--`` into a server spec and
``names.py`` names it; ``call.py`` (``call``/``list``), ``demo.py``, ``chat.py`` and ``auth.py``
are the subcommands with set-up of their own. Only this package may import every other one;
nothing imports it.
"""
