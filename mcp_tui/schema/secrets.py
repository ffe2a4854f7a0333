"""Does a form field (or a request's message) ask for a secret?

The spec forbids servers to ask for passwords, API keys, tokens or payment details in form mode.
mcp-tui warns instead of refusing, because a false positive must not block the user; but a
phishing server picks a neutral key and title ("Access") and asks in the description ("Paste your
GitHub personal access token"), so every text the server wrote about a field is judged.

Keys and titles name what the field holds: any secret word there counts. Descriptions and
messages are sentences, and they are also where servers warn *against* giving one ("do not give us
your phone number, pin, or other sensitive info", "we will never ask for your password"). So in a
sentence a secret word counts as a request unless its clause negates it: a negation before it
("never share your password", "don't paste tokens here") or a negated verb of giving or asking
after it ("passwords should never be entered here"). A clause ends at ``. ! ? ;`` or a line
break, and at a comma that starts a new instruction ("do not use your main password, enter an app
password"), so a warning next to a request does not hide it. Counts of a model's tokens
("maxTokens", "token limit") are numbers, never secrets.

Pure Python: the TUI's form and any other front end ask the same question.
"""

from __future__ import annotations

import re

from mcp_tui.schema.fields import FieldSpec

__all__ = ["asks_for_secret", "looks_secret", "names_secret"]

_SECRET_WORDS = re.compile(
    r"\b(?:pass(?:word|wd|phrase|code)?s?|pwd|pin(?:\s*code)?s?|secrets?|client\s*secret"
    r"|api\s*keys?|access\s*keys?|private\s*keys?|secret\s*keys?|auth(?:entication)?\s*tokens?"
    r"|tokens?|bearer|otp|one\s*time\s*code|2fa|mfa\s*code|credentials?"
    r"|credit\s*card|card\s*numbers?|cc\s*num(?:ber)?|cvv2?|cvc|security\s*code|iban"
    r"|ssn|social\s*security(?:\s*number)?|seed\s*phrase|mnemonic)\b",
    re.IGNORECASE,
)

#: Counts of a model's tokens (``maxTokens``, "Token limit"): numbers, not secrets.
_TOKEN_COUNTS = re.compile(
    r"\b(?:max(?:imum)?|min(?:imum)?|num(?:ber)?(?:\s+of)?|total|count(?:\s+of)?)\s+tokens?\b"
    r"|\btokens?\s+(?:counts?|limits?|budget|usage)\b"
    # "tokens used" is a count; a token "used for/to/by" something is the credential itself.
    r"|\btokens?\s+used\b(?!\s+(?:for|to|by|in|on|when|as|with)\b)",
    re.IGNORECASE,
)

#: Verbs that start an instruction: a comma before one starts a new clause.
_INSTRUCTION = (
    r"(?:please\s+)?(?:enter|paste|type|provide|give|supply|submit|send|share|fill|insert|put"
    r"|copy|use|add|specify|set|input|include)\b"
)
_CLAUSE_END = re.compile(rf"[.!?;:\n]+|,\s*(?:but\s+|and\s+|then\s+)?(?={_INSTRUCTION})", re.I)

#: A negation before the secret word, in its clause.
_NEGATION_BEFORE = re.compile(
    r"\b(?:never|not|no|nor|without|avoid|instead\s+of|rather\s+than|beware\s+of|nobody"
    r"|no\s+one)\b|\b\w+n['’]t\b|\bdont\b|\bwont\b",
    re.IGNORECASE,
)

#: The secret word is the subject of a negated verb of giving or asking ("passwords should
#: never be entered", "your PIN is not required", "tokens must not be pasted").
_NEGATION_AFTER = re.compile(
    r"^\W*(?:\w+\s+){0,2}?"
    r"(?:(?:is|are|should|must|will|would|do|does|can|may|need|needs)\s+(?:never|not)|\w+n['’]t)"
    r"\s+(?:be\s+)?(?:ask|asked|share|shared|give|given|enter|entered|send|sent|paste|pasted"
    r"|type|typed|provide|provided|request|requested|require|required|need|needed|include"
    r"|included|submit|submitted|post|posted|reveal|revealed|disclose|disclosed)\b",
    re.IGNORECASE,
)


def _words(text: str, *, sentence: bool = False) -> str:
    """``apiKey`` / ``api_key`` / ``API-KEY`` -> ``api key`` so one word list matches them all.

    In a ``sentence`` full stops are kept: they end clauses.
    """
    text = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", text)
    return re.sub(r"[_\-]+" if sentence else r"[_\-.]+", " ", text)


def names_secret(*names: str | None) -> bool:
    """True when a key or title (a name, not a sentence) names a secret."""
    haystack = " ".join(_words(t) for t in names if t)
    return _SECRET_WORDS.search(_TOKEN_COUNTS.sub(" ", haystack)) is not None


def _requested_in(clause: str) -> bool:
    for match in _SECRET_WORDS.finditer(clause):
        if _NEGATION_BEFORE.search(clause, 0, match.start()):
            continue
        if _NEGATION_AFTER.search(clause[match.end() :]):
            continue
        return True
    return False


def asks_for_secret(text: str | None) -> bool:
    """True when a sentence (a description, a message) asks for a secret rather than warning
    against giving one: a secret word in a clause that does not negate it."""
    if not text:
        return False
    # Token counts go first (they span words); identifiers such as ``apiKey`` read as words.
    prose = _TOKEN_COUNTS.sub(" ", _words(text, sentence=True))
    return any(_requested_in(clause) for clause in _CLAUSE_END.split(prose))


def looks_secret(field: FieldSpec) -> bool:
    """True when the field's key or title names a secret, or its description asks for one."""
    return names_secret(field.name, field.title) or asks_for_secret(field.description)
