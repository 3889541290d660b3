"""The embedded Minds v1 API server: a real aiohttp server with seeded demo data, a deterministic planner,
runs that progress over an injectable clock, real export files and fault injection.

Public API: ``SandboxConfig``, ``Faults``, ``create_app``, ``running_sandbox``
(in-process on an ephemeral port), ``ManualClock``/``SystemClock``;
``cli.add_arguments``/``cli.run`` for ``minds-bot sandbox``.
The bot itself never imports this package.
"""

from minds_bot.sandbox.minds_api.app import RunningSandbox, create_app, running_sandbox
from minds_bot.sandbox.minds_api.clock import ManualClock, SystemClock
from minds_bot.sandbox.minds_api.config import Faults, SandboxConfig

__all__ = [
    "Faults",
    "ManualClock",
    "RunningSandbox",
    "SandboxConfig",
    "SystemClock",
    "create_app",
    "running_sandbox",
]
