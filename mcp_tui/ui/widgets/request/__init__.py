"""What the screens answering a server's request share: the Accept / Decline / Cancel bar and its
keys, and the wire panel beside the form."""
