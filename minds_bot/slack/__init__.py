"""Slack listeners, one module per surface, each with ``register(surface, services)``.

Owns: turning Slack requests into calls on flows and rendered replies. Rendering lives in ``render/`` (pure).
Must not touch: Minds wire shapes or SQL directly.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from minds_bot.services import Services
    from minds_bot.slack.surface import Surface


# The listener modules, in the order they register (Bolt tries their matchers in that order): the first surfaces,
# then the research flow, the rest of the Minds toolbox (issue 14), the research tools (issue 18), the Slack-native
# surfaces and languages (issue 13), and what no Minds surface has (issue 27: run-end DMs, Workflow Builder, spend
# with consent, comparisons), and a Mind's card and the Minds it creates (issue 37).
LISTENERS = (
    *("commands", "home", "connect", "reentry", "pick", "browse", "study", "ask", "summary", "share"),
    *("duplicate", "audiences", "plan", "approvals", "runs", "exports", "digest"),
    *("cancel", "chat", "analytics", "study_new", "study_delete", "profiles", "drafts", "templates"),
    *("draft_edit",),
    *("methods", "audience_card", "audience_manage", "invite", "recalibrate", "models", "source_import", "heatmaps"),
    *("ask_about", "unfurls", "languages"),
    *("run_notice", "workflows", "spend", "compare", "audience_new"),
    *("mind_card", "mind_extras", "minds_delete"),
)


def listener_modules() -> Iterator[ModuleType]:
    """Each listener module, imported when it is reached: with the flows, renderers and Minds models it uses, this
    is most of the bot's code (``app.Bot`` lets the server answer between two of them while it warms up)."""
    for name in LISTENERS:
        yield importlib.import_module(f"{__name__}.{name}")


def register_all(surface: Surface, services: Services) -> None:
    """Register every surface's listeners on the app behind ``surface``."""
    for module in listener_modules():
        module.register(surface, services)
