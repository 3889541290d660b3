"""docs/operating.md names what the bot really reads and serves: every setting (as its environment variable) and
every Prometheus metric, so neither a new setting nor a new metric goes undocumented. (``mkdocs build --strict`` in
``scripts/test`` checks the links; ``test_cheatsheet.py`` the README's command table.)"""

from __future__ import annotations

from pathlib import Path

from minds_bot import metrics
from minds_bot.settings import Settings

OPERATING = Path(__file__).resolve().parents[2] / "docs" / "operating.md"


def test_every_setting_is_documented() -> None:
    text = OPERATING.read_text(encoding="utf-8")
    missing = [name.upper() for name in Settings.model_fields if f"`{name.upper()}`" not in text]
    assert not missing, f"docs/operating.md → Configuration does not name {missing}"


def test_every_metric_is_documented() -> None:
    text = OPERATING.read_text(encoding="utf-8")
    missing = [name for name in metrics.names() if f"`{name}`" not in text]
    assert not missing, f"docs/operating.md → Metrics does not name {missing}"
