"""Stable identifiers and API-key handling for the sandbox.

Owns: uuid5 ids (so demos are reproducible), key format checks and the key fingerprint
used in place of the key.
Must not touch state or I/O. Keys themselves are never stored or logged; only their fingerprint is.
"""

from __future__ import annotations

import hashlib
import re
import uuid

# Fixed namespace: every sandbox id is uuid5(NAMESPACE, "<kind>/<name>") so the same seed gives the same ids.
NAMESPACE = uuid.UUID("8f1d5c0e-4b1a-5e2f-9a47-3c2d1b0a9e88")
KEY_PATTERN = re.compile(r"^minds_[0-9a-f]{48}$")
KEY_HEX_LENGTH = 48


def stable_id(*parts: object) -> str:
    return str(uuid.uuid5(NAMESPACE, "/".join(str(p) for p in parts)))


def is_well_formed_key(key: str) -> bool:
    return bool(KEY_PATTERN.match(key))


def key_fingerprint(key: str) -> str:
    """A short one-way handle for per-key accounting that is safe to persist."""
    return hashlib.sha256(key.encode()).hexdigest()[:16]


def demo_key(seed: int) -> str:
    """A ready-to-use, obviously sandbox-only key for the CLI banner."""
    digest = hashlib.sha256(f"minds-sandbox-demo-key/{seed}".encode()).hexdigest()
    return "minds_" + digest[:KEY_HEX_LENGTH]
