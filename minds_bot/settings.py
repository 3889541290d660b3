"""The bot's configuration: one pydantic object, read once at start and passed down.

Owns: reading environment variables (and a ``.env`` file: ``Settings.from_env``; a variable set in the environment
wins over the file, a value passed in wins over both, names are case-insensitive, unknown ones are ignored), checking
their form, deciding which Slack mode the
bot runs in, and refusing an install-wide ``MINDS_API_KEY`` in OAuth mode unless ``MINDS_BOT_DEFAULT_TEAM_ID``
names the one workspace it serves. It never prints a secret: problems name the variable, never its value.
Must not touch: the network, the database or logging handlers.
"""

from __future__ import annotations

import base64
import os
import re
from enum import StrEnum
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_core import ErrorDetails

DEFAULT_MINDS_API_URL = "https://getminds.ai/api/v1"
DEFAULT_MINDS_WEB_URL = "https://getminds.ai"
DEFAULT_SLACK_API_URL = "https://slack.com/api/"
DEFAULT_DB = "./minds-bot.sqlite3"
ENV_FILE = ".env"
DATABASE_URL_SCHEMES = ("postgresql", "postgres")
DEFAULT_POOL_SIZE = 10
DEFAULT_LEASE_SECONDS = 60.0

MINDS_KEY_PATTERN = re.compile(r"^minds_[0-9a-f]{48}$")
TEAM_ID_PATTERN = re.compile(r"^[TE][A-Z0-9]{2,}$")
# Slack token prefixes, checked so a pasted token of the wrong kind is caught before a confusing API error.
TOKEN_PREFIXES = {
    "SLACK_BOT_TOKEN": ("xoxb-",),
    "SLACK_APP_TOKEN": ("xapp-",),
}
# What a backslash before these letters means inside double quotes in a .env file (as python-dotenv read them).
ESCAPES = {"n": "\n", "t": "\t", "r": "\r"}
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


class SlackMode(StrEnum):
    SOCKET = "socket"
    HTTP = "http"


class LogFormat(StrEnum):
    TEXT = "text"
    JSON = "json"


class SettingsError(Exception):
    """Every problem with the configuration, in plain words, at once."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__(self.render())

    def render(self) -> str:
        lines = ["minds-bot cannot start: the configuration has problems."]
        lines += [f"  - {p}" for p in self.problems]
        lines.append("Set these as environment variables (or in a .env file) and try again.")
        return "\n".join(lines)


def _field_problem(error: ErrorDetails) -> str:
    message = str(error.get("msg", "is invalid"))
    message = message.removeprefix("Value error, ")
    if not error.get("loc"):  # a rule about several variables names them itself
        return message
    return f"{str(error['loc'][0]).upper()}: {message}"


def is_fernet_key(key: str) -> bool:
    """Whether ``key`` is a Fernet key (32 bytes in url-safe base64), checked as Fernet itself checks it, without
    loading the cryptography library the bot needs only when it first encrypts or decrypts."""
    try:
        return len(base64.urlsafe_b64decode(key.encode("ascii"))) == 32
    except (ValueError, UnicodeError):  # binascii.Error is a ValueError
        return False


def read_env_file(path: str | Path) -> dict[str, str]:
    """``NAME=value`` lines of a ``.env`` file (``export`` before a name, ``#`` comments, values in single or
    double quotes, a `` #`` comment after an unquoted value); names lower-cased. No such file (or a directory of
    that name): nothing."""
    if not Path(path).is_file():
        return {}
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    found: dict[str, str] = {}
    for line in lines:
        name, equals, value = line.strip().removeprefix("export ").partition("=")
        name = name.strip()
        if not equals or not name or name.startswith("#"):
            continue
        found[name.lower()] = _env_value(value.strip())
    return found


def _env_value(raw: str) -> str:
    """A value as written after ``=``: up to its closing quote (``\\n``, ``\\t``, ``\\r``, ``\\"`` and ``\\\\`` read in
    double quotes), or up to a `` #`` comment when unquoted."""
    quote = raw[:1]
    if quote == "'":
        end = raw.find("'", 1)
        return raw[1:end] if end > 0 else raw
    if quote == '"':
        chars: list[str] = []
        escaped = False
        for char in raw[1:]:
            if escaped:
                chars.append(ESCAPES.get(char, char))
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                return "".join(chars)
            else:
                chars.append(char)
        return raw  # no closing quote: taken as written
    return raw.split(" #", 1)[0].rstrip()


class Settings(BaseModel):
    """Everything the bot reads from its environment. Secrets are ``SecretStr`` so they never print.
    ``Settings(...)`` takes only what it is given (and the defaults); ``Settings.from_env`` reads the environment."""

    model_config = ConfigDict(extra="ignore")

    @classmethod
    def from_env(cls, *, env_file: str | Path | None = ENV_FILE, **values: Any) -> Settings:
        """The settings from ``values``, then the environment, then ``env_file`` (None: no file), then defaults."""
        found = read_env_file(env_file) if env_file is not None else {}
        found |= {name.lower(): value for name, value in os.environ.items()}
        return cls.model_validate({**{name: found[name] for name in cls.model_fields if name in found}, **values})

    slack_bot_token: SecretStr | None = None
    slack_signing_secret: SecretStr | None = None
    slack_app_token: SecretStr | None = None
    slack_api_url: str = DEFAULT_SLACK_API_URL
    slack_client_id: str | None = None
    slack_client_secret: SecretStr | None = None
    minds_api_url: str = DEFAULT_MINDS_API_URL
    # Where people open Studies and Audiences in their browser: links to it unfurl into a card.
    minds_web_url: str = DEFAULT_MINDS_WEB_URL
    minds_api_key: SecretStr | None = None
    # OAuth mode: the one workspace MINDS_API_KEY serves (every other workspace connects its own key).
    minds_bot_default_team_id: str | None = None
    minds_bot_db: str = DEFAULT_DB
    # PostgreSQL instead of the SQLite file (several replicas share it); a URL with a password, so secret.
    minds_bot_database_url: SecretStr | None = None
    minds_bot_database_pool_size: int = Field(default=DEFAULT_POOL_SIZE, ge=1, le=100)
    # How long a replica's claim on a run, approval or question lasts without renewal: a dead replica's work
    # is taken over after at most this long.
    minds_bot_lease_seconds: float = Field(default=DEFAULT_LEASE_SECONDS, ge=1, le=3600)
    # The Minds budget of one API key: this many requests per this many seconds (Minds allows 300 a minute), shared
    # by every replica and workspace on the key (in PostgreSQL when MINDS_BOT_DATABASE_URL is set). A shorter
    # window is for tests and demos against the sandbox, which can count the same window.
    minds_bot_minds_requests_per_minute: int = Field(default=300, ge=1, le=100_000)
    minds_bot_minds_window_seconds: float = Field(default=60.0, ge=1, le=3600)
    # Posts and updates per second into one channel after a burst of ten (Slack: about one a second).
    minds_bot_slack_posts_per_second: float = Field(default=1.0, gt=0, le=1000)
    # chat.update calls per minute in one workspace (Slack's Tier 3 allows about 50); progress edits beyond it
    # are merged, newest content first.
    minds_bot_slack_updates_per_minute: int = Field(default=45, ge=1, le=100_000)
    # A font file (TTF/OTF/TTC) for charts with Chinese, Japanese or Korean words; unset: a system Noto CJK if found.
    minds_bot_chart_font: str | None = None
    # An open App Home is republished when what it shows changes, at most once per person this often.
    minds_bot_home_refresh_seconds: float = Field(default=10.0, ge=0, le=3600)
    minds_bot_secret_key: tuple[SecretStr, ...] = Field(default=())
    log_level: str = "INFO"
    log_format: LogFormat = LogFormat.TEXT
    # The report attached in a research run's thread when the run ends, and the /minds export defaults.
    minds_report_kind: Literal["executive_brief", "full_report", "raw_data"] = "full_report"
    minds_report_format: Literal["pdf", "md", "docx", "pptx", "csv", "xls", "sav"] = "md"
    # When a research run ends, its plan message's closing line in the channel says how it ended ("Completed —
    # results in the thread", "Cancelled by @ada" …); off: it only says that the run ended. Results are always in
    # the thread. A workspace connected with /minds connect chooses for itself.
    minds_outcome_in_channel: bool = True
    # This bot's public https address (HTTP mode). Minds fetches a question's stimulus — an image or PDF shared
    # in Slack — from here (GET /stimuli/<unguessable token>, until Minds has fetched it); unset: stimuli cannot be
    # sent.
    minds_bot_public_url: str | None = None
    # Prometheus metrics on their own port (Socket Mode has no other HTTP server); set, /metrics moves there from
    # the HTTP mode port. Bound to MINDS_BOT_METRICS_HOST, the loopback interface unless you choose another.
    minds_bot_metrics_port: int | None = Field(default=None, ge=1, le=65535)
    minds_bot_metrics_host: str = "127.0.0.1"

    @field_validator(
        "slack_bot_token",
        "slack_signing_secret",
        "slack_app_token",
        "slack_client_id",
        "slack_client_secret",
        "minds_api_key",
        "minds_bot_default_team_id",
        "minds_bot_public_url",
        "minds_bot_metrics_port",
        "minds_bot_database_url",
        mode="before",
    )
    @classmethod
    def _blank_is_unset(cls, value: object) -> object:
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("slack_bot_token", "slack_app_token")
    @classmethod
    def _token_prefix(cls, value: SecretStr | None, info: Any) -> SecretStr | None:
        name = info.field_name.upper()
        if value is not None and not value.get_secret_value().startswith(TOKEN_PREFIXES[name]):
            raise ValueError(f"must start with {' or '.join(TOKEN_PREFIXES[name])}")
        return value

    @field_validator("minds_api_key")
    @classmethod
    def _minds_key_form(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and not MINDS_KEY_PATTERN.match(value.get_secret_value().strip()):
            raise ValueError("must look like minds_ followed by 48 hex characters (Settings → API Keys in Minds)")
        return SecretStr(value.get_secret_value().strip()) if value is not None else None

    @field_validator("minds_bot_database_url")
    @classmethod
    def _database_url(cls, value: SecretStr | None) -> SecretStr | None:
        # The message never repeats the URL: it may carry a password.
        if value is None:
            return None
        try:
            parts = urlsplit(value.get_secret_value().strip())
            port = parts.port
        except ValueError:
            raise ValueError("is not a valid URL (postgresql://user:password@host:5432/database)") from None
        if parts.scheme not in DATABASE_URL_SCHEMES:
            raise ValueError("must be a postgresql:// URL (postgresql://user:password@host:5432/database)")
        if not parts.hostname or not parts.path.strip("/") or (port is not None and port <= 0):
            raise ValueError("must name a host and a database: postgresql://user:password@host:5432/database")
        return SecretStr(value.get_secret_value().strip())

    @field_validator("slack_api_url", "minds_api_url")
    @classmethod
    def _http_url(cls, value: str) -> str:
        value = value.strip()
        if not re.match(r"^https?://[^\s/]+", value):
            raise ValueError("must be an http:// or https:// URL")
        return value

    @field_validator("slack_api_url")
    @classmethod
    def _slack_url_slash(cls, value: str) -> str:
        # slack_sdk joins method names onto the base URL, so it must end with a slash.
        return value if value.endswith("/") else value + "/"

    @field_validator("minds_api_url")
    @classmethod
    def _minds_url_no_slash(cls, value: str) -> str:
        return value.rstrip("/")

    @field_validator("minds_bot_secret_key", mode="before")
    @classmethod
    def _split_keys(cls, value: object) -> object:
        if isinstance(value, str):
            return tuple(part.strip() for part in value.split(",") if part.strip())
        return value

    @field_validator("minds_bot_secret_key")
    @classmethod
    def _fernet_keys(cls, value: tuple[SecretStr, ...]) -> tuple[SecretStr, ...]:
        keys = [key.get_secret_value() for key in value]
        bad = [str(position) for position, key in enumerate(keys, start=1) if not is_fernet_key(key)]
        if bad:
            raise ValueError(
                f"key {', '.join(bad)} of {len(value)} is not a Fernet key (32 url-safe base64-encoded bytes); "
                'make one with: python3 -c "from cryptography.fernet import Fernet; '
                'print(Fernet.generate_key().decode())"'
            )
        return value

    @field_validator("log_level", mode="before")
    @classmethod
    def _log_level(cls, value: object) -> object:
        if isinstance(value, str):
            value = value.strip().upper()
            if value not in LOG_LEVELS:
                raise ValueError(f"must be one of {', '.join(LOG_LEVELS)}")
        return value

    @field_validator("log_format", mode="before")
    @classmethod
    def _log_format(cls, value: object) -> object:
        return value.strip().lower() if isinstance(value, str) else value

    @field_validator("minds_bot_default_team_id")
    @classmethod
    def _team_id_form(cls, value: str | None) -> str | None:
        if value is not None and not TEAM_ID_PATTERN.match(value.strip()):
            raise ValueError("must be a Slack workspace id such as T0123ABCD (Slack → About this workspace)")
        return value.strip() if value is not None else None

    @model_validator(mode="after")
    def _one_workspace_one_key(self) -> Settings:
        # An OAuth install serves many workspaces; a key for "whoever asks" would let any of them spend it.
        if self.oauth_enabled and self.minds_api_key is not None and self.minds_bot_default_team_id is None:
            raise ValueError(
                "MINDS_API_KEY: in OAuth mode (SLACK_CLIENT_ID/SLACK_CLIENT_SECRET) it would serve every workspace "
                "that installs the app; set MINDS_BOT_DEFAULT_TEAM_ID to the one workspace it belongs to, or unset "
                "it so each workspace connects its own key with /minds connect"
            )
        return self

    # --- derived facts -------------------------------------------------------------------------------------

    @property
    def oauth_enabled(self) -> bool:
        """Multi-workspace mode: installs arrive through Slack's OAuth flow."""
        return bool(self.slack_client_id and self.slack_client_secret)

    @property
    def slack_mode(self) -> SlackMode:
        return SlackMode.SOCKET if self.slack_app_token else SlackMode.HTTP

    @property
    def has_slack_credentials(self) -> bool:
        """Anything that says the operator meant to connect to a real Slack."""
        return any(
            (self.slack_bot_token, self.slack_app_token, self.slack_signing_secret)
            + (self.slack_client_id, self.slack_client_secret)
        )

    def secrets(self) -> list[str]:
        """Every configured secret value, for the log redaction filter."""
        values = [
            self.slack_bot_token,
            self.slack_signing_secret,
            self.slack_app_token,
            self.slack_client_secret,
            self.minds_api_key,
            *self.minds_bot_secret_key,
            self.minds_bot_database_url,
        ]
        found = [v.get_secret_value() for v in values if v is not None and v.get_secret_value()]
        if self.minds_bot_database_url is not None:
            password = urlsplit(self.minds_bot_database_url.get_secret_value()).password
            found += [password] if password else []
        return found

    def problems_for_run(self, *, http: bool) -> list[str]:
        """What is missing for ``minds-bot run`` in the chosen mode (empty when it can start)."""
        problems: list[str] = []
        if self.slack_client_id and not self.slack_client_secret:
            problems.append("SLACK_CLIENT_SECRET: is required when SLACK_CLIENT_ID is set (OAuth mode)")
        if self.slack_client_secret and not self.slack_client_id:
            problems.append("SLACK_CLIENT_ID: is required when SLACK_CLIENT_SECRET is set (OAuth mode)")
        if (http or not self.slack_app_token) and not self.slack_signing_secret:
            problems.append(
                "SLACK_SIGNING_SECRET: is required in HTTP mode (Slack app → Basic Information → "
                "Signing Secret); set SLACK_APP_TOKEN instead to use Socket Mode"
            )
        if not self.oauth_enabled and not self.slack_bot_token:
            problems.append(
                "SLACK_BOT_TOKEN: is required (xoxb-…, Slack app → OAuth & Permissions), "
                "or set SLACK_CLIENT_ID and SLACK_CLIENT_SECRET for multi-workspace installs"
            )
        if self.slack_app_token and self.oauth_enabled and not http:
            problems.append(
                "SLACK_APP_TOKEN: Socket Mode serves one workspace; unset SLACK_CLIENT_ID/SLACK_CLIENT_SECRET "
                "or run with --http for multi-workspace installs"
            )
        if not self.minds_bot_secret_key:
            problems.append(
                "MINDS_BOT_SECRET_KEY: is required to encrypt Minds keys and bot tokens at rest; make one with "
                'python3 -c "from cryptography.fernet import Fernet; print(Fernet.generate_key().decode())"'
            )
        return problems


def load_settings() -> Settings:
    """Read the settings once from the environment (and ``.env``); raises ``SettingsError`` listing every problem."""
    try:
        return Settings.from_env()
    except ValidationError as exc:
        raise SettingsError([_field_problem(e) for e in exc.errors(include_input=False)]) from None
