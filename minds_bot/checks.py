"""``minds-bot check``: is the configuration complete, does Minds accept the key, does Slack accept the token,
which store is used and is it reachable and migrated?

Owns: the checks and their one-line verdicts. Every verdict names a variable or an API answer, never a secret
(a database URL is shown with its password as ***).
Must not touch: any listener; the store only through its read-only schema probes (nothing is created or
migrated by a check).
"""

from __future__ import annotations

from dataclasses import dataclass

import aiohttp
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from minds_bot.settings import Settings

CHECK_TIMEOUT_SECONDS = 10.0


@dataclass(frozen=True)
class CheckResult:
    name: str
    ok: bool
    detail: str

    def line(self) -> str:
        return f"{'ok  ' if self.ok else 'FAIL'} {self.name}: {self.detail}"


def check_settings(settings: Settings) -> CheckResult:
    if not settings.has_slack_credentials:
        return CheckResult("settings", False, "no Slack credentials are set (see docs/operating.md → Configuration)")
    problems = settings.problems_for_run(http=settings.slack_app_token is None)
    if problems:
        return CheckResult("settings", False, "; ".join(problems))
    mode = "OAuth installs" if settings.oauth_enabled else "one workspace"
    return CheckResult("settings", True, f"{settings.slack_mode.value} mode, {mode}")


async def check_minds(settings: Settings) -> CheckResult:
    if settings.minds_api_key is None:
        return CheckResult("minds", True, "no MINDS_API_KEY: each workspace connects with /minds connect")
    from minds_bot.minds import AuthenticationError, MindsClient, MindsError

    try:
        async with MindsClient.create(
            api_key=settings.minds_api_key.get_secret_value(),
            base_url=settings.minds_api_url,
            timeout=CHECK_TIMEOUT_SECONDS,
        ) as client:
            me = await client.me()
    except AuthenticationError as exc:  # the operator's words; what Minds said stays beside them
        return CheckResult("minds", False, f"{settings.minds_api_url}: Minds did not accept the key ({exc})")
    except MindsError as exc:
        return CheckResult("minds", False, f"{settings.minds_api_url}: {exc}")
    serves = settings.minds_bot_default_team_id if settings.oauth_enabled else "the bot token's workspace"
    return CheckResult("minds", True, f"key accepted by {settings.minds_api_url} (account {me.id}); serves {serves}")


async def check_slack(settings: Settings) -> CheckResult:
    if settings.slack_bot_token is None:
        if settings.oauth_enabled:
            return CheckResult("slack", True, "OAuth mode: bot tokens arrive with each workspace install")
        return CheckResult("slack", False, "SLACK_BOT_TOKEN is not set")
    client = AsyncWebClient(
        token=settings.slack_bot_token.get_secret_value(),
        base_url=settings.slack_api_url,
        timeout=int(CHECK_TIMEOUT_SECONDS),
    )
    try:
        reply = await client.auth_test()
    except SlackApiError as exc:
        return CheckResult("slack", False, f"auth.test answered {exc.response.get('error', 'an error')}")
    except (OSError, TimeoutError, aiohttp.ClientError) as exc:
        return CheckResult("slack", False, f"cannot reach {settings.slack_api_url}: {type(exc).__name__}")
    return CheckResult("slack", True, f"connected to {reply.get('team')} as @{reply.get('user')}")


async def check_store(settings: Settings) -> CheckResult:
    from minds_bot.store import StoreError, redact_url, schema_version_of, sqlite_schema_version

    url = settings.minds_bot_database_url
    try:
        if url is not None:
            where = f"PostgreSQL at {redact_url(url.get_secret_value())}"
            current, latest = await schema_version_of(url.get_secret_value())
        else:
            where = f"SQLite file {settings.minds_bot_db}"
            current, latest = await sqlite_schema_version(settings.minds_bot_db)
    except StoreError as exc:
        return CheckResult("store", False, str(exc))
    if current > latest:
        return CheckResult("store", False, f"{where}: schema version {current} is newer than this minds-bot ({latest})")
    if current < latest:
        state = "new" if current == 0 else f"at schema version {current}"
        return CheckResult("store", True, f"{where}: reachable, {state}; migrated to version {latest} at start")
    return CheckResult("store", True, f"{where}: reachable, migrated (schema version {current})")


async def run_checks(settings: Settings) -> list[CheckResult]:
    return [
        check_settings(settings),
        await check_minds(settings),
        await check_slack(settings),
        await check_store(settings),
    ]
