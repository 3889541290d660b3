"""Slack bold and italic that render next to Chinese and Korean text.

Owns: ``renderable`` — Slack shows ``*bold*`` / ``_italic_`` / ``~strike~`` only when the marker's outer side is
a word boundary, and Hangul, CJK characters and CJK punctuation are not one: "*Minds*는", "*다시 시도*를",
"*计划运行之前*，" show literal asterisks. ``renderable`` puts a zero-width space (U+200B, invisible) between a
marker and such a character on the outside of a span ("*Minds*\u200b는"); the inside is left alone. Code spans
(`` `…` ``, ```` ``` ````) and Slack tokens (``<…>``) are never changed; text with no such neighbour is returned
unchanged, so it can be applied to any text, any number of times. ``touching`` finds what it would change (tests).
``minds_bot.i18n._``/``_n`` apply it to every message they return, after the values are filled in.
Must not touch: anything but strings.
"""

from __future__ import annotations

import re

ZWSP = "\u200b"
# Hangul (syllables, jamo), CJK ideographs, kana, CJK symbols and punctuation, full-width forms, and the curly
# quotes and ellipsis Chinese text puts around words.
_CJK = (
    "\u1100-\u11ff\u2018-\u201f\u2026\u2e80-\u2fff\u3000-\u303f\u3040-\u30ff\u3100-\u31ff\u3200-\u32ff"
    "\u3400-\u4dbf\u4e00-\u9fff\ua960-\ua97f\uac00-\ud7ff\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef"
)
_IS_CJK = re.compile(f"[{_CJK}]")
# Text a marker must not be looked for in: code blocks, code spans, Slack tokens (links, mentions, dates).
_LITERAL = re.compile(r"```.*?```|`[^`\n]*`|<[^<>\n]*>", re.DOTALL)
# A span: an opening marker followed by a non-space, up to the same marker after a non-space, on one line.
_SPAN = re.compile(r"([*_~])(?=[^\s*_~])(?:[^\n]*?[^\s])??\1")


def renderable(text: str) -> str:
    """``text`` with a zero-width space wherever a markup span's outer side touches Hangul or CJK."""
    if not _IS_CJK.search(text) or not any(marker in text for marker in "*_~"):
        return text
    out: list[str] = []
    last = 0
    for literal in _LITERAL.finditer(text):
        out.append(_spaced(text[last : literal.start()], before=text[last - 1 : last], after=literal.group()[:1]))
        out.append(literal.group())
        last = literal.end()
    out.append(_spaced(text[last:], before=text[last - 1 : last] if last else "", after=""))
    return "".join(out)


def touching(text: str) -> list[str]:
    """The markup spans in ``text`` whose outer side touches Hangul or CJK (with a character either side)."""
    return [
        text[max(0, m.start() - 1) : m.end() + 1]
        for m in _SPAN.finditer(_LITERAL.sub(" ", text))
        if _cjk(m.string[m.start() - 1 : m.start()]) or _cjk(m.string[m.end() : m.end() + 1])
    ]


def _cjk(char: str) -> bool:
    return bool(char) and bool(_IS_CJK.match(char))


def _spaced(part: str, *, before: str, after: str) -> str:
    def space(match: re.Match[str]) -> str:
        left = part[match.start() - 1] if match.start() else before
        right = part[match.end()] if match.end() < len(part) else after
        return (ZWSP if _cjk(left) else "") + match.group() + (ZWSP if _cjk(right) else "")

    return _SPAN.sub(space, part)
