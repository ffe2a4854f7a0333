"""A screen's stylesheet, kept in a ``.tcss`` file beside its module and read as its DEFAULT_CSS.

The rules live in ``.tcss`` files (CSS an editor knows, each rule starting with its screen's
type) but reach Textual as the screen's ``DEFAULT_CSS``, not as its ``CSS_PATH``. With Textual
8.2.8, ``CSS_PATH`` on a screen is read when the screen is first pushed, and
``App._load_screen_css`` then re-parses the whole stylesheet from scratch (every widget's CSS, not
only the new file: 10 to 90 ms, on the path from a form's arrival to its first frame), styles the
screen below again, and applies nothing to the screen being pushed (it was styled as it was
registered, before the file was read). Its rules would also outrank every widget's defaults and
tie with ``app.tcss``, where ``DEFAULT_CSS`` stays below both: read as ``DEFAULT_CSS``, the rules
are the ones the screens always had, parsed when the screen first mounts, with the priority they
always had (``tests/ui/screens/test_form_styles_once.py`` shows a consent screen styled by its
own rules).
"""

from __future__ import annotations

from pathlib import Path


def screen_css(module_file: str, name: str | None = None) -> str:
    """The rules of ``NAME.tcss`` (the module's own name when ``None``) beside ``module_file``."""
    here = Path(module_file)
    path = here.with_name(f"{name}.tcss") if name else here.with_suffix(".tcss")
    return path.read_text(encoding="utf-8")
