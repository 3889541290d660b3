"""Ids and names of the sandbox's seeded demo data, as a user would see them."""

from __future__ import annotations

from minds_sandbox.ids import stable_id

LAUNCH_STUDY = stable_id("study", "Launch positioning")
PRICING_STUDY = stable_id("study", "Pricing pulse")
GEN_Z = stable_id("audience", "Gen Z sneaker buyers in Germany")
IT_LEADS = stable_id("audience", "US IT procurement leads")
SKINCARE = stable_id("audience", "Korean skincare enthusiasts")
SEEDED_STUDIES = 2
SEEDED_AUDIENCES = 3
SEEDED_MINDS = 12 + 10 + 16
