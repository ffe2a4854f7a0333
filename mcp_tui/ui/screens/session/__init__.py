"""The session screen (:mod:`.screen`) and the parts it owns, one module each."""

from mcp_tui.ui.screens.session.screen import KEPT_TRAFFIC, SessionScreen

__all__ = ["KEPT_TRAFFIC", "SessionScreen"]
