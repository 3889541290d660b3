"""Which named methods a plan request asks for, and their catalogue entries (pure)."""

from __future__ import annotations

import pytest

from minds_bot.flows.methods import catalogue_entry, mentioned_methods
from minds_bot.minds import ResearchMethod


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Run a MaxDiff on these claims", ["MaxDiff"]),
        ("max-diff and Net Promoter Score please", ["MaxDiff", "NPS"]),
        ("Van Westendorp and Gabor Granger for pricing; a Kano too", ["Kano", "Van Westendorp", "Gabor-Granger"]),
        ("TURF over 8 flavours, then conjoint", ["TURF", "Conjoint"]),
        ("What do snapshots say about turfing lawns?", []),  # whole words only
        ("How do people feel about the price?", []),
    ],
)
def test_mentioned_methods(text: str, expected: list[str]) -> None:
    assert mentioned_methods(text) == expected


def method(method_id: str, name: str | None = None) -> ResearchMethod:
    return ResearchMethod(id=method_id, name=name, executable=True)


def test_catalogue_entries_match_on_id_or_name() -> None:
    catalogue = [method("nps", "Net Promoter Score"), method("price-sens", "Van Westendorp price sensitivity")]
    assert catalogue_entry("NPS", catalogue) == catalogue[0]
    assert catalogue_entry("Van Westendorp", catalogue) == catalogue[1]
    assert catalogue_entry("Kano", catalogue) is None
