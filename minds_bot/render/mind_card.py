"""A Mind's card (``/minds mind <name>``, and after it was created, edited or retrained) and the notes about it.

Owns: the card — who the Mind is, its training status in one line (queued, running, ready, failed and whether a
retrain may help, Minds' own message beside it), its knowledge with each source's processing state (all of it: a
long list says how many more there are and where to see them), and its buttons: Refresh, Add knowledge, Retrain
(left out while it trains: Minds answers 409 then), Rebuild prompt (only when training failed for want of a
prompt), Edit, Delete and the ⋯ menu, and a ⋯ menu per knowledge source (``render/mind_extras.py``) — and the
private notes after each action. Every text from Minds or a person is escaped here. Must not touch: I/O.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal

from slack_sdk.models.blocks import ActionsBlock, Block, MarkdownTextObject, SectionBlock

from minds_bot.i18n import N_, _, _n, join_list
from minds_bot.minds import KnowledgeItem, MindDetail, TrainingStatus
from minds_bot.render import MAX_NAME_SHOWN, MAX_REASON_SHOWN, MAX_WORD_SHOWN, Message, escape
from minds_bot.render.common import button, context, encode_value, section, shorten
from minds_bot.render.mind_extras import more_menu, source_menu

Note = Literal[
    "created", "edited", "retrained", "prompted", "added", "removed", "enriched", "renamed"
]  # what just happened, said above the card
MIND_REFRESH_ACTION = "mind_refresh"  # value: {"m": mind id, "n": its name}
MIND_KNOWLEDGE_ACTION = "mind_add_knowledge"
MIND_RETRAIN_ACTION = "mind_retrain"
MIND_PROMPT_ACTION = "mind_prompt"  # offered when training failed for want of a prompt (PROFILE_GEN_FAILED)
NO_PROMPT = "PROFILE_GEN_FAILED"
MIND_EDIT_ACTION = "mind_edit"
MIND_DELETE_ACTION = "mind_delete"
MIND_FORGET_ACTION = "mind_forget"  # cards shown before the source menu: {"m", "n", "i": item id, "d": description}
NAME_IN_VALUE = 80
MAX_SOURCES_SHOWN = 20  # knowledge sources on the card, each with its own Remove button
MAX_BLOCKS_BEFORE_SOURCES = 8

TRAINING_WORDS: Mapping[str, str] = {
    "queued": N_("Training: queued — Minds has not started yet. Refresh to follow it."),
    "running": N_("Training: running — Minds is collecting sources and building the profile. Refresh to follow it."),
    "completed": N_("Training: done — ready to chat (`/minds chat {name}`)."),
}
PROCESSING_WORDS: Mapping[str, str] = {
    "queued": N_("queued"),
    "running": N_("processing"),
    "completed": N_("ready"),
    "failed": N_("failed"),
}


def _mind_value(mind_id: str, name: str) -> str | None:
    return encode_value({"m": mind_id, "n": shorten(name, NAME_IN_VALUE)})


def training_line(training: TrainingStatus, *, name: str) -> str:
    """The card's key line: where training is, in the person's words (mrkdwn)."""
    if training.status == "failed":
        code = escape(training.error.code if training.error else _("no reason given"), limit=MAX_WORD_SHOWN)
        if training.error is not None and training.error.retryable:
            return _("Training: failed ({code}). Retrain may recover it.", code=code)
        return _("Training: failed ({code}). Minds says retraining will not help.", code=code)
    return _(TRAINING_WORDS[training.status], name=escape(name, limit=MAX_NAME_SHOWN))


def _who(mind: MindDetail) -> list[Block]:
    name = escape(mind.name, limit=MAX_NAME_SHOWN)
    head = f"*{name}*"
    if mind.discipline:
        head += " · " + escape(mind.discipline, limit=MAX_NAME_SHOWN)
    if mind.description:
        head += "\n" + escape(mind.description, limit=MAX_REASON_SHOWN)
    return [section(head)]


def _training(training: TrainingStatus | None, *, name: str, error: str | None) -> list[Block]:
    if training is None:
        said = _("Training status could not be read: {reason}", reason=escape(error or "", limit=MAX_REASON_SHOWN))
        return [section(said)]
    blocks: list[Block] = [section(training_line(training, name=name))]
    if training.error is not None and training.error.code == NO_PROMPT:
        blocks.append(context(_("It has no prompt yet: add knowledge, then press *Rebuild prompt*.")))
    if training.message:
        blocks.append(context(_("Minds says: {message}", message=escape(training.message, limit=MAX_REASON_SHOWN))))
    return blocks


def _source(mind: MindDetail, item: KnowledgeItem) -> Block:
    where = item.link or (item.file_path.rsplit("/", 1)[-1] if item.file_path else None)
    state = _(PROCESSING_WORDS[item.processing.status]) if item.processing is not None else _("state not known")
    line = _(
        "• {description} — {where} — {state}",
        description=escape(item.description, limit=MAX_NAME_SHOWN),
        where=escape(where or _("no link or file"), limit=MAX_NAME_SHOWN),
        state=state,
    )
    menu = source_menu(mind.id, item.id)  # Edit description…, Remove…
    if menu is None:
        return section(line)
    return SectionBlock(text=MarkdownTextObject(text=line), accessory=menu)


def _knowledge(mind: MindDetail, items: Sequence[KnowledgeItem] | None, *, error: str | None) -> list[Block]:
    if items is None:
        said = _("Knowledge could not be read: {reason}", reason=escape(error or "", limit=MAX_REASON_SHOWN))
        return [section(said)]
    if not items:
        return [section(_("Knowledge: none added yet."))]
    blocks: list[Block] = [section(_n("Knowledge: {count} source", "Knowledge: {count} sources", len(items)))]
    blocks += [_source(mind, item) for item in items[:MAX_SOURCES_SHOWN]]
    hidden = len(items) - MAX_SOURCES_SHOWN
    if hidden > 0:
        blocks.append(
            context(
                _n(
                    "{count} older source is not shown here; Minds lists every source on the Mind's page.",
                    "{count} older sources are not shown here; Minds lists every source on the Mind's page.",
                    hidden,
                )
            )
        )
    return blocks


def _buttons(mind: MindDetail, training: TrainingStatus | None) -> list[Block]:
    value = _mind_value(mind.id, mind.name)
    if value is None:
        return []
    elements = [
        button(_("Refresh"), action_id=MIND_REFRESH_ACTION, value=value),
        button(_("Add knowledge"), action_id=MIND_KNOWLEDGE_ACTION, value=value, style="primary"),
    ]
    if training is None or training.status in ("completed", "failed"):
        elements.append(button(_("Retrain"), action_id=MIND_RETRAIN_ACTION, value=value))
    if training is not None and training.error is not None and training.error.code == NO_PROMPT:
        elements.append(button(_("Rebuild prompt"), action_id=MIND_PROMPT_ACTION, value=value))
    elements += [
        button(_("Edit"), action_id=MIND_EDIT_ACTION, value=value),
        button(_("Delete"), action_id=MIND_DELETE_ACTION, value=value, style="danger"),
    ]
    menu = more_menu(mind.id)
    return [ActionsBlock(elements=[*elements, menu] if menu is not None else elements)]


def render_mind_card(
    *,
    mind: MindDetail,
    training: TrainingStatus | None,
    knowledge: Sequence[KnowledgeItem] | None,
    training_error: str | None = None,
    knowledge_error: str | None = None,
    note: Note | None = None,
    source: str | None = None,
) -> Message:
    """The card; ``note`` heads it after an action (``source``: the knowledge source it was about; after an
    enrichment, the keywords Minds queued, one a line)."""
    said = _note(note, name=mind.name, source=source or "") if note else None
    blocks: list[Block] = [section(said)] if said else []
    blocks += _who(mind)
    blocks += _training(training, name=mind.name, error=training_error)
    blocks += _knowledge(mind, knowledge, error=knowledge_error)
    blocks += _buttons(mind, training)
    name = escape(mind.name, limit=MAX_NAME_SHOWN)
    status = training_line(training, name=mind.name) if training is not None else _("training status not known")
    text = (said + " " if said else "") + _("Mind {name}: {status}", name=name, status=status)
    return Message(text=text, blocks=blocks)


def _note(note: Note, *, name: str, source: str) -> str:
    if note == "created":
        return _created_note(name)
    if note == "edited":
        return _edited_note(name)
    if note == "retrained":
        return _retrain_note(name)
    if note == "prompted":
        return _("Minds rebuilt *{name}*'s prompt from its knowledge.", name=escape(name, limit=MAX_NAME_SHOWN))
    if note == "added":
        return _knowledge_note(name, source)
    if note == "enriched":
        return _(
            "Minds queued web research on {keywords} for *{name}*'s knowledge; each source is used once it is ready.",
            keywords=join_list(escape(k, limit=MAX_NAME_SHOWN) for k in source.split("\n")),  # one a line
            name=escape(name, limit=MAX_NAME_SHOWN),
        )
    if note == "renamed":
        return _(
            "Saved the description “{description}” of a source of *{name}*'s knowledge in Minds.",
            description=escape(source, limit=MAX_NAME_SHOWN),
            name=escape(name, limit=MAX_NAME_SHOWN),
        )
    return _forgotten_note(name, source)


def _created_note(name: str) -> str:
    return _(
        "Created the Mind *{name}* in Minds. It can chat once training is done.",
        name=escape(name, limit=MAX_NAME_SHOWN),
    )


def _edited_note(name: str) -> str:
    return _("Saved the changes to *{name}* in Minds.", name=escape(name, limit=MAX_NAME_SHOWN))


def _retrain_note(name: str) -> str:
    return _(
        "Minds queued retraining of *{name}* with a full rebuild of its knowledge index.",
        name=escape(name, limit=MAX_NAME_SHOWN),
    )


def _knowledge_note(name: str, description: str) -> str:
    return _(
        "Minds queued “{description}” for *{name}*'s knowledge; it is used once it is ready.",
        name=escape(name, limit=MAX_NAME_SHOWN),
        description=escape(description, limit=MAX_NAME_SHOWN),
    )


def _forgotten_note(name: str, description: str) -> str:
    return _(
        "Removed “{description}” from *{name}*'s knowledge in Minds.",
        name=escape(name, limit=MAX_NAME_SHOWN),
        description=escape(description, limit=MAX_NAME_SHOWN),
    )


def render_deleted(name: str) -> Message:
    text = _(
        "Deleted the Mind *{name}* in Minds, with its knowledge and chat history.",
        name=escape(name, limit=MAX_NAME_SHOWN),
    )
    return Message(text=text, blocks=[section(text)])


def render_still_training(name: str) -> Message:
    text = _(
        "*{name}* is still training, so Minds did not queue another retrain. Refresh the card to follow it.",
        name=escape(name, limit=MAX_NAME_SHOWN),
    )
    return Message(text=text, blocks=[section(text)])


def render_no_prompt(*, name: str, reason: str) -> Message:
    """Minds could not build a prompt (too little knowledge to build from): nothing changed."""
    text = _(
        "Minds could not build a prompt for *{name}*: {reason} Add knowledge, wait until it is ready, then try again.",
        name=escape(name, limit=MAX_NAME_SHOWN),
        reason=escape(reason, limit=MAX_REASON_SHOWN),
    )
    return Message(text=text, blocks=[section(text)])


def render_unconfirmed(*, name: str, reason: str) -> Message:
    """Minds did not confirm a change (no answer, or one that proves nothing): check before trying again."""
    text = _(
        "Minds did not confirm the change to *{name}*: {reason} Check `/minds mind {name}` before trying again.",
        name=escape(name, limit=MAX_NAME_SHOWN),
        reason=escape(reason, limit=MAX_REASON_SHOWN),
    )
    return Message(text=text, blocks=[section(text)])
