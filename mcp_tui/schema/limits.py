"""Size limits for requested schemas: what a terminal form can show without freezing.

A server controls the size of everything in a ``requestedSchema``. Mounting 1,000 inputs takes
seconds and opening a 100,000-option select blocks for about five seconds (see the performance
notes), so anything past these limits is *refused* with a :class:`~mcp_tui.errors.SchemaError`
naming the limit, never rendered slowly. The limits are generous for every real form seen
(server-everything: 12 fields, 6 options; the biggest SDK example: 6 fields).

=========================  ==========  ===========================================================
limit                      value       why
=========================  ==========  ===========================================================
``MAX_FIELDS``             500         a form is paged/virtualised by the UI; 500 fields is already
                                       far beyond anything a person fills in
``MAX_OPTIONS``            10,000      per select / multi-select; the lazy ``Select`` opens 10,000
                                       options in ~45 ms, 100,000 blocks for ~5 s
``MAX_TOTAL_OPTIONS``      50,000      across the whole form (many large selects add up)
``MAX_NAME_LENGTH``        256         property names (keys in ``content``)
``MAX_TITLE_LENGTH``       1,000       ``title`` of the form or a field, and option titles
``MAX_DESCRIPTION_LENGTH`` 20,000      ``description`` of the form or a field
``MAX_OPTION_LENGTH``      1,000       an option's value (the ``const`` / ``enum`` member)
``MAX_DEFAULT_LENGTH``     100,000     a string ``default`` (pre-filled into an input)
``MAX_PATTERN_LENGTH``     1,000       a ``pattern`` (compiled by RE2, which also caps memory)
``MAX_STRING_BOUND``       10,000,000  ``minLength``/``maxLength``/``minItems``/``maxItems``
``MAX_PROBLEMS``           100         problems listed in one ``SchemaError``; the rest are
                                       counted in a final "... and N more problems" line
=========================  ==========  ===========================================================

Input typed by the user has its own caps (``MAX_NUMBER_TEXT``): a number longer than 100
characters is refused with the field's normal message rather than parsed.
"""

from __future__ import annotations

MAX_FIELDS = 500
MAX_OPTIONS = 10_000
MAX_TOTAL_OPTIONS = 50_000
MAX_NAME_LENGTH = 256
MAX_TITLE_LENGTH = 1_000
MAX_DESCRIPTION_LENGTH = 20_000
MAX_OPTION_LENGTH = 1_000
MAX_DEFAULT_LENGTH = 100_000
MAX_PATTERN_LENGTH = 1_000
MAX_STRING_BOUND = 10_000_000
MAX_PROBLEMS = 100
#: Longest text accepted in a number or integer field (longer is "not a number").
MAX_NUMBER_TEXT = 100
#: Largest decimal exponent accepted for an integer (``1e300`` is fine, ``1e400`` is refused):
#: converting ``1e999999`` to an exact int would stall, and a JSON peer could not read it anyway.
MAX_INTEGER_EXPONENT = 300
#: RE2's memory budget for one compiled ``pattern`` (RE2 refuses patterns that need more).
PATTERN_MAX_MEMORY = 8 << 20

__all__ = [
    "MAX_DEFAULT_LENGTH",
    "MAX_DESCRIPTION_LENGTH",
    "MAX_FIELDS",
    "MAX_INTEGER_EXPONENT",
    "MAX_NAME_LENGTH",
    "MAX_NUMBER_TEXT",
    "MAX_OPTIONS",
    "MAX_OPTION_LENGTH",
    "MAX_PATTERN_LENGTH",
    "MAX_PROBLEMS",
    "MAX_STRING_BOUND",
    "MAX_TITLE_LENGTH",
    "MAX_TOTAL_OPTIONS",
    "PATTERN_MAX_MEMORY",
]
