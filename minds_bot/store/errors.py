"""Typed errors raised by the store.

    StoreError
     ├── SchemaTooNewError      the file was written by a newer minds-bot (refuse, never downgrade)
     ├── StoreUnavailableError  the database cannot answer (ping, open)
     └── RecordNotFoundError    an update named a record that does not exist

Secret handling has its own errors in `minds_bot.store.secrets` (SecretKeyError, SecretDecryptError).
This module owns no behaviour.
"""


class StoreError(Exception):
    """Base of every store failure."""


class SchemaTooNewError(StoreError):
    """The database schema version is newer than this code knows."""


class StoreUnavailableError(StoreError):
    """The database cannot be reached or answered with an error."""


class RecordNotFoundError(StoreError):
    """An update or attach named a record that does not exist."""
