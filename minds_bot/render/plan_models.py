"""The model picker above Approve & run: Minds' own models by default, each verified model connection of the team
as a choice, unverified ones named but never offered, and what the plan says when the list cannot be read.

Owns: ``PlanConnections`` (what the flow read from Minds), ``connection_label``, the picker's ids
(``ACTION_MODEL``, ``BLOCK_MODEL``, ``PLATFORM_MODELS``) and its blocks. Minds' words are escaped in mrkdwn.
Pure: no I/O. Must not touch: the rest of the plan message (``render/plan.py``), Minds calls, the store.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from slack_sdk.models.blocks import ActionsBlock, Block, Option, StaticSelectElement

from minds_bot.i18n import _
from minds_bot.minds import ModelConnection
from minds_bot.render import MAX_REASON_SHOWN, escape
from minds_bot.render.common import context, listing, shorten

ACTION_MODEL = "plan_model_connection"  # the picked option's value travels with the Approve click
BLOCK_MODEL = "plan_model_block"
PLATFORM_MODELS = "minds"  # the picker's default: Minds' own models answer
MAX_OPTION_VALUE = 150
MAX_MODEL_OPTIONS = 99  # and Minds' own models: Slack's 100


@dataclass(frozen=True)
class PlanConnections:
    """The team's model connections as Minds listed them for the plan message; ``unreadable``: why the list
    could not be read (then the run uses Minds' own models, and the plan says so)."""

    connections: Sequence[ModelConnection]
    unreadable: str | None = None


def connection_label(connection: ModelConnection) -> str:
    """Plain words naming a connection: its name (or id) and revision."""
    name = connection.name or connection.id
    if connection.revision is None:
        return name
    return _("{connection} (revision {revision})", connection=name, revision=connection.revision)


def _pickable(connection: ModelConnection) -> bool:
    return connection.verified and isinstance(connection.revision, int) and len(connection.id) <= MAX_OPTION_VALUE


def model_blocks(choices: PlanConnections | None) -> list[Block]:
    """Minds' own models unless the approver picks a verified connection; nothing when the team has none."""
    if choices is None:
        return []
    if choices.unreadable is not None:
        said = escape(choices.unreadable, limit=MAX_REASON_SHOWN)
        return [
            context(
                _(
                    "Model connections could not be read from Minds ({reason}): this plan runs on Minds' models.",
                    reason=said,
                )
            )
        ]
    pickable = [c for c in choices.connections if _pickable(c)][:MAX_MODEL_OPTIONS]
    others = [connection_label(c) for c in choices.connections if not c.verified]
    blocks: list[Block] = []
    if pickable:
        platform = Option(value=PLATFORM_MODELS, text=_("Minds' own models"))
        options = [platform, *(Option(value=c.id, text=shorten(connection_label(c), 75)) for c in pickable)]
        picker = StaticSelectElement(action_id=ACTION_MODEL, options=options, initial_option=platform)
        blocks.append(ActionsBlock(block_id=BLOCK_MODEL, elements=[picker]))
    if pickable or others:
        if others:
            note = _(
                "Which models answer: Minds' own models unless you pick a verified model connection before approving. "
                "Not verified, so not offered: {connections}.",
                connections=listing(others, most=10),
            )
        else:
            note = _(
                "Which models answer: Minds' own models unless you pick a verified model connection before approving."
            )
        blocks.append(context(note))
    return blocks
