"""The Slack app manifest, rendered from a ``Surface`` that the real listeners were registered on.

Owns: the manifest's shape (display information, features, OAuth scopes, workflow steps as ``functions``,
settings) for Socket Mode and HTTP mode, and its YAML rendering. Workflow steps declare their parameters as
``{properties, required}``, the layout of manifest version 2 (``_metadata.major_version: 2``; without it Slack
reads a manifest as version 1, whose functions list their parameters flat). They run on the bot's own server
(``function_runtime: remote``), which Slack allows only for org-ready apps (``org_deploy_enabled``).
``manifests/`` holds the two generated files; a test proves they match this module.
Must not touch: listener behaviour (it only reads what was registered).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from minds_bot.slack.surface import EVENTS_PATH, OAUTH_REDIRECT_PATH, Param, Surface, WorkflowStep

APP_NAME = "Minds"
# The manifest schema the manifest targets: 2 is the version whose functions take ``{properties, required}``.
MANIFEST_MAJOR_VERSION = 2
APP_DESCRIPTION = "Plan, approve and run Minds synthetic market research in your channels."
APP_LONG_DESCRIPTION = (
    "Minds for Slack brings synthetic market research from getminds.ai into the channels where insights, brand "
    "and product teams already work. Type /minds plan to draft a research plan for a Study, review its exact "
    "questions and confirmation questions together in the channel, and press Approve & run. Progress appears in "
    "the thread, the honest result arrives when the run finishes (partial and plan-limited runs are reported as "
    "such), and the report is attached as a file. Browse Studies and Audiences, ask one standalone question, read "
    "or refresh a Study summary, export reports, and get a research digest on a schedule."
)
BACKGROUND_COLOR = "#1d3b5a"
MODES = ("socket", "http")


class ManifestError(ValueError):
    """The manifest cannot be built as asked (for example HTTP mode without a public URL)."""


# Slack sends a command's "@ana" and "#research" as <@U…|ana> and <#C…|research> only with escaping on; without
# it they arrive as plain words and `/minds approvers add @ana` could not name anyone.
ESCAPE_COMMAND_TEXT = True


def _base_url(url: str | None) -> str:
    if not url:
        raise ManifestError(
            "HTTP mode needs --url, the public HTTPS base URL Slack will call (e.g. https://bot.example.com)"
        )
    parts = urlsplit(url)
    if parts.scheme != "https" or not parts.netloc:
        raise ManifestError(f"--url must be an https:// URL that Slack can reach, not {url!r}")
    return url.rstrip("/")


def build_manifest(surface: Surface, *, mode: str, url: str | None = None) -> dict[str, Any]:
    """The manifest as a dict. ``url`` is the public base URL (HTTP mode only)."""
    if mode not in MODES:
        raise ManifestError(f"--mode must be one of {', '.join(MODES)}")
    base = _base_url(url) if mode == "http" else None
    events_url = f"{base}{EVENTS_PATH}" if base else None
    features: dict[str, Any] = {
        "app_home": {
            "home_tab_enabled": surface.app_home,
            "messages_tab_enabled": False,
            "messages_tab_read_only_enabled": False,
        },
        "bot_user": {"display_name": APP_NAME, "always_online": True},
    }
    if surface.shortcuts:
        features["shortcuts"] = [
            {"name": s.name, "type": s.kind, "callback_id": s.callback_id, "description": s.description}
            for s in surface.shortcuts
        ]
    features["slash_commands"] = [_command(c, events_url) for c in surface.commands]
    if surface.unfurl_domains:
        features["unfurl_domains"] = list(surface.unfurl_domains)
    oauth: dict[str, Any] = {"scopes": {"bot": surface.bot_scopes}}
    if base:
        oauth["redirect_urls"] = [f"{base}{OAUTH_REDIRECT_PATH}"]
    manifest: dict[str, Any] = {
        "_metadata": {"major_version": MANIFEST_MAJOR_VERSION},
        "display_information": {
            "name": APP_NAME,
            "description": APP_DESCRIPTION,
            "background_color": BACKGROUND_COLOR,
            "long_description": APP_LONG_DESCRIPTION,
        },
        "features": features,
        "oauth_config": oauth,
    }
    if surface.functions:
        manifest["functions"] = {f.callback_id: _function(f) for f in surface.functions}
    manifest["settings"] = _settings(surface, events_url=events_url, socket=mode == "socket")
    return manifest


def _parameters(params: tuple[Param, ...]) -> dict[str, Any]:
    properties = {p.name: _parameter(p) for p in params}
    return {"properties": properties, "required": [p.name for p in params if p.required]}


def _parameter(param: Param) -> dict[str, Any]:
    entry: dict[str, Any] = {"type": param.type, "title": param.title, "description": param.description}
    if param.hint is not None:
        entry["hint"] = param.hint
    return entry | {"is_required": param.required}


def _function(step: WorkflowStep) -> dict[str, Any]:
    return {
        "title": step.title,
        "description": step.description,
        "input_parameters": _parameters(step.inputs),
        "output_parameters": _parameters(step.outputs),
    }


def _command(command: Any, events_url: str | None) -> dict[str, Any]:
    entry: dict[str, Any] = {"command": command.command}
    if events_url:
        entry["url"] = events_url
    entry |= {
        "description": command.description,
        "usage_hint": command.usage_hint,
        "should_escape": ESCAPE_COMMAND_TEXT,
    }
    return entry


def _settings(surface: Surface, *, events_url: str | None, socket: bool) -> dict[str, Any]:
    settings: dict[str, Any] = {}
    if surface.events:
        events: dict[str, Any] = {"bot_events": list(surface.events)}
        if events_url:
            events = {"request_url": events_url, **events}
        settings["event_subscriptions"] = events
    if surface.interactive:
        interactivity: dict[str, Any] = {"is_enabled": True}
        if events_url:
            interactivity["request_url"] = events_url
            if surface.options:
                interactivity["message_menu_options_url"] = events_url
        settings["interactivity"] = interactivity
    settings["org_deploy_enabled"] = bool(surface.functions)
    settings |= {"socket_mode_enabled": socket, "token_rotation_enabled": False}
    if surface.functions:
        settings["function_runtime"] = "remote"
    return settings


def render_manifest(manifest: dict[str, Any]) -> str:
    header = "# Generated by `minds-bot manifest`; do not edit by hand.\n"
    import yaml  # only the manifest command writes YAML

    return header + yaml.safe_dump(manifest, sort_keys=False, allow_unicode=True, width=100)
