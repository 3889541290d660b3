"""The ``/minds connect`` modal and its answers (the account name Minds returned is escaped). Pure."""

from __future__ import annotations

from slack_sdk.models.blocks import (
    CheckboxesElement,
    ContextBlock,
    InputBlock,
    MarkdownTextObject,
    Option,
    PlainTextInputElement,
    SectionBlock,
)
from slack_sdk.models.views import View

from minds_bot.render import MAX_NAME_SHOWN, escape

CONNECT_CALLBACK = "connect_minds"
KEY_BLOCK = "minds_key"
KEY_ACTION = "minds_key_input"
BROADCAST_BLOCK = "broadcast_results"
BROADCAST_ACTION = "broadcast_results_input"
BROADCAST_VALUE = "broadcast"
BROADCAST_OPTION = Option(value=BROADCAST_VALUE, text="Also post each run's final result to the channel")


def render_connect_modal(*, channel_id: str, current_account: str | None, broadcast: bool = False) -> View:
    status = (
        f"This workspace is connected to Minds as *{escape(current_account, limit=MAX_NAME_SHOWN)}*. "
        "A new key replaces it."
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
            InputBlock(
                block_id=BROADCAST_BLOCK,
                label="Results",
                optional=True,
                element=CheckboxesElement(
                    action_id=BROADCAST_ACTION,
                    options=[BROADCAST_OPTION],
                    initial_options=[BROADCAST_OPTION] if broadcast else None,
                ),
                hint="Otherwise results stay in the run's thread.",
            ),
            ContextBlock(
                elements=[MarkdownTextObject(text="Everyone in this workspace will use this Minds account's plan.")]
            ),
        ],
    )


def connected_text(account: str) -> str:
    return f"Minds is connected as *{escape(account, limit=MAX_NAME_SHOWN)}*. Try `/minds studies`."
