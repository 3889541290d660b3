"""Research methods as Minds lists them (``/minds methods [query]``) and the method hint after a plan request.

Owns: one line per method — its catalogue values in the language spoken (``render/method_words.py``) —
runnable or not (only ``executable: true`` is called runnable), advanced (needs the
opt-in at approval), complexity, what it needs, outputs, and a fallback named as an alternative to review
(never a substitution) — and the hint that answers "can Minds run the MaxDiff I asked for?". Every Minds text
is escaped. Must not touch: I/O.
"""

from __future__ import annotations

from collections.abc import Sequence

from slack_sdk.models.blocks import Block

from minds_bot.i18n import N_, _, annotate, separated
from minds_bot.minds import ResearchMethod
from minds_bot.render import MAX_BLOCKS_PER_MESSAGE, MAX_NAME_SHOWN, MAX_REASON_SHOWN, Message, escape
from minds_bot.render.common import context, section, sections, shorten
from minds_bot.render.method_words import availability, complexity, method_name, needs, output_words, outputs

DESCRIPTION_PREVIEW = 160
MAX_METHOD_BLOCKS = MAX_BLOCKS_PER_MESSAGE - 3
RUNNABLE_NOTE = N_("Only methods marked *runnable* can be used in a plan; the others are listed for reference.")


def _name(method: ResearchMethod) -> str:
    return method_name(method.label)


def _by_id(methods: Sequence[ResearchMethod], method_id: str | None) -> str | None:
    if method_id is None:
        return None
    found = next((m for m in methods if m.id == method_id), None)
    return _name(found) if found else f"`{escape(method_id, limit=MAX_NAME_SHOWN)}`"


def state_words(method: ResearchMethod) -> str:
    """Runnable or not, in Minds' own availability words when not."""
    if method.executable and method.advanced:
        return _("runnable · advanced: the approver ticks the advanced-method opt-in")
    if method.executable:
        return _("runnable")
    if method.availability:
        return _("not runnable ({availability})", availability=availability(method.availability))
    return _("not runnable")


def method_line(method: ResearchMethod, methods: Sequence[ResearchMethod]) -> str:
    named = annotate(f"*{_name(method)}*", f"`{escape(method.id, limit=MAX_NAME_SHOWN)}`")
    parts = [f"{named} — {state_words(method)}"]
    if method.complexity:
        parts.append(_("complexity: {complexity}", complexity=complexity(method.complexity)))
    if method.requires:
        parts.append(_("needs: {items}", items=needs(method.requires)))
    if method.output_types:
        parts.append(_("outputs: {items}", items=outputs(method.output_types)))
    fallback = _by_id(methods, method.fallback_method_id) if not method.executable else None
    if fallback:
        parts.append(_("alternative to review: {method}", method=fallback))
    line = separated(parts)
    if method.description:
        line += f"\n   {escape(shorten(method.description, DESCRIPTION_PREVIEW))}"
    return f"• {line}"


def matches(method: ResearchMethod, query: str) -> bool:
    said = [output_words(method.output_types), method_name(method.name) if method.name else ""]
    haystack = " ".join([method.id, method.name or "", method.description or "", *said]).lower()
    return all(word in haystack for word in query.lower().split())


def render_methods(methods: Sequence[ResearchMethod], *, query: str | None = None) -> Message:
    """The catalogue (runnable first), filtered by ``query`` when given."""
    chosen = [m for m in methods if matches(m, query)] if query else list(methods)
    if not chosen:
        typed = escape(query or "", limit=MAX_NAME_SHOWN)
        if query:
            text = _("No research method in Minds matches “{query}”.", query=typed)
        else:
            text = _("Minds lists no research methods.")
        return Message(text=text, blocks=[section(text), context(_("`/minds methods` lists every method."))])
    ordered = sorted(chosen, key=lambda m: (not m.executable, m.label.lower()))
    runnable = sum(1 for m in ordered if m.executable)
    if query:
        title = _(
            "Research methods in Minds: {runnable} of {total} runnable (matching “{query}”)",
            runnable=runnable,
            total=len(ordered),
            query=escape(query, limit=MAX_NAME_SHOWN),
        )
    else:
        title = _("Research methods in Minds: {runnable} of {total} runnable", runnable=runnable, total=len(ordered))
    body = sections("\n".join(method_line(m, methods) for m in ordered))
    blocks: list[Block] = [section(f"*{title}*"), *body[:MAX_METHOD_BLOCKS], context(_(RUNNABLE_NOTE))]
    if len(body) > MAX_METHOD_BLOCKS:
        narrow = _("More methods than one message holds: narrow with `/minds methods &lt;query&gt;`.")
        blocks.insert(-1, context(narrow))
    return Message(text=title, blocks=blocks)


def hint_line(label: str, method: ResearchMethod | None, methods: Sequence[ResearchMethod]) -> str:
    return f"• {_hint(escape(label, limit=MAX_NAME_SHOWN), method, methods)}"


def _hint(label: str, method: ResearchMethod | None, methods: Sequence[ResearchMethod]) -> str:
    if method is None:
        return _("*{label}*: not in Minds' method catalogue, so the plan cannot promise it.", label=label)
    if method.executable and method.advanced:
        return _(
            "*{label}*: Minds can run it as *{method}*. It is an advanced method: the approver ticks the opt-in.",
            label=label,
            method=_name(method),
        )
    if method.executable:
        return _("*{label}*: Minds can run it as *{method}*.", label=label, method=_name(method))
    fallback = _by_id(methods, method.fallback_method_id)
    if not method.availability:
        if fallback:
            return _(
                "*{label}*: listed by Minds but not runnable, so it will not run. An alternative to review: "
                "{alternative}.",
                label=label,
                alternative=fallback,
            )
        return _("*{label}*: listed by Minds but not runnable, so it will not run.", label=label)
    why = availability(method.availability)
    if fallback:
        return _(
            "*{label}*: listed by Minds but not runnable ({availability}), so it will not run. An alternative to "
            "review: {alternative}.",
            label=label,
            availability=why,
            alternative=fallback,
        )
    return _(
        "*{label}*: listed by Minds but not runnable ({availability}), so it will not run.",
        label=label,
        availability=why,
    )


def render_method_hint(
    mentions: Sequence[tuple[str, ResearchMethod | None]], *, methods: Sequence[ResearchMethod]
) -> Message:
    """Private note after a plan request that names methods: which Minds can run, checked with Minds."""
    lines = [hint_line(label, method, methods) for label, method in mentions]
    text = _("Methods you asked for, as Minds lists them:") + "\n" + "\n".join(lines)
    return Message(
        text=_("Methods you asked for, as Minds lists them"),
        blocks=[*sections(text), context(_("The plan names the methods it uses; `/minds methods` lists them all."))],
    )


def render_methods_unreadable(reason: str) -> Message:
    said = escape(reason, limit=MAX_REASON_SHOWN)
    text = _(
        "Could not check the methods you asked for with Minds: {reason} The plan will name the methods it uses.",
        reason=said,
    )
    return Message(text=text, blocks=[section(text)])
