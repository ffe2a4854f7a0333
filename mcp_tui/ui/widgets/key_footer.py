"""Textual's ``Footer``, rebuilt only when the keys it would show change.

Textual's footer recomposes (drops and re-mounts, restyles and re-renders every key) whenever its
screen publishes a bindings refresh: each focus change, each screen pushed over it or popped. Most
of those leave the keys as they were. Opening the command palette over the session screen, for
instance, rebuilt the session footer four times (~12 ms each), right while the palette was being
drawn; moving through a form's fields rebuilt the form's footer on every Tab.

:class:`KeyFooter` remembers what its last compose showed (each shown binding, whether it was
enabled, its tooltip, and the palette key) and skips a recompose that would show the same.
Everything else is Textual's footer unchanged, so CSS written for ``Footer`` applies to it.
"""

from __future__ import annotations

from collections.abc import Hashable

from textual.app import ComposeResult
from textual.widgets import Footer


class KeyFooter(Footer):
    """A footer that recomposes only when its keys change (see the module docstring)."""

    def __init__(self) -> None:
        super().__init__()
        #: What the last compose showed; ``None`` before it showed any key.
        self._shown: Hashable | None = None

    def _what_it_shows(self) -> Hashable:
        # Every active binding, shown or not: the palette's key is one with ``show=False``.
        return (
            tuple(
                (key, binding, enabled, tooltip)
                for key, (_node, binding, enabled, tooltip) in self.screen.active_bindings.items()
            ),
            self.show_command_palette,
        )

    def compose(self) -> ComposeResult:
        self._shown = self._what_it_shows() if self._bindings_ready else None
        yield from super().compose()

    async def recompose(self) -> None:
        if self._shown is not None and self.is_attached and self._what_it_shows() == self._shown:
            return
        await super().recompose()
