"""Markdown from Minds → Slack mrkdwn: the one converter every surface uses (summary, digest, …).

Owns: headings as bold lines, ``**bold**``/``__bold__`` → ``*bold*``, ``*italic*``/``_italic_`` → ``_italic_``,
bullet and numbered lists as bullets/numbers, links as visible text ("label (https://…)"), everything escaped
first so Minds' text can never form a mention (``<!channel>``) or a live link the bot did not build; bold next to
Korean or Chinese gets the zero-width space that lets Slack render it (``i18n.markup.renderable``: "**가격**은" →
"*가격*\u200b은").
Must not touch: I/O, cutting (callers page or attach; nothing here shortens text).
"""

from __future__ import annotations

import re

from minds_bot.i18n.markup import renderable
from minds_bot.render import escape

_HEADING = re.compile(r"^[ ]{0,3}#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$", re.MULTILINE)
_BOLD = re.compile(r"\*\*(.+?)\*\*|__(.+?)__")
# Italic asterisks stand apart from Latin words and digits ("2*3*4" stays); Korean and Chinese put particles and
# punctuation right after them ("*강조*는").
_ITALIC = re.compile(r"(?<![*A-Za-z0-9_])\*(?!\s)([^*\n]+?)(?<!\s)\*(?![*A-Za-z0-9_])")
_LINK = re.compile(r"\[([^\]]+)\]\((https?://[^)\s]+)\)")
_BULLET = re.compile(r"^([ \t]*)[-*+][ \t]+", re.MULTILINE)
_RULE = re.compile(r"^[ ]{0,3}([-*_])([ \t]*\1){2,}[ \t]*$", re.MULTILINE)
_BOLD_MARK = "\x00"  # stands in for a bold asterisk while italics are converted


def to_mrkdwn(markdown: str) -> str:
    """Common Markdown as Slack mrkdwn. A link keeps its address in sight: Slack links the address people can
    read, never one hidden behind other words."""
    text = escape(markdown)
    text = _RULE.sub("", text)
    text = _LINK.sub(lambda m: f"{m.group(1)} ({m.group(2)})", text)
    text = _BULLET.sub(lambda m: f"{m.group(1)}• ", text)
    text = _HEADING.sub(lambda m: _BOLD_MARK + m.group(1).strip("*_ ") + _BOLD_MARK, text)
    text = _BOLD.sub(lambda m: _BOLD_MARK + (m.group(1) or m.group(2)) + _BOLD_MARK, text)
    text = _ITALIC.sub(lambda m: f"_{m.group(1)}_", text)
    return renderable(text.replace(_BOLD_MARK, "*"))
