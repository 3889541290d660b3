"""The words a Mind answers with, one table per Study language (``phrases_en``, ``phrases_de``, ``phrases_es``,
``phrases_zh``, ``phrases_ko``), each written as that language says it: German in the "ich" voice with its own
word order, Korean in the polite 요 style, Chinese and Spanish as people write them.

Owns: ``Phrases`` (what one language's table holds: the reasons and themes of open answers by question kind and
trait, what a Mind says about itself, the reason that comes with a choice, and every other sentence by key in
``line``). ``answer_language.phrases_for`` picks a language's table.
Pure data.
"""

from __future__ import annotations

from dataclasses import dataclass

TRAITS = ("priceSensitivity", "sustainabilityFocus", "brandLoyalty", "noveltySeeking", "skepticism")
OPEN_KINDS = ("use", "switch", "credibility", "why", "barrier", "improve", "likes", "reaction", "opinion")
CLOSED_KINDS = (
    "believable",
    "recommend",
    "bought",
    "heard",
    "frequency",
    "agree",
    "satisfied",
    "different",
    "intent",
    "appeal",
    "opinion",
)


@dataclass(frozen=True)
class Phrases:
    lang: str
    fields: dict[str, str]  # topic name → how a Mind names the field mid-sentence; "" for an unknown topic
    about_me: dict[str, str]  # trait → what the Mind says about itself (a clause)
    after_speaker: dict[str, str]  # trait → the same clause as it follows "As a barista in Berlin" (German inverts)
    reasons: dict[str, dict[str, tuple[str, str]]]  # open kind → trait → (theme, the sentence that carries it)
    usage: tuple[tuple[str, str], tuple[str, str], tuple[str, str]]  # (theme, sentence): often, now and then, rarely
    brand_habit: dict[str, str]
    credible: dict[str, tuple[str, str]]  # trait → (positive, negative) reason on a credibility question
    credible_too: dict[str, tuple[str, str]]  # a second wording of each, so two alike Minds differ
    says: dict[str, tuple[str, str, str]]  # closed kind → (positive, neutral, negative)
    draws: dict[str, str]
    would_decide: dict[str, str]
    puts_off: dict[str, str]
    line: dict[str, str]  # every other sentence, by key; {placeholders} filled by the caller
