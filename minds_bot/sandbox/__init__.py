"""Real local stand-ins for what the bot talks to, for demos, end-to-end tests and benchmarks.

- ``minds_api``: the embedded Minds v1 API server (``minds-bot sandbox``).
- ``slack_api``: the local Slack emulator (Web API + a browser page), a development tool.

The bot itself never imports this package; only the CLI, tests and benchmarks do.
"""
