"""The ``/minds mind`` command: ``mind new`` (the create dialog) and ``mind <name or id>`` (a Mind's card).

Owns: its usage message and the name limit it checks itself. Must not touch: tokenizing (``grammar_tokens.py``),
the command table (``grammar.py``), I/O of any kind.
"""

from __future__ import annotations

from minds_bot.i18n import N_, _
from minds_bot.slack.grammar_commands import Command, MindNew, ShowMind, Usage
from minds_bot.slack.grammar_tokens import MAX_NAME, Token, _study_tail, _too_long

MIND_USAGE = N_(
    "Say `/minds mind <name>` for a Mind's card, `/minds mind new` to create one, or `/minds minds` to browse them."
)


def _mind(text: str, tokens: list[Token]) -> Command | Usage:
    if len(tokens) < 2:
        return Usage(_(MIND_USAGE), suggestion="minds")
    if tokens[1].value.lower() == "new" and not tokens[1].quoted and len(tokens) == 2:
        return MindNew()
    ref = _study_tail(tokens, text, 1)
    if ref is None:
        return Usage(_(MIND_USAGE), suggestion="minds")
    if len(ref.text) > MAX_NAME:
        return _too_long(N_("The Mind name is too long: at most {limit} characters. {usage}"), MAX_NAME, _(MIND_USAGE))
    return ShowMind(ref.text)
