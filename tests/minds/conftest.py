from collections.abc import AsyncIterator

import pytest

from minds_bot.minds import MindsClient
from tests.fakes.minds_http import FakeMindsAPI, make_client


@pytest.fixture
def api() -> FakeMindsAPI:
    return FakeMindsAPI()


@pytest.fixture
async def client(api: FakeMindsAPI) -> AsyncIterator[MindsClient]:
    async with make_client(api) as minds:
        yield minds
