"""Replies for designing an Audience's sample: a respondent dataset's segmentation preview and an Audience made
from chosen Minds, as the sandbox sends them."""

from __future__ import annotations

from typing import Any

from tests.minds.samples import uid


def segmentation_preview(*, used: int = 40) -> dict[str, Any]:
    """A reconciled preview of ``used`` completed rows: two structural variables, one outcome held out."""
    first = used // 2
    return {
        "file": {"name": "panel.csv", "kind": "respondent_data"},
        "rows": {"total": used + 2, "completed": used, "used": used},
        "recommendedMindCount": 12,
        "variables": [
            {
                "key": "age_band",
                "label": "Age band",
                "role": "structural",
                "selected": True,
                "distribution": [
                    {"label": "18-34", "count": first, "pct": round(100 * first / used, 1)},
                    {"label": "35-54", "count": used - first, "pct": round(100 * (used - first) / used, 1)},
                ],
            },
            {
                "key": "region",
                "label": "Region",
                "role": "structural",
                "selected": True,
                "distribution": [{"label": "North", "count": used, "pct": 100.0}],
            },
            {"key": "nps", "label": "Likely to recommend", "role": "outcome", "selected": False},
        ],
        "segmentationColumns": ["age_band", "region"],
        "relationships": [{"variables": ["age_band", "region"], "kind": "pairwise"}],
        "relationshipCount": 1,
        "functionalDependencies": [],
        "dependencyCount": 0,
        "dependencyDiscovery": {"maxPairs": 45},
        "undeclared": "dropped",
    }


def audience_created(name: str = "Coffee fans", mind_ids: tuple[str, ...] = (uid(3001),)) -> dict[str, Any]:
    return {
        "id": uid(2101),
        "name": name,
        "mindCount": len(mind_ids),
        "mindIds": list(mind_ids),
        "minds": [{"id": m, "name": f"Mind {i}"} for i, m in enumerate(mind_ids, 1)],
        "isLinkSharingEnabled": False,
        "publicShareId": None,
        "currentMemberRole": "owner",
    }
