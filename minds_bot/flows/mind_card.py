"""A Mind's card and what is done with it: create, read (with training and knowledge), edit, retrain, add or remove
knowledge, delete — each asked of the gate first.

Owns: ``may`` (the gate, ``flows/access.py``: seeing a card is ``SEE`` in the channel it is shown in; creating,
training, editing and deleting a Mind act for the workspace's Minds account, ``MANAGE_WORKSPACE`` — an admin or
the person who installed the app, in the channel — asked on the server from the submitter, never from a payload),
``read_mind_card`` (the Mind must be readable; a training or knowledge read that fails is kept as the reason, so
the card says "could not be read" instead of guessing; a source listed without its processing state is asked for
it), ``NewMind`` and ``new_mind_errors`` (``create_mind``'s
rules per mode, said on the dialog's field), and the writes with the notes the person reads. After a create the
card shows training (catalogue rule 64: the Mind's training is read, never assumed); a write Minds did not
confirm says to check the Mind before trying again (rule 26).
Must not touch: Block Kit (``render/mind_card.py``, ``render/mind_dialogs.py``) or SQL.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import TypeVar
from urllib.parse import urlsplit

from minds_bot.flows import access
from minds_bot.flows.invocation import Invocation
from minds_bot.i18n import _
from minds_bot.minds import KnowledgeItem, MindDetail, MindsClient, MindsError, TrainingStatus
from minds_bot.render.errors import user_message
from minds_bot.render.mind_card import MAX_SOURCES_SHOWN, Note, render_mind_card
from minds_bot.render.mind_dialogs import (
    DISCIPLINE_BLOCK,
    KEYWORDS_BLOCK,
    MAX_MIND_NAME,
    MIN_NAME,
    NAME_BLOCK,
    PAGE_BLOCK,
    PERSON_BLOCK,
)

T = TypeVar("T")
MAX_KEYWORD_COUNT = 20


@dataclass(frozen=True)
class MindCard:
    mind: MindDetail
    training: TrainingStatus | None
    knowledge: list[KnowledgeItem] | None
    training_error: str | None = None
    knowledge_error: str | None = None


async def may(invocation: Invocation, act: access.Act) -> access.Decision:
    """The gate's answer for this person, here; a refusal is said to them privately."""
    decision = await access.check(
        invocation.services,
        invocation.client,
        team_id=invocation.team_id,
        user_id=invocation.user_id,
        act=act,
        channel_id=invocation.channel_id,
    )
    if decision.refused:
        await invocation.say_mrkdwn(decision.reason)
    return decision


async def read_mind_card(minds: MindsClient, mind_id: str) -> MindCard:
    mind, training, knowledge = await asyncio.gather(
        minds.get_mind(mind_id), _kept(minds.mind_training(mind_id)), _kept(minds.list_mind_knowledge(mind_id))
    )
    return MindCard(
        mind=mind,
        training=training if isinstance(training, TrainingStatus) else None,
        knowledge=await _with_states(minds, mind_id, knowledge.items) if not isinstance(knowledge, str) else None,
        training_error=training if isinstance(training, str) else None,
        knowledge_error=knowledge if isinstance(knowledge, str) else None,
    )


async def _with_states(minds: MindsClient, mind_id: str, items: list[KnowledgeItem]) -> list[KnowledgeItem]:
    """The sources as listed; one listed without its processing state (an older source) is asked for it once
    (``GET …/knowledge/{itemId}/status``), among those the card shows. A status that cannot be read leaves it
    "not known"."""
    unknown = [item for item in items[:MAX_SOURCES_SHOWN] if item.processing is None]
    states = await asyncio.gather(*(_kept(minds.mind_knowledge_status(mind_id, item.id)) for item in unknown))
    read = {
        item.id: state.processing
        for item, state in zip(unknown, states, strict=True)
        if not isinstance(state, str) and state.processing is not None
    }
    return [item.model_copy(update={"processing": read[item.id]}) if item.id in read else item for item in items]


async def _kept(work: Awaitable[T]) -> T | str:
    try:
        return await work
    except MindsError as exc:
        return user_message(exc)


async def show_card(
    invocation: Invocation,
    mind_id: str,
    *,
    note: Note | None = None,
    source: str | None = None,
    replace: bool = False,
) -> None:
    """Read the Mind again and answer with its card (privately), ``note`` saying what just happened; ``replace``:
    in place of the card whose button was pressed."""
    card = await read_mind_card(await invocation.minds(), mind_id)
    await invocation.reply(
        render_mind_card(
            mind=card.mind,
            training=card.training,
            knowledge=card.knowledge,
            training_error=card.training_error,
            knowledge_error=card.knowledge_error,
            note=note,
            source=source,
        ),
        replace=replace,
    )


# --- a new Mind ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class NewMind:
    """What the create dialog holds, trimmed (None: left empty)."""

    name: str | None
    discipline: str | None
    description: str | None
    mode: str
    mind_type: str
    keywords: str | None
    person: str | None
    page: str | None
    web_search: bool = True

    @property
    def keyword_list(self) -> list[str]:
        return [k.strip() for k in (self.keywords or "").split(",") if k.strip()]


def new_mind_errors(new: NewMind) -> dict[str, str]:
    """Each field that breaks ``create_mind``'s rules → what the dialog says on it (empty: fine)."""
    errors: dict[str, str] = {}
    if new.name is None or not MIN_NAME <= len(new.name) <= MAX_MIND_NAME:
        errors[NAME_BLOCK] = _("A name of {low} to {high} characters.", low=MIN_NAME, high=MAX_MIND_NAME)
    if new.discipline is None:
        errors[DISCIPLINE_BLOCK] = _("Minds needs the Mind's area of expertise.")
    if new.mode == "keywords" and not new.keyword_list:
        errors[KEYWORDS_BLOCK] = _("Training from keywords needs at least one keyword.")
    elif new.mode == "keywords" and len(new.keyword_list) > MAX_KEYWORD_COUNT:
        errors[KEYWORDS_BLOCK] = _("At most {limit} keywords.", limit=MAX_KEYWORD_COUNT)
    if new.mode == "clone" and new.person is None:
        errors[PERSON_BLOCK] = _("A digital twin needs the person to model: their name and some context.")
    if new.mode == "link" and not is_web_address(new.page):
        errors[PAGE_BLOCK] = _("Training from a web page needs its address (https://…).")
    return errors


def is_web_address(text: str | None) -> bool:
    try:
        parts = urlsplit(text or "")
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and bool(parts.netloc)


async def create(minds: MindsClient, new: NewMind, *, key: str) -> str:
    """Create the Mind under ``key`` (chosen when the dialog opened); its id."""
    created = await minds.create_mind(
        name=new.name or "",
        discipline=new.discipline or "",
        mode=new.mode,
        idempotency_key=key,
        description=new.description,
        mind_type=new.mind_type,
        keywords=new.keyword_list if new.mode == "keywords" else None,
        persona_context=new.person if new.mode == "clone" else None,
        context_link=new.page if new.mode == "link" else None,
        include_web_search=None if new.web_search else False,
    )
    return created.data.id


def file_name(address: str) -> str:
    """The name Minds stores a file under: the last part of its address's path (``document`` if it has none)."""
    path = urlsplit(address).path.rstrip("/")
    return path.rsplit("/", 1)[-1] or "document"
