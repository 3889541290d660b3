"""Long German words and CJK text stay within Block Kit's limits: every renderer, in every language, with long
hostile text and many items, builds messages and views Slack accepts (``slack_sdk.models`` checks the limits as
they are built) — paged, split or counted, never cut silently — and keeps people's and Minds' text inert."""

from __future__ import annotations

import pytest

from minds_bot import i18n
from minds_bot.render.plan import PlanTooLarge
from tests.security.test_inert_text import HOSTILE, MANY, RENDERERS, assert_inert, call_hostile

TRANSLATED = [language for language in i18n.LANGUAGES if language != i18n.SOURCE_LANGUAGE]


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize("name", sorted(RENDERERS))
def test_every_renderer_stays_within_slacks_limits_in_every_language(name: str, language: str) -> None:
    with i18n.speaking(language):
        try:
            rendered = call_hostile(RENDERERS[name], flag=True, hostile=HOSTILE, copies=MANY)
        except PlanTooLarge:  # the whole plan is attached instead (flows/planning)
            assert name == "minds_bot.render.plan.render_plan"
            return
        if rendered is not None:
            assert_inert(rendered)
