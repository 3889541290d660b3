"""minds-bot: Minds synthetic market research in Slack channels."""

__version__ = "0.1.0"
