"""Minds' Markdown as Slack mrkdwn: headings, bold, lists, links and escaping, in the words a reader sees."""

from __future__ import annotations

import pytest

from minds_bot.render.markdown import to_mrkdwn


@pytest.mark.parametrize(
    ("markdown", "mrkdwn"),
    [
        ("# Launch positioning", "*Launch positioning*"),
        ("### Pricing ###", "*Pricing*"),
        ("## **Already bold**", "*Already bold*"),
        ("**Is the price fair?** Mostly", "*Is the price fair?* Mostly"),
        ("__strong__ words", "*strong* words"),
        ("an *aside* here", "an _aside_ here"),
        ("- first\n- second", "• first\n• second"),
        ("* star item\n+ plus item", "• star item\n• plus item"),
        ("  - nested", "  • nested"),
        ("1. one\n2. two", "1. one\n2. two"),
        ("---", ""),
        ("[report](https://minds.test/r)", "report (https://minds.test/r)"),
        ("[bad](javascript:alert(1))", "[bad](javascript:alert(1))"),
        ("<!channel> & <@U1> <https://evil.test|x>", "&lt;!channel&gt; &amp; &lt;@U1&gt; &lt;https://evil.test|x&gt;"),
    ],
)
def test_markdown_becomes_mrkdwn(markdown: str, mrkdwn: str) -> None:
    assert to_mrkdwn(markdown) == mrkdwn


def test_a_whole_summary_keeps_its_shape_and_loses_its_markdown() -> None:
    text = to_mrkdwn("# Launch positioning\n\n- **Is the price fair?** 58% say yes\n- *Quality* leads\n")
    assert text == "*Launch positioning*\n\n• *Is the price fair?* 58% say yes\n• _Quality_ leads\n"
    assert "#" not in text and "**" not in text


def test_nothing_is_cut() -> None:
    long = "word " * 5000
    assert to_mrkdwn(long) == long


def test_an_answer_whose_message_repeats_its_value_is_shown_once() -> None:
    from minds_bot.minds import OutputAnswer
    from minds_bot.render.answer_pages import _answer_blocks

    same = _answer_blocks("Gen Z", OutputAnswer(value="Yes", persona="Mia", message=" yes "))
    more = _answer_blocks("Gen Z", OutputAnswer(value="Yes", persona="Mia", message="Yes, if it lasts."))
    assert [b.text.text for b in same] == ["*Mia* · Gen Z — Yes"]
    assert [b.text.text for b in more] == ["*Mia* · Gen Z — Yes\nYes, if it lasts."]
