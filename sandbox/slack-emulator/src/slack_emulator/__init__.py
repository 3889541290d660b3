"""Local Slack emulator: Slack's Web API, signed requests to the bot, and a browser page, on 127.0.0.1.

A development tool for trying minds-bot without a Slack workspace and for end-to-end tests. The bot never
imports it. Public API: ``EmulatorConfig``, ``create_app``, ``running_emulator``, the ``Emulator`` handle and
``StepSpec`` (an app's workflow step).
"""

from slack_emulator.config import DemoChannel, DemoUser, EmulatorConfig
from slack_emulator.errors import EmulatorUsageError, SlackError
from slack_emulator.interactions import Delivery
from slack_emulator.server import EMULATOR_KEY, Emulator, create_app, running_emulator
from slack_emulator.state import StepSpec

__all__ = [
    "EMULATOR_KEY",
    "DemoChannel",
    "DemoUser",
    "Delivery",
    "Emulator",
    "EmulatorConfig",
    "EmulatorUsageError",
    "SlackError",
    "StepSpec",
    "create_app",
    "running_emulator",
]
