"""Records to storage rows and back; the one place where secrets are sealed and opened.

A row is a flat dict of SQLite-ready values keyed by field name: datetimes as fixed-width UTC text (so text
order is time order), tuples and nested models as JSON, enums as their value, booleans as 0/1, and every
`SecretStr` field as a Fernet token from the `SecretBox`. Both stores keep rows in exactly this form, so the
in-memory twin has the same at-rest behaviour as SQLite. Must not do I/O.
"""

from __future__ import annotations

import json
import types
from collections.abc import Iterator, Mapping
from datetime import UTC, datetime
from enum import Enum
from functools import cache
from typing import Annotated, Any, TypeVar, Union, get_args, get_origin

from pydantic import BaseModel, SecretStr

from minds_bot.store.records import Record
from minds_bot.store.secrets import SecretBox

R = TypeVar("R", bound=Record)
Row = dict[str, Any]

_TIME_FORMAT = "%Y-%m-%dT%H:%M:%S.%f+00:00"


def encode_time(value: datetime) -> str:
    """Fixed-width UTC text; comparing two encoded times as strings compares the instants."""
    if value.tzinfo is None:
        raise ValueError("naive datetime: the store only keeps aware UTC times")
    return value.astimezone(UTC).strftime(_TIME_FORMAT)


def to_row(record: Record, box: SecretBox) -> Row:
    kinds = field_kinds(type(record))
    return {name: _encode(getattr(record, name), kinds[name], box) for name in kinds}


def from_row(model: type[R], row: Mapping[str, Any], box: SecretBox) -> R:
    kinds = field_kinds(model)
    return model.model_validate({name: _decode(row[name], kinds[name], box) for name in kinds})


def secret_fields(model: type[Record]) -> tuple[str, ...]:
    return tuple(name for name, kind in field_kinds(model).items() if kind == "secret")


@cache
def field_kinds(model: type[Record]) -> dict[str, str]:
    """Each field's storage kind: "secret", "json" or "plain"."""
    return {name: _kind(info.annotation) for name, info in model.model_fields.items()}


def _kind(annotation: Any) -> str:
    for arg in _flatten(annotation):
        if arg is SecretStr:
            return "secret"
        if get_origin(arg) in (tuple, list, dict) or (isinstance(arg, type) and issubclass(arg, BaseModel)):
            return "json"
    return "plain"


def _flatten(annotation: Any) -> Iterator[Any]:
    origin = get_origin(annotation)
    if origin is Annotated:
        yield from _flatten(get_args(annotation)[0])
    elif origin in (Union, types.UnionType):
        for arg in get_args(annotation):
            yield from _flatten(arg)
    else:
        yield annotation


def _encode(value: Any, kind: str, box: SecretBox) -> Any:
    if value is None:
        return None
    if kind == "secret":
        return box.encrypt(value.get_secret_value())
    if kind == "json":
        return json.dumps(value.model_dump(mode="json") if isinstance(value, BaseModel) else value)
    if isinstance(value, datetime):
        return encode_time(value)
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, bool):
        return int(value)
    return value


def _decode(value: Any, kind: str, box: SecretBox) -> Any:
    if value is None:
        return None
    if kind == "secret":
        return SecretStr(box.decrypt(value))
    if kind == "json":
        return json.loads(value)
    return value
