"""Is this text one standalone question? Pure; decides whether ``/minds ask`` may send it as a direct run.

Owns: the rule that a questionnaire is never sent one question at a time (CATALOGUE §2 F.47-48): text holding
two or more questions — several question marks, or several numbered/bulleted lines — is refused and the
planning flow offered instead. Quoted stimulus ("Rate the tagline “Why wait?”") does not count as a question.
Must not touch: I/O of any kind.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from minds_bot.i18n import _, _n

# Quoted material is stimulus shown to the Minds, not a question to them.
# Single quotes are left alone: they are apostrophes far more often ("What's…? Isn't…?").
QUOTED = re.compile(r"\"[^\"]*\"|“[^”]*”|„[^“”]*[“”]|«[^»]*»")
QUESTION_MARKS = re.compile(r"[?？؟]+")
LIST_ITEM = re.compile(r"^\s*(?:\d{1,3}[.)]|[-*•·]|[a-zA-Z][.)]|Q\d{1,3}[:.)]?)\s+\S", re.MULTILINE)


@dataclass(frozen=True)
class QuestionCheck:
    """``single`` is True when the text may be asked as it is; ``count`` is how many questions were seen."""

    single: bool
    count: int
    reason: str = ""


def check_question(text: str) -> QuestionCheck:
    """One standalone question, or why not."""
    stripped = (text or "").strip()
    if not stripped:
        return QuestionCheck(single=False, count=0, reason=_("There is no question to ask."))
    unquoted = QUOTED.sub(" ", stripped)
    items = len(LIST_ITEM.findall(unquoted))
    if items >= 2:
        reason = _n(
            "This looks like a list of {count} question (one per line).",
            "This looks like a list of {count} questions (one per line).",
            items,
        )
        return QuestionCheck(single=False, count=items, reason=reason)
    marks = len(QUESTION_MARKS.findall(unquoted))
    if marks >= 2:
        reason = _n("This text holds {count} question.", "This text holds {count} questions.", marks)
        return QuestionCheck(single=False, count=marks, reason=reason)
    return QuestionCheck(single=True, count=1)
