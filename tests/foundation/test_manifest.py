"""The manifest comes from the registered listeners, matches the committed files and is one Slack accepts."""

from __future__ import annotations

import io
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import jsonschema
import pytest
import yaml

from minds_bot.app import build_manifest_surface
from minds_bot.cli import main
from minds_bot.settings import Settings
from minds_bot.slack.manifest import build_manifest, render_manifest

REPO = Path(__file__).resolve().parents[2]
EXAMPLE_URL = "https://bot.example.com"
# Slack's documented manifest limits for the fields we fill.
LIMITS = {"name": 35, "description": 140, "long_description": 4000, "display_name": 80}


def cli(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize(
    ("filename", "args"),
    [("socket.yaml", ["--mode", "socket"]), ("http.yaml", ["--mode", "http", "--url", EXAMPLE_URL])],
)
def test_committed_manifests_match_the_generator(filename: str, args: list[str]) -> None:
    code, out, _ = cli("manifest", *args)
    assert code == 0
    committed = (REPO / "manifests" / filename).read_text()
    assert out == committed, f"manifests/{filename} is stale: regenerate it with `minds-bot manifest {' '.join(args)}`"


def test_http_manifest_points_every_request_url_under_the_base() -> None:
    code, out, _ = cli("manifest", "--mode", "http", "--url", EXAMPLE_URL + "/")
    assert code == 0
    manifest = yaml.safe_load(out)
    (command,) = manifest["features"]["slash_commands"]
    assert command["command"] == "/minds"
    assert command["url"] == f"{EXAMPLE_URL}/slack/events"
    assert manifest["settings"]["event_subscriptions"]["request_url"] == f"{EXAMPLE_URL}/slack/events"
    assert manifest["settings"]["socket_mode_enabled"] is False
    assert manifest["oauth_config"]["redirect_urls"] == [f"{EXAMPLE_URL}/slack/oauth_redirect"]
    scopes = set(manifest["oauth_config"]["scopes"]["bot"])
    assert {"chat:write", "commands", "files:write", "users:read"} <= scopes
    interactivity = manifest["settings"].get("interactivity")
    if interactivity is not None:
        assert interactivity["request_url"] == f"{EXAMPLE_URL}/slack/events"


def test_socket_manifest_has_no_request_urls() -> None:
    code, out, _ = cli("manifest")
    manifest = yaml.safe_load(out)
    assert code == 0 and manifest["settings"]["socket_mode_enabled"] is True
    assert "url" not in manifest["features"]["slash_commands"][0]
    assert "request_url" not in manifest["settings"].get("event_subscriptions", {})
    assert "redirect_urls" not in manifest["oauth_config"]


def test_manifest_fields_respect_slack_limits() -> None:
    manifest = build_manifest(build_manifest_surface(Settings.model_construct()), mode="http", url=EXAMPLE_URL)
    info = manifest["display_information"]
    for key in ("name", "description", "long_description"):
        assert len(info[key]) <= LIMITS[key]
    assert len(info["long_description"]) >= 174  # Slack rejects shorter long descriptions
    assert len(manifest["features"]["bot_user"]["display_name"]) <= LIMITS["display_name"]


def test_every_registered_event_is_declared() -> None:
    surface = build_manifest_surface(Settings.model_construct())
    manifest = build_manifest(surface, mode="socket")
    assert manifest["settings"]["event_subscriptions"]["bot_events"] == surface.events
    assert "app_home_opened" in surface.events and manifest["features"]["app_home"]["home_tab_enabled"]


@pytest.mark.parametrize("url", [None, "http://bot.example.com", "bot.example.com"])
def test_http_manifest_refuses_a_missing_or_insecure_url(url: str | None) -> None:
    args = ["manifest", "--mode", "http"] + (["--url", url] if url else [])
    code, out, err = cli(*args)
    assert code == 2 and out == ""
    assert "--url" in err


def test_render_is_stable_yaml() -> None:
    manifest = build_manifest(build_manifest_surface(Settings.model_construct()), mode="socket")
    assert yaml.safe_load(render_manifest(manifest)) == manifest


def test_both_workflow_steps_are_declared_with_the_inputs_the_code_reads() -> None:
    from minds_bot.flows.workflows import ASK_INPUTS, PLAN_INPUTS, RUN_BY

    manifest = build_manifest(build_manifest_surface(Settings.model_construct()), mode="socket")
    functions = manifest["functions"]
    assert set(functions) == {"minds_ask_question", "minds_plan_research"}
    ask, plan = functions["minds_ask_question"], functions["minds_plan_research"]
    assert ask["title"] == "Ask Minds a question" and plan["title"] == "Plan Minds research"
    for declared, read in ((ask, ASK_INPUTS), (plan, PLAN_INPUTS)):
        inputs = declared["input_parameters"]
        assert list(inputs["properties"]) == [*(i.key for i in read), RUN_BY]
        assert inputs["required"] == list(inputs["properties"])  # the code refuses a step without any of them
        # Who runs the step is Slack's user_context, which only the workflow's trigger fills: no input names a person.
        run_by = inputs["properties"][RUN_BY]
        assert run_by["type"] == "slack#/types/user_context"
        assert (run_by["title"], run_by["hint"]) == ("Run by", "Person who used this workflow")
        types = [p["type"] for p in inputs["properties"].values()]
        assert "slack#/types/user_id" not in types and types.count("slack#/types/user_context") == 1
    assert ask["input_parameters"]["properties"]["channel"]["type"] == "slack#/types/channel_id"
    outputs = {name: p["type"] for name, p in ask["output_parameters"]["properties"].items()}
    assert outputs == {"summary": "string", "n": "integer", "thread_link": "string"}
    assert plan["output_parameters"]["required"] == ["plan_link"]


def test_workflow_steps_run_on_the_bot_and_hear_function_executed() -> None:
    manifest = build_manifest(build_manifest_surface(Settings.model_construct()), mode="socket")
    settings = manifest["settings"]
    assert settings["function_runtime"] == "remote"
    assert settings["org_deploy_enabled"] is True  # Slack offers custom steps only from org-ready apps
    assert "function_executed" in settings["event_subscriptions"]["bot_events"]


# The part of Slack's published manifest schemas (github.com/slackapi/manifest-schema, schemas/manifest.schema.1.0.0
# and 2.0.0.json) that decides how a function's parameters are laid out: version 1 (also what Slack assumes when
# `_metadata.major_version` is missing) maps each parameter name to a parameter object; version 2 has
# `{properties: {name: parameter}, required: [names]}`.
PARAMETER = {
    "type": "object",
    "required": ["type"],
    "properties": {
        "type": {"type": "string"},
        "title": {"type": "string"},
        "description": {"type": "string"},
        "hint": {"type": "string"},
        "is_required": {"type": "boolean"},
    },
}
V1_PARAMETERS = {"type": "object", "additionalProperties": PARAMETER}
V2_PARAMETERS = {
    "type": "object",
    "required": ["properties"],
    "properties": {
        "properties": {"type": "object", "additionalProperties": PARAMETER},
        "required": {"type": "array", "items": {"type": "string"}},
    },
}


def _functions_schema(parameters: dict[str, object]) -> dict[str, object]:
    function = {
        "type": "object",
        "required": ["title", "description", "input_parameters", "output_parameters"],
        "properties": {"input_parameters": parameters, "output_parameters": parameters},
    }
    return {"type": "object", "properties": {"functions": {"type": "object", "additionalProperties": function}}}


@pytest.mark.parametrize("mode", ["socket", "http"])
def test_the_functions_layout_is_manifest_version_2_and_the_manifest_says_so(mode: str) -> None:
    url = EXAMPLE_URL if mode == "http" else None
    manifest = build_manifest(build_manifest_surface(Settings.model_construct()), mode=mode, url=url)
    assert next(iter(manifest)) == "_metadata" and manifest["_metadata"] == {"major_version": 2}
    jsonschema.validate(manifest, _functions_schema(V2_PARAMETERS))
    with pytest.raises(jsonschema.ValidationError):  # read as version 1, "required" would be a parameter
        jsonschema.validate(manifest, _functions_schema(V1_PARAMETERS))
    committed = yaml.safe_load((REPO / "manifests" / f"{mode}.yaml").read_text())
    assert committed["_metadata"] == {"major_version": 2}
