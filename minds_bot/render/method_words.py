"""The words of Minds' method catalogue (``GET /research-methods``) in the language being spoken.

Owns: the catalogue values ``/minds methods`` shows — a method's complexity, availability, what it needs
(``requiredConfiguration``), what it outputs (``outputTypes``) and the descriptive method names — each matched
exactly as Minds sends it and said through the catalogs; a value Minds adds or rewords later is shown as Minds
wrote it (escaped), never guessed. Proper names (MaxDiff, Conjoint, Kano) stay as they are.
Must not touch: deciding anything from these values (runnable is ``executable``, read by ``render/methods.py``).
"""

from __future__ import annotations

from collections.abc import Sequence

from minds_bot.i18n import N_, _
from minds_bot.render import MAX_NAME_SHOWN, MAX_WORD_SHOWN, escape
from minds_bot.render.common import listing

MAX_WORDS_LISTED = 10  # of what a method needs or outputs


def _same(*words: str) -> dict[str, str]:
    """Values Minds sends in English that are their own message id."""
    return {word: word for word in words}


# i18n: a research method's complexity in "complexity: basic".
COMPLEXITY = {
    "basic": N_("basic"),
    "intermediate": N_("intermediate"),
    "advanced": N_("advanced"),
    "high": N_("high"),
}
# i18n: why a research method cannot run yet, in "not runnable (planned)".
AVAILABILITY = {
    "available": N_("available"),
    "experimental": N_("experimental"),
    "planned": N_("planned"),
    "beta": N_("beta"),
    "deprecated": N_("deprecated"),
}
# i18n: what a research method needs, in "needs: items (4–30) · currency".
REQUIRES = _same(
    N_("an image or video asset on a Study question"),
    N_("attributes with levels"),
    N_("currency"),
    N_("features (2–20)"),
    N_("items"),
    N_("items (4–30)"),
    N_("price points"),
    N_("product description"),
)
# i18n: what a research method outputs, in "outputs: ranking · scale".
OUTPUTS = {
    "categorical": N_("categories"),
    "multiselect": N_("multiple choice"),
    "scale": N_("scale"),
    "qualitative": N_("open answers"),
    "ranking": N_("ranking"),
    "utilities": N_("utilities"),
    "demand_curve": N_("demand curve"),
    "price_range": N_("price range"),
    "feature_classes": N_("feature classes"),
    "heatmap": N_("heatmap"),
    "reach": N_("reach"),
    "recommendations": N_("recommendations"),
}
# i18n: a research method's name as Minds' catalogue gives it in English.
NAMES = _same(
    N_("Survey questionnaire"),
    N_("Net Promoter Score"),
    N_("TURF analysis"),
    N_("Gabor-Granger pricing"),
    N_("Van Westendorp price sensitivity"),
    N_("Recommendation synthesis"),
    N_("Visual asset analysis"),
)


def _said(words: dict[str, str], value: str, *, limit: int = MAX_WORD_SHOWN) -> str:
    known = words.get(value)
    return escape(_(known) if known is not None else value, limit=limit)


def complexity(value: str) -> str:
    """A method's complexity as Minds sent it, in the language being spoken when the catalogue knows it."""
    return _said(COMPLEXITY, value)


def availability(value: str) -> str:
    """Why a method cannot run yet (Minds' availability), in the language being spoken when known."""
    return _said(AVAILABILITY, value)


def _translated(words: dict[str, str], values: Sequence[str]) -> list[str]:
    return [_(words[value]) if value in words else value for value in values]


def needs(values: Sequence[str]) -> str:
    """What a method needs (``requiredConfiguration``), listed in the language being spoken; escaped."""
    return listing(_translated(REQUIRES, values), most=MAX_WORDS_LISTED, limit=MAX_WORD_SHOWN)


def outputs(values: Sequence[str]) -> str:
    """What a method outputs (``outputTypes``), listed in the language being spoken; escaped."""
    return listing(_translated(OUTPUTS, values), most=MAX_WORDS_LISTED, limit=MAX_WORD_SHOWN)


def output_words(values: Sequence[str]) -> str:
    """The outputs as Minds sent them and in the language being spoken, for matching a search (not shown)."""
    return escape(" ".join([*values, *_translated(OUTPUTS, values)]))


def method_name(name: str) -> str:
    """A method's name from Minds' catalogue, translated when it is one of the descriptive names; escaped."""
    return _said(NAMES, name, limit=MAX_NAME_SHOWN)
