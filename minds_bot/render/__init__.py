"""Pure rendering: domain objects in, Block Kit (``slack_sdk.models``) plus fallback text out. No I/O here."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from slack_sdk.models.blocks import Block

MAX_BLOCKS_PER_MESSAGE = 50
MAX_BLOCKS_PER_VIEW = 100
MAX_SECTION_TEXT = 3000


def escape(text: str) -> str:
    """Escape text for Slack mrkdwn: ``&``, ``<`` and ``>`` are control characters there."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


@dataclass(frozen=True)
class Message:
    """A Slack message ready to send: notification/fallback text and validated blocks."""

    text: str
    blocks: list[Block] = field(default_factory=list)

    def __post_init__(self) -> None:
        if len(self.blocks) > MAX_BLOCKS_PER_MESSAGE:
            raise ValueError(f"a message holds at most {MAX_BLOCKS_PER_MESSAGE} blocks; page the content instead")
        for block in self.blocks:
            block.validate_json()

    def as_kwargs(self) -> dict[str, Any]:
        return {"text": self.text, "blocks": [b.to_dict() for b in self.blocks]}
