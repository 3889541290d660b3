"""Pieces every ``/minds`` renderer shares: text that fits Slack's limits, paging buttons, candidate buttons.

Owns: splitting long text into sections (never cutting silently), visible shortening with "…" where a line is
only a preview, the button value codec (compact JSON; state in a value is for paging and re-running a command,
it grants nothing; a value or ``private_metadata`` longer than Slack lets the bot write is refused unread), short
private notes (``note``: the words escaped), a question's label ("Q6", through the catalogs), the "which one did
you mean?" and "nothing named …" messages (``lookup_explanation``: why a name lookup found nothing), and the
action ids of the buttons these messages carry.
Must not touch: I/O of any kind.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any, Literal

from slack_sdk.models.blocks import (
    ActionsBlock,
    Block,
    ButtonElement,
    ContextBlock,
    MarkdownTextObject,
    SectionBlock,
)

from minds_bot.i18n import N_, _, _n, join_list, sentences
from minds_bot.minds.lookup import Candidate, LookupResult
from minds_bot.render import MAX_NAME_SHOWN, MAX_SECTION_TEXT, MAX_WORD_SHOWN, Message, escape

MAX_BUTTON_VALUE = 2000
MAX_PRIVATE_METADATA = 3000
MAX_BUTTON_TEXT = 75
MAX_ACTIONS_PER_BLOCK = 25
MAX_QUERY_SHOWN = 200  # what someone typed, said back to them
RERUN_ACTION = "minds_rerun"  # value: the text of a ``/minds`` command to run as the clicking user


def slack_date(moment: datetime) -> str:
    """A date and time Slack shows in each reader's own language, format and timezone; the fallback is UTC."""
    fallback = moment.strftime("%Y-%m-%d %H:%M UTC")
    return f"<!date^{int(moment.timestamp())}^{{date_short_pretty}} {{time}}|{fallback}>"


def question_label(number: int) -> str:
    """A question's label by its number in its run ("Q6"), through the catalogs: the same in thread and report."""
    # i18n: A question's label: Q and its number in its run (Q6). Keep the letter Q: Minds' reports label
    # i18n: questions so, and the thread says the report labels them the same way.
    return _("Q{number}", number=number)


def shorten(text: str, limit: int) -> str:
    """A preview of ``text`` in at most ``limit`` characters; a visible "…" says when something was left out."""
    flat = " ".join(text.split())
    if len(flat) <= limit:
        return flat
    return flat[: max(0, limit - 1)].rstrip() + "…"


def split_text(text: str, limit: int = MAX_SECTION_TEXT) -> list[str]:
    """Split at paragraph, then line, then word boundaries into chunks of at most ``limit`` characters.
    Joining the chunks with newlines gives back every word: nothing is dropped."""
    chunks: list[str] = []
    current = ""
    for piece in _pieces(text, limit):
        candidate = f"{current}\n{piece}" if current else piece
        if len(candidate) <= limit:
            current = candidate
            continue
        chunks.append(current)
        current = piece
    if current:
        chunks.append(current)
    return chunks


def _pieces(text: str, limit: int) -> Iterable[str]:
    for line in text.strip().split("\n"):
        while len(line) > limit:
            cut = line.rfind(" ", 0, limit)
            cut = cut if cut > limit // 2 else limit
            yield line[:cut]
            line = line[cut:].lstrip()
        yield line


def listing(items: Sequence[str], *, most: int = 20, limit: int = MAX_NAME_SHOWN) -> str:
    """Names from Minds or people, escaped and shortened, listed as the spoken language lists them ("A, B",
    Chinese "A、B"); past ``most`` the rest are counted."""
    shown = join_list(escape(item, limit=limit) for item in items[:most])
    if len(items) <= most:
        return shown
    return _n("{names} and {count} more", "{names} and {count} more", len(items) - most, names=shown)


def sections(text: str) -> list[Block]:
    return [SectionBlock(text=MarkdownTextObject(text=chunk)) for chunk in split_text(text) if chunk.strip()]


def section(text: str) -> SectionBlock:
    return SectionBlock(text=MarkdownTextObject(text=text))


def context(text: str) -> ContextBlock:
    return ContextBlock(elements=[MarkdownTextObject(text=text)])


def encode_value(state: dict[str, Any]) -> str | None:
    """Compact JSON for a button value, or None when it would not fit (then the button is left out)."""
    value = json.dumps(state, separators=(",", ":"), ensure_ascii=False)
    return value if len(value) <= MAX_BUTTON_VALUE else None


def plain_value(value: object, *, limit: int = MAX_BUTTON_VALUE) -> str | None:
    """A button value (or ``private_metadata``, with its limit) as the bot could have written it: a string no
    longer than Slack allows. Anything else is None, so a forged 40,000-character value is never read further."""
    return value if isinstance(value, str) and len(value) <= limit else None


def decode_value(value: object, *, limit: int = MAX_BUTTON_VALUE) -> dict[str, Any]:
    """A JSON button value (or ``private_metadata``) we wrote; anything else (edited, truncated, over Slack's
    limit) is an empty dict."""
    try:
        decoded = json.loads(plain_value(value, limit=limit) or "")
    except ValueError:
        return {}
    return decoded if isinstance(decoded, dict) else {}


def decode_metadata(value: object) -> dict[str, Any]:
    """A modal's ``private_metadata`` we wrote as JSON; anything else is an empty dict."""
    return decode_value(value, limit=MAX_PRIVATE_METADATA)


def render_stale_button() -> Message:
    """A button whose value the bot could not have written (forged, or from an older version)."""
    return note(_("That button is out of date; run the command again."))


def note(text: str) -> Message:
    """A short private note: ``text`` (plain words, possibly with someone's input in it) escaped, as the fallback
    and as one section (shortened with "…" past one section)."""
    shown = escape(text, limit=MAX_SECTION_TEXT)
    return Message(text=shown, blocks=[section(shown)])


def button(
    text: str, *, action_id: str, value: str | None = None, style: str | None = None, **extra: Any
) -> ButtonElement:
    return ButtonElement(text=shorten(text, MAX_BUTTON_TEXT), action_id=action_id, value=value, style=style, **extra)


def pager(
    *, prev_id: str, next_id: str, prev_state: dict[str, Any] | None, next_state: dict[str, Any] | None
) -> list[Block]:
    """Previous/Next buttons for whichever direction has more."""
    elements = []
    for label, action_id, state in ((_("Previous"), prev_id, prev_state), (_("Next"), next_id, next_state)):
        value = encode_value(state) if state is not None else None
        if value is not None:
            elements.append(button(label, action_id=action_id, value=value))
    return [ActionsBlock(elements=elements)] if elements else []


def rerun_value(command_text: str) -> str | None:
    return command_text if len(command_text) <= MAX_BUTTON_VALUE else None


# What ``render_candidates`` says for each kind of item: (one loose match, several matches).
CANDIDATE_LEADS = {
    "Study": (N_("Did you mean this Study?"), N_("Several Studies match “{query}”. Which one did you mean?")),
    "Audience": (
        N_("Did you mean this Audience?"),
        N_("Several Audiences match “{query}”. Which one did you mean?"),
    ),
    "Mind": (N_("Did you mean this Mind?"), N_("Several Minds match “{query}”. Which one did you mean?")),
}


def render_candidates(
    *, what: str, query: str, candidates: Sequence[Candidate[Any]], rerun: Any, fuzzy: bool = False
) -> Message:
    """Several items match (or one only loosely): one button per candidate re-runs the command with its id."""
    typed = escape(query, limit=MAX_QUERY_SHOWN)
    if what in CANDIDATE_LEADS:
        lead = _(CANDIDATE_LEADS[what][0 if fuzzy else 1], query=typed)
    else:
        noun = escape(what, limit=MAX_WORD_SHOWN)
        lead = (
            _("Did you mean this {noun}?", noun=noun)
            if fuzzy
            else _("Several {noun}s match “{query}”. Which one did you mean?", noun=noun, query=typed)
        )
    buttons = []
    for candidate in candidates[:MAX_ACTIONS_PER_BLOCK]:
        value = rerun_value(rerun(candidate.item.id))
        if value is not None:
            buttons.append(button(candidate.item.name, action_id=f"{RERUN_ACTION}:{candidate.item.id}", value=value))
    blocks: list[Block] = [section(lead)]
    if buttons:
        blocks.append(ActionsBlock(elements=buttons))
    else:
        blocks.append(context(_("The command is too long to repeat from a button; type it again with the exact id.")))
    return Message(text=lead, blocks=blocks)


def render_not_exact(
    *, what: Literal["Study", "Audience"] = "Study", query: str, candidates: Sequence[Candidate[Any]], usage: str
) -> Message:
    """An unquoted Study or Audience name (``what``) followed by more words matched none exactly: nothing is sent
    and no button is offered (a button could only re-run the command with the words as typed, so a question would
    carry a word of the name). The closest names are shown as text; ``usage`` says how to quote the name."""
    said = _(NOT_EXACT[what], query=escape(query, limit=MAX_QUERY_SHOWN))
    names = [_("“{name}”", name=escape(c.item.name, limit=MAX_NAME_SHOWN)) for c in candidates[:MAX_CLOSEST_SHOWN]]
    closest = _("Closest: {names}.", names=join_list(names)) if names else None
    text = sentences(said, closest)
    return Message(text=text, blocks=[section(text), context(escape(usage, limit=MAX_SECTION_TEXT))])


NOT_EXACT = {
    "Study": N_(
        "No Study is named exactly “{query}”, so nothing was sent. Put a Study name with spaces in quotes "
        "(or use its id), so the words after it are exactly what is sent."
    ),
    "Audience": N_(
        "No Audience is named exactly “{query}”, so nothing was sent. Put an Audience name with spaces in quotes "
        "(or use its id), so the words after it are exactly what is sent."
    ),
}
MAX_CLOSEST_SHOWN = 3


LIST_COMMANDS = {"Study": "studies", "Audience": "audiences", "Mind": "minds"}
NOT_FOUND = {
    "Study": N_("No Study named “{query}”."),
    "Audience": N_("No Audience named “{query}”."),
    "Mind": N_("No Mind named “{query}”."),
}


def lookup_explanation(result: LookupResult[Any]) -> str:
    """Why nothing matched (empty unless ``result`` is "not found"); says when older items were not searched."""
    if result.kind != "not_found":
        return ""
    if result.exhaustive:
        # i18n: {scanned} is how many Studies, Audiences or Minds were searched; {query} is the name typed.
        return _n(
            "Nothing named “{query}” among all {scanned} item.",
            "Nothing named “{query}” among all {scanned} items.",
            result.scanned,
            query=result.query,
            scanned=result.scanned,
        )
    # i18n: {scanned} is how many Studies, Audiences or Minds were searched; {query} is the name typed.
    return _n(
        "Nothing named “{query}” among the newest {scanned} item. Older items can only be opened by their exact id.",
        "Nothing named “{query}” among the newest {scanned} items. Older items can only be opened by their exact id.",
        result.scanned,
        query=result.query,
        scanned=result.scanned,
    )


def render_not_found(*, what: str, result: LookupResult[Any]) -> Message:
    """Nothing matched: say so, and that only the newest items were searched when that is the case."""
    explanation = lookup_explanation(result)
    if explanation:
        said = explanation
    elif what in NOT_FOUND:
        said = _(NOT_FOUND[what], query=result.query)
    else:
        said = _("No {noun} named “{query}”.", noun=what, query=result.query)
    text = escape(said, limit=MAX_SECTION_TEXT)
    listing = escape(LIST_COMMANDS.get(what, what.lower() + "s"), limit=MAX_WORD_SHOWN)
    hint = _("`/minds {command}` lists them; an exact id always works.", command=listing)
    return Message(text=text, blocks=[section(text), context(hint)])
