"""Secret detection in what a server writes about a field: a request warns, a warning does not.

The wordings are real ones (server-everything's elicitation demo, the GitHub MCP server's
set-up texts, VS Code's MCP input examples, services' key pages) or the issue's own examples.
"""

from __future__ import annotations

import pytest

from mcp_tui.schema.fields import FieldKind, FieldSpec
from mcp_tui.schema.secrets import asks_for_secret, looks_secret

#: Descriptions (or messages) that ask for a secret.
REQUESTS = [
    "Paste your GitHub personal access token",
    "GitHub Personal Access Token",
    "Perplexity API Key",
    "Your GitHub App private key (PEM format)",
    "Enter your tokens and click Save & Enable",
    "Get a key at https://api.search.brave.com/app/keys and paste your Brave Search API key here",
    "Please provide your OpenAI API key to continue.",
    "The password for the database user",
    "Bot User OAuth Token (starts with xoxb-)",
    "Your client secret from the dashboard",
    # A warning next to the request does not hide it.
    "Enter your PIN. Never share it with anyone.",
    "Do not use your main password, enter an app password instead",
    "Copy the generated token and paste it here; you won't be able to see it again",
]

#: Descriptions that warn against giving one (or merely say nothing is needed).
WARNINGS = [
    "Your favorite integer (do not give us your phone number, pin, or other sensitive info)",
    "Never commit your actual token to version control",
    "Never share your password",
    "We will not ask for your PIN",
    "We will never ask for your password or API keys.",
    "Don't paste secrets or tokens into this field",
    "Passwords should never be entered in this form",
    "Avoid including credentials in the summary",
    "A short title for the issue (no tokens, passwords or other secrets)",
]

#: No secret mentioned at all, or a count of a model's tokens.
NEUTRAL = [
    "Your full name",
    "Which tokenizer to use",
    "Maximum tokens in the reply",
    "The number of tokens to generate",
    "Pick the passage you want summarised",
]


@pytest.mark.parametrize("text", REQUESTS)
def test_a_request_for_a_secret_is_seen(text: str) -> None:
    assert asks_for_secret(text)


@pytest.mark.parametrize("text", WARNINGS + NEUTRAL)
def test_a_warning_against_giving_one_is_not_a_request(text: str) -> None:
    assert not asks_for_secret(text)


def test_a_neutral_title_does_not_hide_a_description_that_asks() -> None:
    # The phishing form: a harmless key and title, the request in the description.
    field = FieldSpec(
        "access", FieldKind.TEXT, "Access", description="Paste your GitHub personal access token"
    )
    assert looks_secret(field)


def test_a_warning_in_the_description_does_not_mark_the_field() -> None:
    field = FieldSpec(
        "integer",
        FieldKind.TEXT,
        "Integer",
        description="Your favorite integer (do not give us your phone number, pin, or other "
        "sensitive info)",
    )
    assert not looks_secret(field)
