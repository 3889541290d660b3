"""The one safe download of a file shared in Slack (``flows/slack_files.py``): Slack's file host only, the size
checked before and while reading, redirects never off Slack and never with the token."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest

from minds_bot.flows.slack_files import Refusal, SlackFileHosts, SlackFileRefused, download_slack_file

SLACK = SlackFileHosts.for_api_url("https://slack.com/api/")
FILE = "https://files.slack.com/files-pri/T1-F1/shoe.png"
TOKEN = "xoxb-test-token"  # a test value


class Seen:
    def __init__(self) -> None:
        self.requests: list[httpx.Request] = []


def transport(seen: Seen, answer: object) -> httpx.MockTransport:
    def handle(request: httpx.Request) -> httpx.Response:
        seen.requests.append(request)
        return answer(request) if callable(answer) else answer  # type: ignore[return-value]

    return httpx.MockTransport(handle)


async def test_a_file_on_slacks_host_is_downloaded_with_the_bot_token() -> None:
    seen = Seen()
    got = await download_slack_file(
        FILE, token=TOKEN, hosts=SLACK, max_bytes=100, transport=transport(seen, httpx.Response(200, content=b"png"))
    )
    assert got == b"png"
    assert seen.requests[0].headers["authorization"] == f"Bearer {TOKEN}"


@pytest.mark.parametrize(
    "url",
    [
        "http://files.slack.com/files-pri/T1-F1/shoe.png",  # not https
        "https://evil.example/files-pri/T1-F1/shoe.png",
        "https://files.slack.com.evil.example/shoe.png",
        "https://user:pw@files.slack.com/shoe.png",
        "https://files.slack.com:8443/shoe.png",
        # Issue 33 row 11: addresses only a forged payload could hold are refused, never an exception.
        "https://files.slack.com:99999/shoe.png",  # a port past 65535
        "https://[::1]/files-pri/T1-F1/shoe.png",  # an IPv6 host
        "https://[abc/shoe.png",  # a broken one
        "https://ｆｉｌｅｓ．slack.com／files-pri/shoe.png",  # changes under Unicode normalisation
        "/files-pri/T1-F1/shoe.png",  # no host at all
    ],
)
async def test_a_url_off_slacks_file_host_is_never_requested(url: str) -> None:
    seen = Seen()
    with pytest.raises(SlackFileRefused) as refused:
        await download_slack_file(
            url, token=TOKEN, hosts=SLACK, max_bytes=100, transport=transport(seen, httpx.Response(200))
        )
    assert refused.value.reason is Refusal.NOT_SLACK
    assert seen.requests == [], "the token went nowhere"


async def test_the_emulators_origin_is_allowed_only_when_the_bot_talks_to_it() -> None:
    emulator = SlackFileHosts.for_api_url("http://127.0.0.1:3000/api/")
    assert emulator.allows("http://127.0.0.1:3000/_emulator/files/F1/shoe.png")
    assert not emulator.allows("http://127.0.0.1:3001/_emulator/files/F1/shoe.png")
    assert not SLACK.allows("http://127.0.0.1:3000/_emulator/files/F1/shoe.png")


async def test_a_file_slack_reports_as_too_large_is_never_requested() -> None:
    seen = Seen()
    with pytest.raises(SlackFileRefused) as refused:
        await download_slack_file(
            FILE,
            token=TOKEN,
            hosts=SLACK,
            max_bytes=10,
            reported_size=11,
            transport=transport(seen, httpx.Response(200, content=b"x" * 11)),
        )
    assert refused.value.reason is Refusal.TOO_LARGE
    assert seen.requests == []


async def test_an_oversized_body_is_read_only_up_to_the_limit() -> None:
    sent: list[int] = []

    async def endless() -> AsyncIterator[bytes]:
        for _ in range(1000):
            sent.append(1)
            yield b"x" * 1024

    class Stream(httpx.AsyncByteStream):
        async def __aiter__(self) -> AsyncIterator[bytes]:
            async for piece in endless():
                yield piece

    seen = Seen()
    with pytest.raises(SlackFileRefused) as refused:
        await download_slack_file(
            FILE,
            token=TOKEN,
            hosts=SLACK,
            max_bytes=4 * 1024,
            reported_size=100,  # Slack's word is not trusted: the read stops at the limit all the same
            transport=transport(seen, httpx.Response(200, stream=Stream())),
        )
    assert refused.value.reason is Refusal.TOO_LARGE
    assert len(sent) <= 6, "reading stopped at the limit, not at the end of the body"


async def test_an_announced_length_past_the_limit_is_refused_before_reading() -> None:
    seen = Seen()
    answer = httpx.Response(200, headers={"content-length": "5000"}, content=b"x" * 5000)
    with pytest.raises(SlackFileRefused) as refused:
        await download_slack_file(FILE, token=TOKEN, hosts=SLACK, max_bytes=100, transport=transport(seen, answer))
    assert refused.value.reason is Refusal.TOO_LARGE


async def test_a_redirect_off_slacks_host_is_not_followed() -> None:
    seen = Seen()
    answer = httpx.Response(302, headers={"location": "https://attacker.example/steal"})
    with pytest.raises(SlackFileRefused) as refused:
        await download_slack_file(FILE, token=TOKEN, hosts=SLACK, max_bytes=100, transport=transport(seen, answer))
    assert refused.value.reason is Refusal.REDIRECT_OFF_HOST
    assert [r.url.host for r in seen.requests] == ["files.slack.com"], "the other host was never asked"


@pytest.mark.parametrize("location", ["https://[abc/steal", "https://files.slack.com:99999/x", "https://[::1]/x"])
async def test_a_redirect_to_an_address_that_does_not_parse_is_not_followed(location: str) -> None:
    seen = Seen()
    answer = httpx.Response(302, headers={"location": location})
    with pytest.raises(SlackFileRefused) as refused:
        await download_slack_file(FILE, token=TOKEN, hosts=SLACK, max_bytes=100, transport=transport(seen, answer))
    assert refused.value.reason is Refusal.REDIRECT_OFF_HOST
    assert len(seen.requests) == 1


async def test_a_redirect_on_slacks_host_is_followed_without_the_token() -> None:
    seen = Seen()

    def answer(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/files-pri/T1-F1/shoe.png":
            return httpx.Response(302, headers={"location": "/files-pri/T1-F1/download/shoe.png"})
        return httpx.Response(200, content=b"png")

    got = await download_slack_file(FILE, token=TOKEN, hosts=SLACK, max_bytes=100, transport=transport(seen, answer))
    assert got == b"png"
    assert "authorization" in seen.requests[0].headers
    assert "authorization" not in seen.requests[1].headers, "the token never crosses a redirect"


async def test_endless_redirects_stop() -> None:
    seen = Seen()
    answer = httpx.Response(302, headers={"location": FILE})
    with pytest.raises(SlackFileRefused):
        await download_slack_file(FILE, token=TOKEN, hosts=SLACK, max_bytes=100, transport=transport(seen, answer))
    assert len(seen.requests) == 4


async def test_a_refusal_by_slack_keeps_its_status() -> None:
    seen = Seen()
    with pytest.raises(SlackFileRefused) as refused:
        await download_slack_file(
            FILE, token=TOKEN, hosts=SLACK, max_bytes=100, transport=transport(seen, httpx.Response(403))
        )
    assert (refused.value.reason, refused.value.status) == (Refusal.HTTP_STATUS, 403)
