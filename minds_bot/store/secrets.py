"""Encryption of secrets at rest (Minds keys, Slack tokens).

Owns turning the `MINDS_BOT_SECRET_KEY` setting into a `SecretBox`: one or more comma-separated Fernet keys,
the first encrypts, every one decrypts, so an operator can rotate keys by prepending a new one, running
`Store.rotate_secrets()`, and later dropping the old key. Must not read the environment itself (settings are
passed in) and must never put a key or a plaintext in an error message or a repr.
"""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING

from minds_bot.settings import is_fernet_key

if TYPE_CHECKING:
    from cryptography.fernet import MultiFernet


class SecretKeyError(ValueError):
    """The configured secret key string is not a usable list of Fernet keys."""


class SecretDecryptError(Exception):
    """A stored ciphertext cannot be opened with any configured key (key removed or data damaged)."""


class SecretBox:
    """Encrypts and decrypts short strings with a rotating list of Fernet keys."""

    def __init__(self, keys: str) -> None:
        self._keys = _parse_keys(keys)

    @cached_property
    def _fernet(self) -> MultiFernet:
        from cryptography.fernet import Fernet, MultiFernet  # loaded with the first secret encrypted or read

        return MultiFernet([Fernet(key.encode("ascii")) for key in self._keys])

    def __repr__(self) -> str:
        return "SecretBox(<keys hidden>)"

    @staticmethod
    def generate_key() -> str:
        """A fresh random key, suitable as (the first entry of) MINDS_BOT_SECRET_KEY."""
        from cryptography.fernet import Fernet

        return Fernet.generate_key().decode("ascii")

    def encrypt(self, plaintext: str) -> str:
        return self._fernet.encrypt(plaintext.encode("utf-8")).decode("ascii")

    def decrypt(self, token: str) -> str:
        from cryptography.fernet import InvalidToken

        try:
            return self._fernet.decrypt(token.encode("ascii")).decode("utf-8")
        except (InvalidToken, UnicodeError) as exc:
            raise SecretDecryptError("stored secret cannot be decrypted with the configured keys") from exc

    def rotate(self, token: str) -> str:
        """Re-encrypt `token` under the first key (readable by any configured key)."""
        from cryptography.fernet import InvalidToken

        try:
            return self._fernet.rotate(token.encode("ascii")).decode("ascii")
        except (InvalidToken, UnicodeError) as exc:
            raise SecretDecryptError("stored secret cannot be decrypted with the configured keys") from exc


def _parse_keys(keys: str) -> list[str]:
    parts = [part.strip() for part in keys.split(",") if part.strip()]
    if not parts:
        raise SecretKeyError("MINDS_BOT_SECRET_KEY is empty; generate one with SecretBox.generate_key()")
    return [_parse_one(part, position=index + 1) for index, part in enumerate(parts)]


def _parse_one(part: str, *, position: int) -> str:
    if is_fernet_key(part):
        return part
    raise SecretKeyError(  # the message never repeats the key
        f"MINDS_BOT_SECRET_KEY entry {position} is not a valid Fernet key "
        "(32 url-safe base64-encoded bytes, as made by SecretBox.generate_key())"
    )
