"""The ``/minds connect`` modal and its answers. Pure."""

from __future__ import annotations

from slack_sdk.models.blocks import (
    ContextBlock,
    InputBlock,
    MarkdownTextObject,
    PlainTextInputElement,
    SectionBlock,
)
from slack_sdk.models.views import View

CONNECT_CALLBACK = "connect_minds"
KEY_BLOCK = "minds_key"
KEY_ACTION = "minds_key_input"


def render_connect_modal(*, channel_id: str, current_account: str | None) -> View:
    status = (
        f"This workspace is connected to Minds as *{current_account}*. A new key replaces it."
        if current_account
        else "This workspace is not connected to Minds yet."
    )
    return View(
        type="modal",
        callback_id=CONNECT_CALLBACK,
        private_metadata=channel_id,
        title="Connect Minds",
        submit="Connect",
        close="Cancel",
        blocks=[
            SectionBlock(text=MarkdownTextObject(text=status)),
            InputBlock(
                block_id=KEY_BLOCK,
                label="Minds API key",
                element=PlainTextInputElement(action_id=KEY_ACTION, placeholder="minds_…", max_length=200),
                hint="Create one in Minds under Settings → API Keys. It is stored encrypted and never shown again.",
            ),
            ContextBlock(
                elements=[MarkdownTextObject(text="Everyone in this workspace will use this Minds account's plan.")]
            ),
        ],
    )


def connected_text(account: str) -> str:
    return f"Minds is connected as *{account}*. Try `/minds studies`."
