"""Letters that look alike: the one judgement of "this name imitates another" for hosts and names.

A host's label (``аррӏе.com``, all Cyrillic) and a server's announced name (``gіthub``, a Cyrillic
``і`` among Latin letters) deceive the same way: by letters of another script, or of the same
script, that are drawn like the ones a person expects. The URL check warns about such a label
(:func:`script_problem`, through ``host_names.script_warnings``); ``session/naming.py`` refuses
such a name, and one whose :func:`skeleton` equals another server's.

Pure: ``unicodedata`` only, no tables downloaded.
"""

from __future__ import annotations

import re
import unicodedata

#: Letters of other scripts drawn like Latin ones ("аррӏе" is all Cyrillic), with the Latin
#: letter each is read as.
LATIN_LOOKALIKES = {
    **dict(zip("асԁеһіјӏорԛѕԝхуѵѡ", "acdehijlopqswxyvw", strict=True)),
    **dict(zip("αικνορυχ", "aikvopux", strict=True)),
}
#: Latin letters, digits and marks that a reader takes for other Latin letters (UTS #39's
#: confusables within the Latin script and ASCII, the part a one-script name can still use),
#: applied after case folding and after accents were taken off.
_SAME_SCRIPT = {
    "0": "o", "1": "l", "i": "l", "|": "l", "ı": "l", "ɩ": "l", "ɪ": "l", "ʟ": "l", "ǀ": "l",
    "ɡ": "g", "ɑ": "a", "ɐ": "a", "ʋ": "v", "ɯ": "w", "ꞵ": "b", "ƅ": "b", "ȷ": "j", "ɛ": "e",
    "ꮃ": "w", "ſ": "f", "ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "đ": "d", "ħ": "h", "ł": "l",
    "5": "s", "8": "b",
}  # fmt: skip
#: Letter pairs drawn like one letter in most terminal fonts (``rn`` and ``m``).
_PAIRS = (("rn", "m"), ("vv", "w"), ("cl", "d"))
#: Separators a reader does not tell apart in a name: all are one ``-`` in a skeleton.
_SEPARATORS = re.compile(r"[\s\-_.]+")
#: Script combinations that are normal inside one word (Japanese, Korean, Chinese with Latin).
NORMAL_SCRIPT_MIXES = (
    frozenset({"CJK", "HIRAGANA", "KATAKANA", "LATIN"}),
    frozenset({"CJK", "HANGUL", "LATIN"}),
    frozenset({"CJK", "BOPOMOFO", "LATIN"}),
)


def script(ch: str) -> str | None:
    """The script of a letter (``LATIN``, ``CYRILLIC``, ``CJK``...), ``None`` for a non-letter."""
    if not unicodedata.category(ch).startswith("L"):
        return None
    name = unicodedata.name(ch, "")
    return name.split(" ", 1)[0].split("-", 1)[0] if name else None


def script_problem(word: str) -> tuple[str, str] | None:
    """``(code, text)`` when ``word`` mixes alphabets (``mixed-script``) or is spelt only with
    letters that look like Latin ones (``confusable-script``); ``None`` for one honest script."""
    scripts = {s for s in map(script, word) if s is not None}
    letters = [ch for ch in word if script(ch) is not None]
    if len(scripts) > 1 and not any(scripts <= mix for mix in NORMAL_SCRIPT_MIXES):
        names = " and ".join(sorted(s.title() for s in scripts))
        return "mixed-script", f"'{word}' mixes {names} letters, a way to imitate another name."
    if scripts and scripts != {"LATIN"} and all(ch in LATIN_LOOKALIKES for ch in letters):
        name = next(iter(scripts)).title()
        return (
            "confusable-script",
            f"'{word}' is spelt only with {name} letters that look like Latin ones.",
        )
    return None


def skeleton(text: str) -> str:
    """What ``text`` looks like, for telling whether two names can be taken for each other:
    case-folded, compatibility forms and accents taken off, look-alike letters and digits and
    letter pairs (``rn``) made the letter they are read as, separators made one ``-``.

    Two names with the same skeleton are one name to a reader (``GitHub``, ``gіthub``,
    ``G1thub``, ``git_hub`` are all ``glthub``-ish); the converse is not claimed.
    """
    folded = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", text).casefold())
    plain = "".join(ch for ch in folded if not unicodedata.combining(ch))
    read = "".join(LATIN_LOOKALIKES.get(ch, ch) for ch in plain)
    read = "".join(_SAME_SCRIPT.get(ch, ch) for ch in read)
    for pair, letter in _PAIRS:
        read = read.replace(pair, letter)
    return _SEPARATORS.sub("-", read).strip("-")
