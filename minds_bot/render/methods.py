"""Research methods as Minds lists them (``/minds methods [query]``) and the method hint after a plan request.

Owns: one line per method — runnable or not (only ``executable: true`` is called runnable), advanced (needs the
opt-in at approval), complexity, what it needs, outputs, and a fallback named as an alternative to review
(never a substitution) — and the hint that answers "can Minds run the MaxDiff I asked for?". Every Minds text
is escaped. Must not touch: I/O.
"""

from __future__ import annotations

from collections.abc import Sequence

from slack_sdk.models.blocks import Block

from minds_bot.minds import ResearchMethod
from minds_bot.render import MAX_BLOCKS_PER_MESSAGE, MAX_NAME_SHOWN, MAX_REASON_SHOWN, MAX_WORD_SHOWN, Message, escape
from minds_bot.render.common import context, listing, section, sections, shorten

DESCRIPTION_PREVIEW = 160
MAX_WORDS_LISTED = 10  # of what a method needs or outputs
MAX_METHOD_BLOCKS = MAX_BLOCKS_PER_MESSAGE - 3
RUNNABLE_NOTE = "Only methods marked *runnable* can be used in a plan; the others are listed for reference."


def _name(method: ResearchMethod) -> str:
    return escape(method.label, limit=MAX_NAME_SHOWN)


def _words(words: Sequence[str]) -> str:
    return listing(words, most=MAX_WORDS_LISTED, limit=MAX_WORD_SHOWN)


def _by_id(methods: Sequence[ResearchMethod], method_id: str | None) -> str | None:
    if method_id is None:
        return None
    found = next((m for m in methods if m.id == method_id), None)
    return _name(found) if found else f"`{escape(method_id, limit=MAX_NAME_SHOWN)}`"


def state_words(method: ResearchMethod) -> str:
    """Runnable or not, in Minds' own availability words when not."""
    if method.executable:
        return "runnable" + (" · advanced: the approver ticks the advanced-method opt-in" if method.advanced else "")
    why = f" ({escape(method.availability, limit=MAX_WORD_SHOWN)})" if method.availability else ""
    return f"not runnable{why}"


def method_line(method: ResearchMethod, methods: Sequence[ResearchMethod]) -> str:
    parts = [f"*{_name(method)}* (`{escape(method.id, limit=MAX_NAME_SHOWN)}`) — {state_words(method)}"]
    if method.complexity:
        parts.append(f"complexity: {escape(method.complexity, limit=MAX_WORD_SHOWN)}")
    if method.requires:
        parts.append("needs: " + _words(method.requires))
    if method.output_types:
        parts.append("outputs: " + _words(method.output_types))
    fallback = _by_id(methods, method.fallback_method_id) if not method.executable else None
    if fallback:
        parts.append(f"alternative to review: {fallback}")
    line = " · ".join(parts)
    if method.description:
        line += f"\n   {escape(shorten(method.description, DESCRIPTION_PREVIEW))}"
    return f"• {line}"


def matches(method: ResearchMethod, query: str) -> bool:
    haystack = " ".join([method.id, method.name or "", method.description or "", *method.output_types]).lower()
    return all(word in haystack for word in query.lower().split())


def render_methods(methods: Sequence[ResearchMethod], *, query: str | None = None) -> Message:
    """The catalogue (runnable first), filtered by ``query`` when given."""
    chosen = [m for m in methods if matches(m, query)] if query else list(methods)
    if not chosen:
        typed = escape(query or "", limit=MAX_NAME_SHOWN)
        text = f"No research method in Minds matches “{typed}”." if query else "Minds lists no research methods."
        return Message(text=text, blocks=[section(text), context("`/minds methods` lists every method.")])
    ordered = sorted(chosen, key=lambda m: (not m.executable, m.label.lower()))
    runnable = sum(1 for m in ordered if m.executable)
    title = f"Research methods in Minds: {runnable} of {len(ordered)} runnable"
    if query:
        title += f" (matching “{escape(query, limit=MAX_NAME_SHOWN)}”)"
    body = sections("\n".join(method_line(m, methods) for m in ordered))
    blocks: list[Block] = [section(f"*{title}*"), *body[:MAX_METHOD_BLOCKS], context(RUNNABLE_NOTE)]
    if len(body) > MAX_METHOD_BLOCKS:
        blocks.insert(-1, context("More methods than one message holds: narrow with `/minds methods &lt;query&gt;`."))
    return Message(text=title, blocks=blocks)


def hint_line(label: str, method: ResearchMethod | None, methods: Sequence[ResearchMethod]) -> str:
    if method is None:
        return (
            f"• *{escape(label, limit=MAX_NAME_SHOWN)}*: not in Minds' method catalogue, so the plan cannot promise it."
        )
    if method.executable:
        extra = " It is an advanced method: the approver ticks the opt-in." if method.advanced else ""
        return f"• *{escape(label, limit=MAX_NAME_SHOWN)}*: Minds can run it as *{_name(method)}*.{extra}"
    fallback = _by_id(methods, method.fallback_method_id)
    alternative = f" An alternative to review: {fallback}." if fallback else ""
    name = escape(label, limit=MAX_NAME_SHOWN)
    return f"• *{name}*: listed by Minds but {state_words(method)}, so it will not run.{alternative}"


def render_method_hint(
    mentions: Sequence[tuple[str, ResearchMethod | None]], *, methods: Sequence[ResearchMethod]
) -> Message:
    """Private note after a plan request that names methods: which Minds can run, checked with Minds."""
    lines = [hint_line(label, method, methods) for label, method in mentions]
    text = "Methods you asked for, as Minds lists them:\n" + "\n".join(lines)
    return Message(
        text="Methods you asked for, as Minds lists them",
        blocks=[*sections(text), context("The plan names the methods it uses; `/minds methods` lists them all.")],
    )


def render_methods_unreadable(reason: str) -> Message:
    said = escape(reason, limit=MAX_REASON_SHOWN)
    text = f"Could not check the methods you asked for with Minds: {said} The plan will name the methods it uses."
    return Message(text=text, blocks=[section(text)])
