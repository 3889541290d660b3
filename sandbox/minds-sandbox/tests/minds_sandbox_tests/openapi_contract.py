"""Validates sandbox responses against the response schemas the shared Minds OpenAPI declares.

The spec is found via MINDS_SHARED_DIR, then <repo>/../shared, then /work/shared.
"""

from __future__ import annotations

import json
import os
import re
from functools import cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

SPEC_URI = "urn:minds-openapi"
SPEC_RELATIVE = Path("reference/minds-api/openapi/getminds-openapi.json")
REPO_ROOT = Path(__file__).resolve().parents[4]  # sandbox/minds-sandbox/tests/minds_sandbox_tests/ in the repository


def shared_dir() -> Path:
    candidates = [os.environ.get("MINDS_SHARED_DIR"), REPO_ROOT.parent / "shared", "/work/shared"]
    for candidate in candidates:
        if candidate and (Path(candidate) / SPEC_RELATIVE).is_file():
            return Path(candidate)
    raise FileNotFoundError("Minds OpenAPI not found; set MINDS_SHARED_DIR")


class OpenApiContract:
    def __init__(self, spec: dict[str, Any]) -> None:
        self.spec = spec
        resource = Resource.from_contents(spec, default_specification=DRAFT202012)
        self._registry = Registry().with_resource(SPEC_URI, resource)
        self._routes = [(re.compile("^" + re.sub(r"\{[^}]+\}", "[^/]+", p) + "$"), p) for p in spec["paths"]]

    def template_for(self, path: str) -> str | None:
        # Literal segments win over parameters (e.g. /audiences/limits over /audiences/{id}).
        matches = [t for rx, t in self._routes if rx.match(path)]
        return min(matches, key=lambda t: t.count("{"), default=None)

    def validator_for(self, method: str, path: str, status: int) -> Draft202012Validator | None:
        template = self.template_for(path)
        if template is None:
            return None
        operation = self.spec["paths"][template].get(method.lower())
        response = (operation or {}).get("responses", {}).get(str(status))
        if not response or "application/json" not in response.get("content", {}):
            return None
        pointer = "/".join(
            [
                "#",
                "paths",
                _escape(template),
                method.lower(),
                "responses",
                str(status),
                "content",
                "application~1json",
                "schema",
            ]
        )
        return Draft202012Validator({"$ref": SPEC_URI + pointer}, registry=self._registry)

    def errors(self, method: str, path: str, status: int, body: Any) -> list[str] | None:
        """Schema errors for a response, or None when the spec declares no JSON schema for it."""
        validator = self.validator_for(method, path, status)
        if validator is None:
            return None
        return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(body)]


def _escape(segment: str) -> str:
    return segment.replace("~", "~0").replace("/", "~1")


@cache
def load_contract() -> OpenApiContract:
    return OpenApiContract(json.loads((shared_dir() / SPEC_RELATIVE).read_text()))
