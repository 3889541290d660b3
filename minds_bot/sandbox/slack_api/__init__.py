"""Local Slack emulator: Slack's Web API, signed requests to the bot, and a browser page, on 127.0.0.1.

A development tool for trying minds-bot without a Slack workspace and for end-to-end tests. The bot never
imports it. Public API: ``EmulatorConfig``, ``create_app``, ``running_emulator``, the ``Emulator`` handle and
``StepSpec`` (an app's workflow step).
"""

from minds_bot.sandbox.slack_api.config import DemoChannel, DemoUser, EmulatorConfig
from minds_bot.sandbox.slack_api.errors import EmulatorUsageError, SlackError
from minds_bot.sandbox.slack_api.interactions import Delivery
from minds_bot.sandbox.slack_api.server import EMULATOR_KEY, Emulator, create_app, running_emulator
from minds_bot.sandbox.slack_api.state import StepSpec

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
