"""Question assets in the sandbox: an image or video URL written into a question is that question's stimulus,
so results carry ``assets`` and question heatmaps have something to analyse. Pure."""

from __future__ import annotations

import re
from typing import Any

ASSET_URL = re.compile(r"https?://[^\s<>\"]+?\.(png|jpe?g|gif|webp|mp4|mov|webm)\b", re.IGNORECASE)
VIDEO = ("mp4", "mov", "webm")


def question_assets(text: str) -> list[dict[str, Any]]:
    """Each image/video URL in ``text`` once, in order, as ``{assetKey, kind, url}``."""
    seen: dict[str, dict[str, Any]] = {}
    for match in ASSET_URL.finditer(text or ""):
        url = match.group(0)
        kind = "video" if match.group(1).lower() in VIDEO else "image"
        seen.setdefault(url, {"assetKey": url, "kind": kind, "url": url})
    return list(seen.values())
