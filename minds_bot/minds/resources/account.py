"""The account resource: ``GET /auth/me`` (who the key belongs to).

Must not touch: Slack, the store."""

from __future__ import annotations

from minds_bot.minds.models import Me
from minds_bot.minds.transport import Transport, _json, _parse


class AccountApi(Transport):
    """``/auth/me``."""

    async def me(self) -> Me:
        """``GET /auth/me``: checks the key."""
        resp, info = await self._call("GET", "/auth/me")
        return _parse(Me, _json(resp, info), info)
