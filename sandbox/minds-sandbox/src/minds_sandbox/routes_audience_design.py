"""Designing an Audience's sample: ``POST /audiences`` (a saved Audience of existing Minds) and
``POST /audiences/from-brief/segmentation-preview`` (a respondent dataset's segmentation, reviewed before creation).

Owns: those handlers and the dataset reading behind the preview. ``POST /audiences`` follows the OpenAPI: a
non-blank name (trimmed), ``mindIds`` deduplicated, 404 when a Mind is missing, public link sharing only when asked,
and the optional ``x-minds-idempotency-key`` (blank or longer than 128 characters: ignored) replaying the same
Audience with 200 where a new one gets 201. The preview takes ``file: {name, url}`` (at most 256 KiB of JSON):
CSV only here (the sandbox reads no spreadsheets: XLS and XLSX get 400), fetched only from this account's own
workspace uploads (``POST /audiences/source-import``; the sandbox has no network, so any other URL is 400). A
questionnaire or programming grid (columns such as ``question`` and ``type``) is refused as respondent data (400
``QUESTIONNAIRE_NOT_RESPONDENT_DATA``: pass it to from-brief instead). Otherwise every completed row (no empty
cell) is used, never sampled; each column gets a role (identifiers, held-out outcomes, structural variables with
at most 12 values), the structural ones (or the reviewed ``segmentationColumns``) are selected with their counts,
every pair of selected variables is a relationship, and a representative Mind count is recommended — never one
Mind per respondent. The reply is ``Cache-Control: private, no-store``.
Must not touch: runs, plans, exports; how a built Audience's personas are made (``seed.py``).
"""

from __future__ import annotations

import csv
import io
import itertools
from typing import Any

from aiohttp import web
from pydantic import BaseModel, Field

from minds_sandbox import views
from minds_sandbox.errors import ApiError, bad_request
from minds_sandbox.http_support import lookup, ok, parse, read_json, runtime
from minds_sandbox.middleware import KEY_FP

PREVIEW_MAX_BYTES = 256 * 1024
CREATE_KEY_MAX = 128
DATASET_EXTENSIONS = (".csv", ".xls", ".xlsx")
MAX_STRUCTURAL_VALUES = 12
MAX_RECOMMENDED = 50
GRID_COLUMNS = frozenset({"question", "question_text", "type", "options", "skip", "routing", "variable"})
OUTCOME_WORDS = ("nps", "recommend", "satisf", "intent", "likely", "score", "rating")
PRIVATE = {"Cache-Control": "private, no-store"}


class CreateAudience(BaseModel):
    name: str
    mindIds: list[str] = Field(default_factory=list)
    isLinkSharingEnabled: bool = False


async def create_audience(request: web.Request) -> web.Response:
    rt = runtime(request)
    state = rt.state
    body = parse(CreateAudience, await read_json(request))
    name = body.name.strip()
    if not name:
        raise bad_request("name must not be blank", code="VALIDATION_ERROR")
    key = (request.headers.get("x-minds-idempotency-key") or "").strip()
    scope = f"create-audience:{request[KEY_FP]}:{key}" if key and len(key) <= CREATE_KEY_MAX else None
    if scope and scope in state.duplicates:
        return ok(_created(request, state.audiences[state.duplicates[scope]["id"]]), status=200)
    mind_ids = list(dict.fromkeys(body.mindIds))
    for mind_id in mind_ids:
        lookup(state.minds, mind_id, "Mind")
    now = rt.clock.now()
    audience_id = state.new_id("audience")
    state.audiences[audience_id] = {
        "id": audience_id,
        "name": name,
        "mindIds": mind_ids,
        "createdAt": now,
        "updatedAt": now,
        "isLinkSharingEnabled": body.isLinkSharingEnabled,
        "publicShareId": state.new_id("share") if body.isLinkSharingEnabled else None,
        "brief": None,
    }
    if scope:
        state.duplicates[scope] = {"id": audience_id}
    state.touch()
    return ok(_created(request, state.audiences[audience_id]), status=201)


def _created(request: web.Request, audience: dict[str, Any]) -> dict[str, Any]:
    state = runtime(request).state
    return {
        **views.audience_summary(state, audience),
        "mindIds": list(audience["mindIds"]),
        "isPublic": False,
        "isSharedWithTeam": False,
        "isLinkSharingEnabled": audience["isLinkSharingEnabled"],
        "publicShareId": audience["publicShareId"],
    }


# ---------------------------------------------------------------- dataset segmentation preview


class DatasetFile(BaseModel):
    name: str = Field(min_length=1)
    url: str = Field(min_length=1)


class SegmentationRequest(BaseModel):
    file: DatasetFile
    segmentationColumns: list[str] | None = None


async def preview_segmentation(request: web.Request) -> web.Response:
    body = parse(SegmentationRequest, await read_json(request, max_bytes=PREVIEW_MAX_BYTES))
    name = body.file.name
    if not name.lower().endswith(DATASET_EXTENSIONS):
        raise bad_request("Only CSV, XLS or XLSX respondent datasets can be previewed", code="UNSUPPORTED_DATASET")
    if not name.lower().endswith(".csv"):
        raise bad_request("This sandbox reads CSV datasets only", code="UNSUPPORTED_DATASET")
    upload = runtime(request).state.uploads.get(body.file.url)
    if upload is None or upload["keyFp"] != request[KEY_FP] or "content" not in upload:
        raise bad_request("The dataset could not be fetched from that URL", code="DATASET_UNREACHABLE")
    header, rows = _read_csv(upload["content"])
    if _is_grid(header):
        raise bad_request(
            "This looks like a questionnaire or programming grid, not respondent data; pass it to "
            "create_audience_from_brief as a file instead",
            code="QUESTIONNAIRE_NOT_RESPONDENT_DATA",
        )
    completed = [row for row in rows if len(row) == len(header) and all(cell.strip() for cell in row)]
    if not completed:
        raise bad_request("The dataset has no completed respondent rows", code="EMPTY_DATASET")
    return ok(_review(name, header, rows, completed, body.segmentationColumns), headers=PRIVATE)


def _read_csv(content: str) -> tuple[list[str], list[list[str]]]:
    table = [row for row in csv.reader(io.StringIO(content)) if any(cell.strip() for cell in row)]
    if len(table) < 2:
        raise bad_request("The dataset is empty", code="EMPTY_DATASET")
    return table[0], table[1:]


def _is_grid(header: list[str]) -> bool:
    return len(GRID_COLUMNS & {h.strip().lower() for h in header}) >= 2


def _role(key: str, values: set[str]) -> str:
    lowered = key.lower()
    if lowered == "id" or lowered.endswith(("_id", " id")) or lowered.startswith("respondent"):
        return "identifier"
    if any(word in lowered for word in OUTCOME_WORDS):
        return "outcome"
    return "structural" if len(values) <= MAX_STRUCTURAL_VALUES else "other"


def _review(
    name: str, header: list[str], rows: list[list[str]], completed: list[list[str]], reviewed: list[str] | None
) -> dict[str, Any]:
    keys = [h.strip() for h in header]
    variables = []
    for index, key in enumerate(keys):
        column = [row[index].strip() for row in completed]
        role = _role(key, set(column))
        selected = role == "structural" and (reviewed is None or key in reviewed)
        variable: dict[str, Any] = {"key": key, "label": key.replace("_", " ").capitalize(), "role": role}
        variable["selected"] = selected
        if selected:
            counts: dict[str, int] = {}
            for value in column:
                counts[value] = counts.get(value, 0) + 1
            variable["distribution"] = [
                {"label": label, "count": count, "pct": round(100 * count / len(completed), 1)}
                for label, count in sorted(counts.items(), key=lambda item: (-item[1], item[0]))
            ]
        variables.append(variable)
    if reviewed is not None and (unknown := [k for k in reviewed if k not in {v["key"] for v in variables}]):
        raise ApiError(400, f"Unknown segmentation columns: {', '.join(unknown)}", code="UNKNOWN_COLUMNS")
    chosen = [v for v in variables if v["selected"]]
    pairs = [{"variables": [a["key"], b["key"]], "kind": "pairwise"} for a, b in itertools.combinations(chosen, 2)]
    segments = sum(len(v["distribution"]) for v in chosen)
    return {
        "file": {"name": name, "kind": "respondent_data"},
        "rows": {"total": len(rows), "completed": len(completed), "used": len(completed)},
        "recommendedMindCount": max(1, min(MAX_RECOMMENDED, len(completed), 2 * segments)),
        "variables": variables,
        "segmentationColumns": [v["key"] for v in chosen],
        "relationships": pairs,
        "relationshipCount": len(pairs),
        "functionalDependencies": [],
        "dependencyCount": 0,
        "dependencyDiscovery": {"maxPairs": len(pairs), "rowsUsed": len(completed)},
    }
