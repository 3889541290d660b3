"""The words of ``/minds`` as tokens: quoting, the argument shapes built from tokens (a Study reference; the rest of
the text as free text, exactly as typed), the limits several command families share, and the wording of a refused
argument (``too_long``; ``quote`` says someone's word back, shortened).

Owns: ``tokenize`` and the straight and typographic quotes it knows, ``StudyRef`` reading from tokens. Must not
touch: what any one command means (the command families' modules), the command table (``grammar.py``), I/O.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from minds_bot.i18n import _, format_number
from minds_bot.slack.grammar_commands import StudyRef, Usage

QUOTES = {'"': '"', "“": "”", "„": "“", "«": "»"}
MAX_QUOTED = 40  # of someone's word, said back in a usage message
MAX_QUERY = 200  # a browse query or a search over names (Minds' own name search takes at most 200 characters)
MAX_NAME = 200  # an Audience or Study name (or id)
MAX_REF_CHARS = 200  # a Study's or Mind's id or name; longer text is not a name anyone typed on purpose


@dataclass(frozen=True)
class Token:
    value: str
    start: int
    end: int
    quoted: bool = field(default=False, compare=False)


def tokenize(text: str) -> list[Token]:
    """Whitespace-separated words; a quoted run (straight or typographic quotes) is one token without its quotes.
    An unclosed quote runs to the end of the text, as people mean it."""
    tokens: list[Token] = []
    i, n = 0, len(text)
    while i < n:
        if text[i].isspace():
            i += 1
            continue
        if text[i] in QUOTES:
            close = text.find(QUOTES[text[i]], i + 1)
            if close == -1 and text[i] == "„":
                close = text.find('"', i + 1)
            end = n if close == -1 else close
            tokens.append(Token(text[i + 1 : end].strip(), i, min(end + 1, n), quoted=True))
            i = end + 1
            continue
        j = i
        while j < n and not text[j].isspace():
            j += 1
        tokens.append(Token(text[i:j], i, j))
        i = j
    return tokens


def _rest(text: str, tokens: list[Token], index: int) -> str | None:
    """The text from token ``index`` on, exactly as typed (spacing and newlines kept)."""
    if index >= len(tokens):
        return None
    rest = text[tokens[index].start :].strip()
    return rest or None


def _study_and_rest(text: str, tokens: list[Token], index: int) -> tuple[StudyRef | None, str | None]:
    """``<study> <free text…>``: the study is one word or one quoted run; the rest is free text."""
    if index >= len(tokens) or not tokens[index].value:
        return None, _rest(text, tokens, index + 1)
    return StudyRef(tokens[index].value, quoted=tokens[index].quoted), _rest(text, tokens, index + 1)


def _study_tail(tokens: list[Token], text: str, index: int, stop: int | None = None) -> StudyRef | None:
    """``<study>`` as the last argument: a quoted run, or every remaining word (names have spaces)."""
    end = len(tokens) if stop is None else stop
    if index >= end:
        return None
    if tokens[index].quoted and end == index + 1:
        return StudyRef(tokens[index].value, quoted=True) if tokens[index].value else None
    name = text[tokens[index].start : tokens[end - 1].end].strip()
    quoted = False
    for opening, closing in QUOTES.items():
        if name.startswith(opening) and name.endswith(closing) and len(name) > 1:
            name, quoted = name[1:-1].strip(), True
    return StudyRef(name, quoted=quoted) if name else None


def too_long(what: str, *, limit: int, length: int) -> str:
    """The usage message for over-long input: the limit and the length, never the text itself. ``what`` (the
    sentence's subject: "A question") is a message id marked with ``N_`` or text already translated."""
    # i18n: {what} is what was typed, as the sentence's subject: "A question", "A search", "A digest id"…
    return _(
        "{what} can be at most {limit} characters (yours has {length}).",
        what=_(what),
        limit=format_number(limit),
        length=format_number(length),
    )


def quote(word: str) -> str:
    """Someone's word said back in a message: shortened, so a 40,000-character word is not echoed whole."""
    return word if len(word) <= MAX_QUOTED else word[: MAX_QUOTED - 1] + "…"


def _too_long(message: str, limit: int, usage: str) -> Usage:
    """``message`` (a message id with {limit} and {usage}: "The search is too long: …") filled in."""
    return Usage(_(message, limit=format_number(limit), usage=usage))
