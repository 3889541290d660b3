"""The embedded Minds v1 API server: a real aiohttp server with seeded demo data, a deterministic planner,
runs that progress over an injectable clock, real export files and fault injection. Its answers depend on the
question and each Mind's profile (``respondents``, ``voices``, ``topics``), and every result it simulates says so
(``outputData.simulated: true``, an extension Minds never sends).

Public API: ``SandboxConfig``, ``Faults``, ``create_app``, ``running_sandbox``
(in-process on an ephemeral port), ``ManualClock``/``SystemClock``;
``cli.add_arguments``/``cli.run`` for ``minds-bot sandbox``.
The bot itself never imports this package. The names load on first use (PEP 562), so ``minds-bot --help``
and ``minds-bot run`` do not pay for the server they do not start.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from minds_sandbox.app import RunningSandbox, create_app, running_sandbox
    from minds_sandbox.clock import ManualClock, SystemClock
    from minds_sandbox.config import Faults, SandboxConfig

_HOME = {
    "RunningSandbox": "app",
    "create_app": "app",
    "running_sandbox": "app",
    "ManualClock": "clock",
    "SystemClock": "clock",
    "Faults": "config",
    "SandboxConfig": "config",
}


def __getattr__(name: str) -> Any:
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{_HOME[name]}"), name)


__all__ = [
    "Faults",
    "ManualClock",
    "RunningSandbox",
    "SandboxConfig",
    "SystemClock",
    "create_app",
    "running_sandbox",
]
