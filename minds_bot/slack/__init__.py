"""Slack listeners, one module per surface, each with ``register(surface, services)``.

Owns: turning Slack requests into calls on flows and rendered replies. Rendering lives in ``render/`` (pure).
Must not touch: Minds wire shapes or SQL directly.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from minds_bot.services import Services
    from minds_bot.slack.surface import Surface


def register_all(surface: Surface, services: Services) -> None:
    """Register every surface's listeners on the app behind ``surface``."""
    from minds_bot.slack import (
        analytics,
        approvals,
        ask,
        ask_about,
        audience_card,
        audiences,
        browse,
        cancel,
        chat,
        commands,
        compare,
        connect,
        digest,
        drafts,
        duplicate,
        exports,
        heatmaps,
        home,
        invite,
        languages,
        methods,
        models,
        pick,
        plan,
        profiles,
        recalibrate,
        reentry,
        run_notice,
        runs,
        share,
        source_import,
        spend,
        study,
        study_new,
        summary,
        templates,
        unfurls,
        workflows,
    )

    surfaces = (commands, home, connect, reentry, pick, browse, study, ask, summary, share)
    # issue #14, the rest of the Minds toolbox:
    toolbox = (cancel, chat, analytics, study_new, profiles, drafts, templates)
    for module in (*surfaces, duplicate, audiences, plan, approvals, runs, exports, digest, *toolbox):
        module.register(surface, services)
    research_tools = (methods, audience_card, invite, recalibrate, models, source_import, heatmaps)  # issue 18
    for module in research_tools:
        module.register(surface, services)
    for module in (ask_about, unfurls, languages):  # issue 13, Slack-native surfaces and languages
        module.register(surface, services)
    run_notice.register(surface, services)  # issue 27: hear when a run ends
    workflows.register(surface, services)  # issue 27: Minds in Workflow Builder
    spend.register(surface, services)  # issue 27: spend with consent
    compare.register(surface, services)  # issue 27: compare runs and Audiences
