"""``python -m slack_emulator``: the same as ``minds-bot-slack-emulator``."""

from slack_emulator.cli import main

raise SystemExit(main())
