"""A shared file as a question's stimulus (``flows/stimulus.py``, words in ``render/stimulus.py``): which files
qualify, the message link of the plan dialog, the bytes checked against the type, the shelf Minds fetches
from, and the exact words a person reads."""

from __future__ import annotations

import pytest

from minds_bot.flows.stimulus import (
    MAX_STIMULUS_BYTES,
    SHELF_TTL_SECONDS,
    MessageLink,
    Problem,
    SharedStimulus,
    StimulusRefused,
    StimulusShelf,
    looks_like,
    parse_message_link,
    stimulus_on,
)
from minds_bot.render.stimulus import refusal_text, stimulus_line

SLACK = "https://slack.com/api/"


def file(name: str, mimetype: str, size: int = 1000) -> dict[str, object]:
    url = f"https://files.slack.com/files-pri/T1-F1/{name}"
    return {"id": "F1", "name": name, "mimetype": mimetype, "size": size, "url_private_download": url}


@pytest.mark.parametrize(
    ("mimetype", "kind"),
    [
        ("image/png", "image"),
        ("image/jpeg", "image"),
        ("image/gif", "image"),
        ("image/webp", "image"),
        ("application/pdf", "pdf"),
    ],
)
def test_images_and_pdfs_qualify(mimetype: str, kind: str) -> None:
    found = stimulus_on({"files": [file("x", mimetype)]})
    assert isinstance(found, SharedStimulus) and found.kind == kind


def test_another_type_or_a_file_past_the_limit_is_refused_before_any_download() -> None:
    wrong = stimulus_on({"files": [file("a.tiff", "image/tiff")]})
    big = stimulus_on({"files": [file("b.png", "image/png", size=MAX_STIMULUS_BYTES + 1)]})
    assert isinstance(wrong, StimulusRefused) and wrong.problem is Problem.WRONG_TYPE
    assert isinstance(big, StimulusRefused) and big.problem is Problem.TOO_LARGE
    assert stimulus_on({"text": "no files"}) is None


def test_the_bytes_must_be_what_the_type_says() -> None:
    assert looks_like("image/png", b"\x89PNG\r\n\x1a\n...")
    assert looks_like("image/webp", b"RIFF\x00\x00\x00\x00WEBPVP8 ")
    assert looks_like("application/pdf", b"%PDF-1.7")
    assert not looks_like("image/png", b"<html>")
    assert not looks_like("image/jpeg", b"%PDF-1.7")


@pytest.mark.parametrize(
    ("link", "expected"),
    [
        (
            "https://acme.slack.com/archives/C01RES0002/p1733140000000100",
            MessageLink("C01RES0002", "1733140000.000100"),
        ),
        (
            "<https://acme.slack.com/archives/C01RES0002/p1733140000000200?thread_ts=1733140000.000100&cid=C01RES0002>",
            MessageLink("C01RES0002", "1733140000.000200", "1733140000.000100"),
        ),
        ("http://acme.slack.com/archives/C01RES0002/p1733140000000100", None),  # not https
        ("https://slack.com.evil.example/archives/C01RES0002/p1733140000000100", None),
        ("https://acme.slack.com/files/U1/F1/shoe.png", None),
        ("http://127.0.0.1:3000/archives/C01RES0002/p1733140000000100", None),  # the emulator is not configured
    ],
)
def test_a_message_link_is_read_only_from_slack(link: str, expected: MessageLink | None) -> None:
    assert parse_message_link(link, slack_api_url=SLACK) == expected


def test_the_emulators_links_are_read_when_the_bot_talks_to_it() -> None:
    link = "http://127.0.0.1:3000/archives/C01RES0002/p1733140000000100"
    assert parse_message_link(link, slack_api_url="http://127.0.0.1:3000/api/") == MessageLink(
        "C01RES0002", "1733140000.000100"
    )


def test_the_shelf_serves_a_file_at_an_unguessable_address_for_an_hour() -> None:
    now = [0.0]
    shelf = StimulusShelf("https://bot.example/", clock=lambda: now[0])
    url = shelf.put(name="shoe.png", mimetype="image/png", content=b"png")
    token = url.removeprefix("https://bot.example/stimuli/")
    assert len(token) >= 40
    assert shelf.get(token) == ("shoe.png", "image/png", b"png")
    now[0] = SHELF_TTL_SECONDS + 1
    assert shelf.get(token) is None


def test_without_a_public_address_nothing_is_put_on_the_shelf() -> None:
    with pytest.raises(StimulusRefused) as refused:
        StimulusShelf(None).put(name="shoe.png", mimetype="image/png", content=b"png")
    assert refused.value.problem is Problem.NO_PUBLIC_URL


def test_the_words_a_person_reads() -> None:
    assert stimulus_line(name="shoe.png", kind="image", size=245_760) == "Stimulus: *shoe.png* (image, 240 KB)"
    assert stimulus_line(name="deck.pdf", kind="pdf", size=3_565_158) == "Stimulus: *deck.pdf* (PDF, 3.4 MB)"
    assert stimulus_line(name="<b>&.png", kind="image", size=None) == "Stimulus: *&lt;b&gt;&amp;.png* (image)"
    assert refusal_text("too_large", name="big.png", limit=MAX_STIMULUS_BYTES) == (
        "*big.png* is larger than 10 MB, the most a stimulus may be."
    )
    assert refusal_text("not_in_channel", name="", limit=MAX_STIMULUS_BYTES) == (
        "The bot cannot read that message: invite it to the channel first."
    )


@pytest.mark.parametrize("files", [5, "a.png", {"name": "a.png"}, [None, 3, "x"]])
def test_a_message_whose_files_are_not_a_list_of_objects_has_no_stimulus(files: object) -> None:
    assert stimulus_on({"text": "look", "files": files}) is None
