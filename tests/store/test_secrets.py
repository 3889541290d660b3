"""SecretBox: key parsing, rotation with several keys, and no key material in errors or reprs."""

from __future__ import annotations

import pytest

from minds_bot.store import SecretBox, SecretDecryptError, SecretKeyError
from tests.store.conftest import fake_minds_key


def test_round_trip_and_ciphertext_hides_plaintext() -> None:
    box = SecretBox(SecretBox.generate_key())
    token = box.encrypt(fake_minds_key())
    assert fake_minds_key() not in token
    assert box.decrypt(token) == fake_minds_key()


@pytest.mark.parametrize("bad", ["not-a-key", "short", "x" * 44, "!" * 44])
def test_invalid_key_is_a_typed_error_without_the_key(bad: str) -> None:
    with pytest.raises(SecretKeyError) as caught:
        SecretBox(bad)
    assert bad not in str(caught.value)
    assert "entry 1" in str(caught.value)


def test_second_entry_is_named_when_it_is_the_bad_one() -> None:
    good = SecretBox.generate_key()
    with pytest.raises(SecretKeyError, match="entry 2") as caught:
        SecretBox(f"{good},oops-not-a-key")
    assert good not in str(caught.value)


@pytest.mark.parametrize("empty", ["", " ", ",", " , "])
def test_empty_key_setting_is_rejected(empty: str) -> None:
    with pytest.raises(SecretKeyError, match="empty"):
        SecretBox(empty)


def test_first_key_encrypts_and_every_key_decrypts() -> None:
    old, new = SecretBox.generate_key(), SecretBox.generate_key()
    written_with_old = SecretBox(old).encrypt("payload")
    both = SecretBox(f"{new}, {old}")
    assert both.decrypt(written_with_old) == "payload"
    with pytest.raises(SecretDecryptError):
        SecretBox(old).decrypt(both.encrypt("payload"))  # new writes use the first key only


def test_rotate_moves_a_token_to_the_first_key() -> None:
    old, new = SecretBox.generate_key(), SecretBox.generate_key()
    token = SecretBox(old).encrypt("payload")
    rotated = SecretBox(f"{new},{old}").rotate(token)
    assert SecretBox(new).decrypt(rotated) == "payload"


def test_unknown_key_or_damaged_token_is_a_typed_error() -> None:
    token = SecretBox(SecretBox.generate_key()).encrypt(fake_minds_key())
    other = SecretBox(SecretBox.generate_key())
    with pytest.raises(SecretDecryptError) as caught:
        other.decrypt(token)
    assert fake_minds_key() not in str(caught.value)
    with pytest.raises(SecretDecryptError):
        other.decrypt("garbage")
    with pytest.raises(SecretDecryptError):
        other.rotate(token)


def test_repr_hides_the_keys() -> None:
    key = SecretBox.generate_key()
    assert key not in repr(SecretBox(key))
