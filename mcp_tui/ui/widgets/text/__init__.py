"""Text that is never markup: inputs and text areas that keep pasted control characters out, and
the fitted, literal text a server's strings are shown in."""
