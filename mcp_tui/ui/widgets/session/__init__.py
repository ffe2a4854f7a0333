"""The session screen's panels: the catalog tree, its info panel, the transcript, the traffic
view, the log, the running calls, the URL waits and the title bar."""
