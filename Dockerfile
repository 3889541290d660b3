# minds-bot: a slim image that runs the bot in HTTP mode (for Socket Mode, run the command `minds-bot run`).
FROM python:3.12-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    MINDS_BOT_DB=/data/minds-bot.sqlite3

# Noto Sans CJK: charts with Chinese, Japanese or Korean words (render/bars.py finds it and checks that its glyphs
# cover the labels; without such a font a chart is not drawn and the thread says so, never boxes).
RUN apt-get update \
    && apt-get install -y --no-install-recommends fonts-noto-cjk \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /app
# The bot alone: the Minds sandbox and the Slack emulator (sandbox/, the extra minds-bot[demo]) stay out of the image.
COPY pyproject.toml README.md ./
COPY minds_bot ./minds_bot
RUN pip install . \
    && useradd --create-home --uid 10001 minds \
    && mkdir -p /data \
    && chown minds:minds /data

USER minds
VOLUME ["/data"]
EXPOSE 3000

# HTTP mode answers /healthz once the database is migrated and it takes Slack requests ("warm": true once every
# listener is registered and the run tracker runs, a few tens of milliseconds later).
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
    CMD python -c "import sys, urllib.request; sys.exit(0 if urllib.request.urlopen('http://127.0.0.1:3000/healthz', timeout=4).status == 200 else 1)"

CMD ["minds-bot", "run", "--http", "--host", "0.0.0.0", "--port", "3000"]
