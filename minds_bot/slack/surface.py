"""What the app offers Slack, recorded while listeners are registered, so the manifest cannot drift from the code.

Owns: the slash-command, shortcut and workflow-step (custom function) definitions, the bot scopes (each with
the reason we need it) and ``Surface``, a thin recorder around Bolt's registration decorators.
``minds-bot manifest`` builds the app against a ``Surface`` and renders whatever was registered. Given the error
hook (``on_error``), it registers each listener through ``errors.acked_first``, so Slack's acknowledgement never
depends on the work that follows it; every listener gets the surface's command router in its ``context``
(``context.router_of``).
Must not touch: the network, the store, or any listener's behaviour.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from slack_bolt.async_app import AsyncApp

from minds_bot.slack.context import router_middleware

if TYPE_CHECKING:  # loaded with the first listener registered: the paths and scopes here are read at start-up
    from minds_bot.slack.errors import ErrorHook
    from minds_bot.slack.router import CommandRouter


def _command_router() -> CommandRouter:
    from minds_bot.slack.router import CommandRouter

    return CommandRouter()


@dataclass(frozen=True)
class SlashCommand:
    command: str
    description: str
    usage_hint: str


@dataclass(frozen=True)
class Shortcut:
    callback_id: str
    name: str
    description: str
    kind: str = "global"  # "global" or "message"


@dataclass(frozen=True)
class Param:
    """One input or output of a workflow step, as the manifest declares it (``type`` is Slack's:
    ``string``, ``integer``, ``slack#/types/channel_id`` …; ``hint``: what Workflow Builder suggests for it)."""

    name: str
    type: str
    title: str
    description: str
    required: bool = True
    hint: str | None = None


@dataclass(frozen=True)
class WorkflowStep:
    """A Slack custom function offered to Workflow Builder: Bolt's ``function`` listener plus its manifest entry."""

    callback_id: str
    title: str
    description: str
    inputs: tuple[Param, ...]
    outputs: tuple[Param, ...]


# Where Slack reaches the bot in HTTP mode (the server's routes and the manifest's URLs).
EVENTS_PATH = "/slack/events"
INSTALL_PATH = "/slack/install"
OAUTH_REDIRECT_PATH = "/slack/oauth_redirect"

MINDS_COMMAND = SlashCommand(
    command="/minds",
    description="Plan and run Minds synthetic research from Slack",
    usage_hint="help · studies · plan <study> <request> · ask <study> <question> · summary <study>",
)

# The workflow steps (Slack custom functions): their titles and hints are the manifest's, in one language, like
# the command's description; ``slack/workflows.py`` registers their listeners.
STRING = "string"
CHANNEL = "slack#/types/channel_id"
# Slack fills a user_context only from the workflow's trigger (or a step someone clicked): {"id": "U…", "secret": …}.
# Workflow Builder shows no field for it and a builder cannot type one, so it is the one input that says who acts.
USER_CONTEXT = "slack#/types/user_context"

STUDY_INPUT = Param("study", STRING, "Study", "The Study's exact name or id (a Study of this workspace's Minds key)")
CHANNEL_INPUT_HINT = "The channel where the thread is posted: one the person who runs the workflow and the bot are in"
RUN_BY_INPUT = Param(
    "run_by",
    USER_CONTEXT,
    "Run by",
    "The person who used this workflow: the step acts as them (their channels, their share of the Minds budget)",
    hint="Person who used this workflow",
)

ASK_STEP = WorkflowStep(
    callback_id="minds_ask_question",
    title="Ask Minds a question",
    description="Ask one question to a Study's Minds; completes with the result when the run ends",
    inputs=(
        STUDY_INPUT,
        Param("question", STRING, "Question", "One standalone question (at most 2,000 characters)"),
        Param("channel", CHANNEL, "Channel", CHANNEL_INPUT_HINT),
        RUN_BY_INPUT,
    ),
    outputs=(
        Param(
            "summary", STRING, "Result summary", "The result as its thread says it: title, then one line per Audience"
        ),
        Param("n", "integer", "Answers (n)", "How many answers Minds returned"),
        Param("thread_link", STRING, "Thread link", "Link to the question's thread in the channel"),
    ),
)

PLAN_STEP = WorkflowStep(
    callback_id="minds_plan_research",
    title="Plan Minds research",
    description="Draft a Minds research plan in a channel, for approval there; completes with the plan's link",
    inputs=(
        STUDY_INPUT,
        Param("request", STRING, "Request", "What to research, in your words (at most 3,000 characters)"),
        Param(
            "channel",
            CHANNEL,
            "Channel",
            "The channel where the plan is posted for approval: one the person who runs the workflow and the bot "
            "are in",
        ),
        RUN_BY_INPUT,
    ),
    outputs=(Param("plan_link", STRING, "Plan link", "Link to the plan message, where approvers approve it"),),
)

STEPS = (ASK_STEP, PLAN_STEP)

# Bot scopes, each with the Web API call or event that needs it.
BOT_SCOPES: dict[str, str] = {
    "commands": "the /minds slash command and shortcuts",
    "chat:write": "plan messages, progress updates and results (chat.postMessage / chat.update)",
    "chat:write.public": "plans and exports posted in public channels where /minds was used but the bot not invited",
    "files:write": "reports, exports and charts attached in threads",
    "files:read": "files shared in Slack, downloaded only when someone imports them as Audience sources or asks "
    "about an image or PDF (its stimulus)",
    "users:read": "the requester's timezone and locale (users.info) and admin checks for approvals",
    "channels:read": "channel names, and who is in a channel before a digest goes there (conversations.info/members)",
    "groups:read": "the same for private channels where the bot was invited",
    "reactions:write": "a reaction on the request when a run finishes",
    "im:write": "the DM to a requester (and whoever asked) when a research run ends (conversations.open)",
}

# Events Slack delivers only with an extra scope.
EVENT_SCOPES: dict[str, str] = {
    "link_shared": "links:read",
    "message.channels": "channels:history",
    "message.groups": "groups:history",
}


@dataclass
class Surface:
    """Wraps an ``AsyncApp`` and records every command, shortcut, event and interactive surface registered;
    ``router`` is the ``/minds`` command table the surface modules add their commands to."""

    app: AsyncApp
    commands: list[SlashCommand] = field(default_factory=list)
    shortcuts: list[Shortcut] = field(default_factory=list)
    events: list[str] = field(default_factory=list)
    interactive: bool = False
    options: bool = False
    app_home: bool = False
    unfurl_domains: list[str] = field(default_factory=list)
    functions: list[WorkflowStep] = field(default_factory=list)
    router: CommandRouter = field(default_factory=_command_router)  # the /minds command table
    on_error: ErrorHook | None = None  # reports a failure after a listener's ack (``errors.acked_first``)

    @property
    def _middleware(self) -> list[Callable[..., Any]]:
        """Listener middleware for every listener: the router in its context (``context.router_of``)."""
        return [router_middleware(self.router)]

    def _acked_first(self, register: Callable[..., Any]) -> Callable[..., Any]:
        """Bolt's decorator ``register``, registering the listener through ``acked_first``; returns the listener."""
        hook = self.on_error
        if hook is None:
            return register
        from minds_bot.slack.errors import acked_first

        def decorate(listener: Callable[..., Any]) -> Callable[..., Any]:
            register(acked_first(listener, on_error=hook))
            return listener

        return decorate

    def command(self, spec: SlashCommand) -> Callable[..., Any]:
        self.commands.append(spec)
        return self._acked_first(self.app.command(spec.command, middleware=self._middleware))

    def shortcut(self, spec: Shortcut) -> Callable[..., Any]:
        self.shortcuts.append(spec)
        self.interactive = True
        return self._acked_first(self.app.shortcut(spec.callback_id, middleware=self._middleware))

    def event(self, name: str) -> Callable[..., Any]:
        if name not in self.events:
            self.events.append(name)
        if name == "app_home_opened":
            self.app_home = True
        return self._acked_first(self.app.event(name, middleware=self._middleware))

    def message_events(self, names: tuple[str, ...]) -> Callable[..., Any]:
        """Slack's ``message.channels``/``message.groups`` subscriptions, all delivered to one ``message`` listener."""
        for name in names:
            if name not in self.events:
                self.events.append(name)
        return self._acked_first(self.app.event("message", middleware=self._middleware))

    def action(self, constraints: Any) -> Callable[..., Any]:
        self.interactive = True
        return self._acked_first(self.app.action(constraints, middleware=self._middleware))

    def view(self, constraints: Any) -> Callable[..., Any]:
        self.interactive = True
        return self._acked_first(self.app.view(constraints, middleware=self._middleware))

    def view_closed(self, constraints: Any) -> Callable[..., Any]:
        self.interactive = True
        return self._acked_first(self.app.view_closed(constraints, middleware=self._middleware))

    def external_options(self, constraints: Any) -> Callable[..., Any]:
        self.interactive = True
        self.options = True
        return self._acked_first(self.app.options(constraints, middleware=self._middleware))

    def function(self, spec: WorkflowStep) -> Callable[..., Any]:
        """A workflow step: Slack sends ``function_executed`` with its inputs; Bolt acknowledges the event and
        the listener completes the step (``complete``/``fail``, now or later)."""
        self.functions.append(spec)
        if "function_executed" not in self.events:
            self.events.append("function_executed")
        return self.app.function(spec.callback_id, middleware=self._middleware)

    def unfurl(self, domain: str) -> Callable[..., Any]:
        self.unfurl_domains.append(domain)
        return self.event("link_shared")

    @property
    def bot_scopes(self) -> list[str]:
        scopes = list(BOT_SCOPES)
        scopes += [EVENT_SCOPES[e] for e in self.events if e in EVENT_SCOPES]
        if self.unfurl_domains:
            scopes.append("links:write")
        return sorted(set(scopes))
