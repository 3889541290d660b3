"""The demo page's built-in emoji map knows every shortcode the bot writes, so none shows as raw ":name:"."""

from __future__ import annotations

import re
from pathlib import Path

import minds_bot
from slack_emulator.pages import STATIC_DIR

SHORTCODE = re.compile(r"(?<![\w:]):([a-z][a-z0-9_]+[a-z]):(?![\w:])")
NOT_EMOJI = {"memory", "chat", "codes"}  # ":memory:" databases, action-id prefixes


def bot_shortcodes() -> set[str]:
    root = Path(minds_bot.__file__).parent
    found: set[str] = set()
    for path in root.rglob("*.py"):
        found |= set(SHORTCODE.findall(path.read_text(encoding="utf-8")))
    return found - NOT_EMOJI


def test_every_shortcode_the_bot_writes_has_an_emoji_on_the_page() -> None:
    script = (STATIC_DIR / "blockkit.js").read_text(encoding="utf-8")
    block = script[script.index("const EMOJI = {") : script.index("};", script.index("const EMOJI = {"))]
    known = set(re.findall(r'"?([a-z0-9_+]+)"?:\s*"', block))
    used = bot_shortcodes()
    assert {"white_check_mark", "paperclip", "arrows_counterclockwise"} <= used
    assert sorted(used - known) == []
