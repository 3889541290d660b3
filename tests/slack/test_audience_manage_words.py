"""The managing row's words, exactly as a person reads them in each of the five languages: the delete dialog that
names the Audience and its members, what was deleted, the gate's refusal, the member review and a Formation's
confirmation (``render/audience_manage.py``, ``render/access.py``)."""

from __future__ import annotations

import json

import pytest

from minds_bot import i18n
from minds_bot.minds import AudienceDetail, Formation
from minds_bot.render import access
from minds_bot.render.audience_manage import delete_view, members_confirm_view, render_deleted
from minds_bot.render.formations import render_formations
from tests.slack import samples

AUDIENCE = AudienceDetail.model_validate(
    {**samples.audience(1, "Parents", 12), "isPublic": False, "isLinkSharingEnabled": False}
)
FORMATION = Formation.model_validate(
    {
        "id": samples.uid(71),
        "name": "Age",
        "status": "ready",
        "canMutate": True,
        "subgroups": [
            {
                "id": samples.uid(72),
                "label": "Under 30",
                "isAuxiliary": False,
                "position": 0,
                "_count": {"memberships": 5},
            }
        ],
    }
)
WORDS = {
    "en": (
        "Delete the Audience *Parents* and its 12 Minds?",
        "Deleted the Audience *Parents* (12 Minds).",
        "Only this channel's approvers (`/minds approvers list`) or a workspace admin can do that with this Audience.",
        "Remove from *Parents*: Mia",
        "Delete the Formation *Age* of *Parents*? Study messages that used it keep showing it.",
    ),
    "de": (
        "Die Audience *Parents* und ihre 12 Minds löschen?",
        "Die Audience *Parents* (12 Minds) wurde gelöscht.",
        "diese Audience",
        "Aus *Parents* entfernen: Mia",
        "Die Formation *Age* von *Parents* löschen? Study-Nachrichten, die sie verwendet haben, zeigen sie weiterhin.",
    ),
    "es": (
        "¿Eliminar la Audience *Parents* y sus 12 Minds?",
        "Se eliminó la Audience *Parents* (12 Minds).",
        "esta Audience",
        "Quitar de *Parents*: Mia",
        "¿Eliminar la Formation *Age* de *Parents*? Los mensajes de Study que la usaron la siguen mostrando.",
    ),
    "zh": (
        "删除 Audience *Parents* 及其 12 个 Mind？",
        "已删除 Audience *Parents*（12 个 Mind）。",
        "这个 Audience",
        "从 *Parents* 移除：Mia",
        "删除 *Parents* 的 Formation *Age*？使用过它的 Study 消息仍会显示它。",
    ),
    "ko": (
        "Audience *Parents*와 구성원 Mind 12명을 삭제할까요?",
        "Audience *Parents*(Mind 12명) 삭제를 완료했습니다.",
        "이 채널의 승인자(`/minds approvers list`) 또는 워크스페이스 관리자만 이 Audience에 대해 그 작업을 할 수 "
        "있습니다.",
        "*Parents*에서 제거: Mia",
        "*Parents*의 Formation *Age*를 삭제할까요? 이를 사용한 Study 메시지에는 계속 표시됩니다.",
    ),
}


def seen(value: object) -> str:
    """As a person reads it: the zero-width spaces that let bold render next to CJK text are not seen."""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return text.replace("\u200b", "")


@pytest.mark.parametrize("language", sorted(WORDS))
def test_the_managing_words_in_every_language(language: str) -> None:
    asked, deleted, refused, review, confirm = WORDS[language]
    with i18n.speaking(language):
        dialog = json.dumps(delete_view(audience=AUDIENCE, channel_id="C1").to_dict(), ensure_ascii=False)
        done = render_deleted(audience_name="Parents", members=12).text
        refusal = access.not_allowed(kind="audience", owner_id=None)
        members = members_confirm_view(metadata="{}", audience_name="Parents", add=[], remove=["Mia"]).to_dict()
        listed = render_formations(audience=AUDIENCE, formations=[FORMATION]).as_kwargs()
    assert asked in seen(dialog)
    assert deleted in seen(done)
    assert refused in seen(refusal)
    assert review in seen(members)
    assert confirm in seen(listed)
