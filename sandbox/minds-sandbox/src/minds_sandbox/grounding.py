"""An Audience's grounding in the sandbox: the review universe (every source-identified distribution, per the
OpenAPI's ``GroundingDistribution``), which of them are active (drive cohort allocation), the one source they
cite, and the edits a recalibration makes to them.

Owns: ``review_distributions``, ``active_distributions``, ``grounding_sources``, ``add_distribution`` (research
mode's ``requestedDistribution``: an assumed-evidence axis, guaranteed to materialise) and ``select`` (selection
mode: the complete active set, each one from the review universe). The universe is kept on the Audience record
(``reviewDistributions``, ``activeDistributionNames``) once edited; before that it is the default below.
Must not touch: HTTP, members, runs.
"""

from __future__ import annotations

import copy
from typing import Any

from minds_sandbox.errors import ApiError
from minds_sandbox.state import Record


def _axis(name: str, shares: tuple[tuple[str, float], ...], *, evidence: str = "observed") -> dict[str, Any]:
    return {
        "name": name,
        "tier": "target",
        "distribution": [
            {"label": label, "pct": pct, "sourceIdx": 0, "review": {"status": "included", "evidence": evidence}}
            for label, pct in shares
        ],
    }


# Every sandbox Audience is grounded on these; Region is found but not allocated until someone selects it.
DEFAULT_UNIVERSE = (
    _axis("Age", (("18–24", 30.0), ("25–34", 35.0), ("35–54", 25.0), ("55+", 10.0))),
    _axis("Gender", (("Female", 52.0), ("Male", 48.0))),
    _axis("Household income", (("Lower", 30.0), ("Middle", 45.0), ("Higher", 25.0))),
    _axis("Region", (("Urban", 70.0), ("Rural", 30.0))),
)
DEFAULT_ACTIVE = ("Age", "Gender", "Household income")


def review_distributions(audience: Record) -> list[dict[str, Any]]:
    return copy.deepcopy(audience.get("reviewDistributions") or list(DEFAULT_UNIVERSE))


def active_distributions(audience: Record) -> list[dict[str, Any]]:
    active = audience.get("activeDistributionNames")
    names = list(DEFAULT_ACTIVE) if active is None else list(active)
    return [d for d in review_distributions(audience) if d["name"] in names]


def grounding_sources(audience: Record) -> list[dict[str, Any]]:
    return [
        {
            "url": "https://example.org/sandbox/population-survey",
            "title": f"Population survey behind {audience['name']} (simulated)",
            "snippet": "Shares by age, gender, household income and region.",
            "domain": "example.org",
            "confidence": 0.6,
            "tier": "target",
            "isUserProvided": False,
        }
    ]


def add_distribution(audience: Record, topic: str) -> None:
    """Research mode's one distribution to add: an assumed-evidence axis, kept with the existing ones."""
    universe = review_distributions(audience)
    names = [d["name"] for d in active_distributions(audience)]
    if not any(d["name"].casefold() == topic.casefold() for d in universe):
        thirds = (("Lower", 33.0), ("Middle", 34.0), ("Higher", 33.0))
        universe.append(_axis(topic, thirds, evidence="candidate"))
    match = next(d["name"] for d in universe if d["name"].casefold() == topic.casefold())
    audience["reviewDistributions"] = universe
    audience["activeDistributionNames"] = [*names, match] if match not in names else names


def select(audience: Record, distributions: list[dict[str, Any]]) -> None:
    """Selection mode: ``distributions`` is the complete active set; each must be in the review universe."""
    universe = {d["name"]: d for d in review_distributions(audience)}
    unknown = [d["name"] for d in distributions if d["name"] not in universe]
    if unknown:
        raise ApiError(
            400,
            f"Not in this Audience's review universe: {', '.join(unknown)}",
            code="UNKNOWN_DISTRIBUTION",
        )
    audience["reviewDistributions"] = list(universe.values())
    audience["activeDistributionNames"] = list(dict.fromkeys(d["name"] for d in distributions))
