"""A shared file as a question's stimulus (``flows/stimulus.py``, words in ``render/stimulus.py``): which files
qualify, the message link of the plan dialog, the bytes checked against the type, the shelf Minds fetches
from, and the exact words a person reads."""

from __future__ import annotations

import json

import pytest

from minds_bot.flows.stimulus import (
    MAX_STIMULUS_BYTES,
    MAX_STIMULUS_NAME,
    SHELF_TTL_SECONDS,
    Problem,
    SharedStimulus,
    StimulusRefused,
    StimulusShelf,
    looks_like,
    short_name,
    stimulus_on,
)
from minds_bot.flows.stimulus_link import MessageLink, read_link
from minds_bot.render.stimulus import refusal_text, stimulus_line


def file(name: str, mimetype: str, size: int = 1000) -> dict[str, object]:
    url = f"https://files.slack.com/files-pri/T1-F1/{name}"
    return {"id": "F01", "name": name, "mimetype": mimetype, "size": size, "url_private_download": url}


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


ACME = ("https", "acme.slack.com", None)  # auth.test's url https://acme.slack.com/, as an origin


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
        (
            "https://ACME.slack.com:443/archives/C01RES0002/p1733140000000100",
            MessageLink("C01RES0002", "1733140000.000100"),
        ),
        ("https://globex.slack.com/archives/C01RES0002/p1733140000000100", Problem.OTHER_WORKSPACE),
        ("https://slack.com/archives/C01RES0002/p1733140000000100", Problem.OTHER_WORKSPACE),
        ("http://acme.slack.com/archives/C01RES0002/p1733140000000100", Problem.NOT_A_LINK),  # not https
        ("https://slack.com.evil.example/archives/C01RES0002/p1733140000000100", Problem.NOT_A_LINK),
        ("https://acme.slack.com/files/U1/F1/shoe.png", Problem.NOT_A_LINK),
        ("http://127.0.0.1:3000/archives/C01RES0002/p1733140000000100", Problem.NOT_A_LINK),  # not this workspace
        # Issue 33 row 10: text that does not parse as a URL is no link, never an exception.
        ("https://[abc/archives/C01RES0002/p1733140000000100", Problem.NOT_A_LINK),
        ("https://acme.slack.com:99999/archives/C01RES0002/p1733140000000100", Problem.NOT_A_LINK),
        ("ｈｔｔｐｓ：／／ａｃｍｅ．ｓｌａｃｋ．ｃｏｍ／ａｒｃｈｉｖｅｓ／Ｃ０１／ｐ１", Problem.NOT_A_LINK),
        ("https://ａｃｍｅ．slack.com／archives/C01RES0002/p1733140000000100", Problem.NOT_A_LINK),
        ("https://[::1]/archives/C01RES0002/p1733140000000100", Problem.NOT_A_LINK),
        ("", Problem.NOT_A_LINK),
    ],
)
def test_a_message_link_is_read_only_from_this_workspace(link: str, expected: MessageLink | Problem) -> None:
    assert read_link(link, workspace=ACME) == expected


def test_the_emulators_links_are_this_workspaces_when_its_auth_test_says_so() -> None:
    link = "http://127.0.0.1:3000/archives/C01RES0002/p1733140000000100"
    assert read_link(link, workspace=("http", "127.0.0.1", 3000)) == MessageLink("C01RES0002", "1733140000.000100")
    assert read_link(link, workspace=None) == Problem.NOT_A_LINK  # Slack would not say its address


def test_the_shelf_serves_a_file_at_an_unguessable_address_until_its_owner_releases_it() -> None:
    shelf = StimulusShelf("https://bot.example/")
    url = shelf.put(name="shoe.png", mimetype="image/png", content=b"png", owner="ask-1")
    other = shelf.put(name="deck.pdf", mimetype="application/pdf", content=b"%PDF-", owner="plan-1")
    token = url.removeprefix("https://bot.example/stimuli/")
    assert len(token) >= 40 and shelf.token_of(url) == token
    assert shelf.get(token) == ("shoe.png", "image/png", b"png")
    assert shelf.release("ask-1") == 1
    assert shelf.get(token) is None, "Minds settled the ask: the file left"
    assert shelf.get(other.rsplit("/", 1)[1]) is not None, "another request's file stays"


def test_the_shelf_keeps_a_file_at_most_its_short_bound_and_puts_it_back_at_the_same_address() -> None:
    now = [0.0]
    shelf = StimulusShelf("https://bot.example/", clock=lambda: now[0])
    url = shelf.put(name="shoe.png", mimetype="image/png", content=b"png", owner="ask-1")
    token = shelf.token_of(url) or ""
    assert SHELF_TTL_SECONDS <= 600
    now[0] = SHELF_TTL_SECONDS + 1
    assert shelf.get(token) is None
    again = shelf.put(name="shoe.png", mimetype="image/png", content=b"png", owner="ask-1", token=token)
    assert again == url and shelf.get(token) is not None
    assert shelf.token_of("https://elsewhere.example/stimuli/" + token) is None


def test_a_long_file_name_is_shortened_with_a_visible_ellipsis_before_its_extension() -> None:
    name = "项目" * 3000 + ".png"
    shown = short_name(name)
    assert len(shown) == MAX_STIMULUS_NAME and shown.endswith("….png")
    assert short_name("shoe.png") == "shoe.png"
    assert short_name("x" * 500).endswith("…") and len(short_name("x" * 500)) == MAX_STIMULUS_NAME


def test_a_file_is_kept_by_its_id_and_a_forged_reference_is_no_file() -> None:
    shared = SharedStimulus("F0123ABC", "项目" * 3000 + ".png", "https://files.slack.com/x", "image/png", 42)
    ref = shared.ref()
    assert len(json.dumps(ref)) < 1500, "a dialog's metadata holds it (3,000 characters at most)"
    assert SharedStimulus.from_ref(ref) == SharedStimulus("F0123ABC", short_name(shared.name), "", "image/png", 42)
    for forged in (["../x", "a", "image/png", 1], ["F1", "a", "text/html", 1], ["F1", "a", "image/png"], "F1"):
        assert SharedStimulus.from_ref(forged) is None


def test_without_a_public_address_nothing_is_put_on_the_shelf() -> None:
    with pytest.raises(StimulusRefused) as refused:
        StimulusShelf(None).put(name="shoe.png", mimetype="image/png", content=b"png", owner="ask-1")
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
