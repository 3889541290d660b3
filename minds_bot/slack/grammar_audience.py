"""The Audience and research-tool commands of ``/minds``: ``audience`` (a card, or ``audience new <brief>``),
``ask audience``, ``recalibrate``, ``duplicate audience``, ``export audience|mind`` (a profile) and ``methods``.

Owns: their usage messages and the name and question limits they check themselves. Must not touch: tokenizing
(``grammar_tokens.py``), the command table and the limits every field is held to afterwards (``grammar.py``; its
``question`` limit applies to ``ask audience`` too), Study commands (``grammar_study.py``), I/O of any kind.
"""

from __future__ import annotations

from minds_bot.i18n import N_, _
from minds_bot.slack.grammar_commands import (
    AskAudience,
    AudienceNew,
    Command,
    DuplicateAudience,
    ExportProfile,
    Methods,
    Recalibrate,
    ShowAudience,
    StudyRef,
    Usage,
)
from minds_bot.slack.grammar_tokens import (
    MAX_NAME,
    MAX_QUERY,
    MAX_REF_CHARS,
    Token,
    _rest,
    _study_and_rest,
    _study_tail,
    _too_long,
)

MAX_QUESTION = 3000  # one respondent-visible question (as the Ask dialog allows)


def _audience(text: str, tokens: list[Token]) -> Command | Usage:
    if len(tokens) < 2:
        return Usage(
            _(
                "Say `/minds audience <name>` for an Audience's card, `/minds audience new <brief>` to create one "
                "from a brief, or `/minds audiences` to browse them."
            ),
            suggestion="audiences",
        )
    if tokens[1].value.lower() == "new" and not tokens[1].quoted:
        return AudienceNew(_rest(text, tokens, 2))
    return _show_audience(text, tokens)


PROFILE_KINDS = ("audience", "mind")
PROFILE_FORMATS = ("pdf", "md", "docx", "pptx")
# Message ids with {limit}: MAX_REF_CHARS.
PROFILE_USAGE = N_(
    "Say `/minds export audience <name> [pdf|md|docx|pptx]` or `/minds export mind <name> [format]` "
    "(a name or id of at most {limit} characters). To export a Study whose name starts with "
    '"audience" or "mind", quote its name.'
)
DUPLICATE_AUDIENCE_USAGE = N_("Say `/minds duplicate audience <name>` (a name or id of at most {limit} characters).")


def _bounded(ref: StudyRef | None, usage: str) -> StudyRef | Usage:
    """``ref`` when it is short enough; otherwise ``usage`` (a message id with {limit}) and why."""
    said = _(usage, limit=MAX_REF_CHARS)
    if ref is None:
        return Usage(said)
    if len(ref.text) > MAX_REF_CHARS:
        return Usage(
            _(
                "That name is {length} characters; at most {limit}. {usage}",
                length=len(ref.text),
                limit=MAX_REF_CHARS,
                usage=said,
            )
        )
    return ref


def _export_profile(text: str, tokens: list[Token]) -> Command | Usage:
    kind = tokens[1].value.lower()
    last = tokens[-1]
    fmt = last.value.lower() if len(tokens) > 3 and not last.quoted and last.value.lower() in PROFILE_FORMATS else None
    ref = _bounded(_study_tail(tokens, text, 2, len(tokens) - 1 if fmt else None), PROFILE_USAGE)
    return ref if isinstance(ref, Usage) else ExportProfile(kind, ref, fmt)


def _duplicate_audience(text: str, tokens: list[Token]) -> Command | Usage:
    ref = _bounded(_study_tail(tokens, text, 2), DUPLICATE_AUDIENCE_USAGE)
    return ref if isinstance(ref, Usage) else DuplicateAudience(ref)


def _methods(text: str, tokens: list[Token]) -> Command | Usage:
    query = _rest(text, tokens, 1)
    if query is not None and len(query) > MAX_QUERY:
        return _too_long(
            N_("The search is too long: at most {limit} characters. {usage}"),
            MAX_QUERY,
            _("Say `/minds methods [query]`, e.g. `/minds methods pricing`."),
        )
    return Methods(query)


AUDIENCE_NAME_TOO_LONG = N_("The Audience name is too long: at most {limit} characters. {usage}")


def _audience_name(text: str, tokens: list[Token], index: int) -> str | None:
    ref = _study_tail(tokens, text, index)
    return ref.text if ref else None


def _show_audience(text: str, tokens: list[Token]) -> Command | Usage:
    name = _audience_name(text, tokens, 1)
    if name is None:
        return Usage(_("Say `/minds audience <name>` for an Audience's card."))
    if len(name) > MAX_NAME:
        return _too_long(AUDIENCE_NAME_TOO_LONG, MAX_NAME, _("Say `/minds audience <name>`."))
    return ShowAudience(name)


ASK_AUDIENCE_USAGE = N_('Say `/minds ask audience <name> <question>`, e.g. `/minds ask audience "Gen Z" Why…?`.')


def _ask_audience(text: str, tokens: list[Token]) -> Command | Usage:
    name, question = _study_and_rest(text, tokens, 2)
    if name is not None and len(name.text) > MAX_NAME:
        return _too_long(AUDIENCE_NAME_TOO_LONG, MAX_NAME, _(ASK_AUDIENCE_USAGE))
    if question is not None and len(question) > MAX_QUESTION:
        return _too_long(
            N_("The question is too long: at most {limit} characters. {usage}"), MAX_QUESTION, _(ASK_AUDIENCE_USAGE)
        )
    return AskAudience(name.text if name else None, question, quoted=name.quoted if name else False)


def _recalibrate(text: str, tokens: list[Token]) -> Command | Usage:
    name = _audience_name(text, tokens, 1)
    if name is not None and len(name) > MAX_NAME:
        return _too_long(AUDIENCE_NAME_TOO_LONG, MAX_NAME, _("Say `/minds recalibrate <audience>`."))
    return Recalibrate(name)
