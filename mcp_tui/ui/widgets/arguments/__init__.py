"""The tool-arguments form: one widget per node of an ``inputSchema`` tree (objects, lists, maps,
variants, leaves), the form that holds them, and the arguments screen's three bodies."""
