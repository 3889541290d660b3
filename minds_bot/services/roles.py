"""The roles ``Services`` holds, as protocols: what the run tracker, a run handler, the Home tabs and the stimulus
shelf must do, so flows implement them and the composition (``minds_bot.composition``) plugs them in without this
layer importing a flow.

Owns: ``Observation`` (one look at a run), ``RunHandler`` (how one kind of run is read and shown), ``TellsEnds``
(a handler whose ``ended`` listeners hear when a run's end is shown), ``RunTracking`` (following started runs),
``HomeTabs`` and ``StimulusShelf``, and ``Composed``, how ``Services`` holds a role until it is plugged in.
The implementations: ``flows/tracking.RunTracker``, the handlers named in
``composition.run_handlers``, ``flows/home.HomeTabs``, ``flows/stimulus.StimulusShelf``.
Must not touch: any implementation.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar, overload

from minds_bot.services.background import Background
from minds_bot.store import TrackedRun


@dataclass(frozen=True)
class Observation:
    """One look at a run. ``visible`` is what a user would see; Slack is edited only when it changes."""

    visible: str
    terminal: bool
    detail: Any = None  # the handler's parsed reply, handed back to show_progress / post_terminal


class RunHandler(Protocol):
    """How one kind of run is read from Minds and shown in Slack."""

    async def observe(self, run: TrackedRun) -> Observation:
        """Read the run's state from Minds (GETs only). Raises ``MindsError`` when Minds cannot answer."""
        ...

    async def show_progress(self, run: TrackedRun, observation: Observation) -> str | None:
        """Show a changed, non-terminal state; returns the progress message's ts when one was posted."""
        ...

    async def post_terminal(self, run: TrackedRun, observation: Observation) -> None:
        """Post the final result. Called once per run (the tracker holds the claim); raise to retry later."""
        ...

    async def post_lost(self, run: TrackedRun, reads: int) -> None:
        """Say that Minds no longer finds the run (``reads`` 404s in a row); called once, then it is not followed."""
        ...


Listener = TypeVar("Listener")


class TellsEnds(RunHandler, Protocol[Listener]):
    """A run handler that tells its ``ended`` listeners once a run's end is shown (a workflow step waiting on it,
    the stimulus shelf releasing a file)."""

    ended: list[Listener]


class RunTracking(Background, Protocol):
    """Follows started runs until their result is posted once (``flows/tracking.RunTracker``)."""

    async def track(self, run: TrackedRun) -> None:
        """Remember a newly started run (before anything is shown) and poll it soon."""
        ...

    async def record_posted(self, run: TrackedRun) -> None:
        """The run's result is in Slack: record it (waiting out an outage of the store)."""
        ...


class HomeTabs(Background, Protocol):
    """People's App Home tabs (``flows/home.HomeTabs``)."""

    async def publish(self, client: Any, *, team_id: str, user_id: str, fresh: bool = True) -> None:
        """Build and publish ``user_id``'s Home now."""
        ...

    def changed(self, record: Any) -> None:
        """A plan post, tracked run, run's end or digest changed: the Homes that show it are refreshed (paced)."""
        ...


class StimulusShelf(Protocol):
    """Files waiting for Minds to fetch them at the bot's public URL (``flows/stimulus.StimulusShelf``)."""

    base_url: str | None

    def put(self, *, name: str, mimetype: str, content: bytes, owner: str, token: str | None = None) -> str: ...

    def get(self, token: str) -> tuple[str, str, bytes] | None: ...

    def token_of(self, url: str) -> str | None: ...

    def release(self, owner: str) -> int: ...


Role = TypeVar("Role")


class Composed(Generic[Role]):
    """A ``Services`` attribute the composition plugs in (``minds_bot.composition.compose``): reading it before
    then is an error that names the composition, never ``None`` travelling on."""

    def __set_name__(self, owner: type, name: str) -> None:
        self._name, self._slot = name, f"_{name}"

    @overload
    def __get__(self, obj: None, owner: type | None = None) -> Composed[Role]: ...

    @overload
    def __get__(self, obj: object, owner: type | None = None) -> Role: ...

    def __get__(self, obj: object | None, owner: type | None = None) -> Role | Composed[Role]:
        if obj is None:
            return self
        try:
            value: Role = obj.__dict__[self._slot]
        except KeyError:
            raise RuntimeError(f"no {self._name} yet: minds_bot.composition.compose plugs it in") from None
        return value

    def __set__(self, obj: object, value: Role) -> None:
        obj.__dict__[self._slot] = value
