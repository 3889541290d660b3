"""Question assets in the sandbox: an image or video URL written into a question is that question's stimulus,
so results carry ``assets`` and question heatmaps have something to analyse; any other web address is a website
stimulus (``kind: "website"``), whose heatmap the answer itself carries and which is the one heatmap with an
archive to export (catalogue rule 91). Pure."""

from __future__ import annotations

import re
from typing import Any

ASSET_URL = re.compile(r"https?://[^\s<>\"]+?\.(png|jpe?g|gif|webp|mp4|mov|webm)\b", re.IGNORECASE)
WEB_URL = re.compile(r"https?://[^\s<>\"]+[^\s<>\".,;:!?)]", re.IGNORECASE)
VIDEO = ("mp4", "mov", "webm")


def question_assets(text: str) -> list[dict[str, Any]]:
    """Each image/video URL in ``text`` once, in order, as ``{assetKey, kind, url}``, then each other web address
    as a ``website``."""
    seen: dict[str, dict[str, Any]] = {}
    for match in ASSET_URL.finditer(text or ""):
        url = match.group(0)
        kind = "video" if match.group(1).lower() in VIDEO else "image"
        seen.setdefault(url, {"assetKey": url, "kind": kind, "url": url})
    for match in WEB_URL.finditer(text or ""):
        url = match.group(0)
        if not any(url.startswith(key) for key in seen):
            seen.setdefault(url, {"assetKey": url, "kind": "website", "url": url})
    return list(seen.values())
