"""Scheduled digests: research news from Minds posted to a channel on a schedule.

Owns the digest use case; listeners live in ``minds_bot.slack.digest``, rendering in
``minds_bot.render.digest``. Must not touch: Slack listener registration, Minds wire shapes, SQL.

Public API::

    schedule.parse_schedule(kind, *, tz, time=None, weekday=None, cron=None) -> Schedule   (ScheduleError)
    schedule.schedule_of(digest) -> Schedule      schedule.describe(schedule) -> str
    schedule.next_fire(schedule, *, after) -> datetime | None
    schedule.latest_fire(schedule, *, now, since) -> datetime | None      schedule.window_key(fire) -> str
    content.gather(client, digest, previous: Watermark) -> DigestContent   (never raises MindsError;
        the records are in minds_bot.render.digest_news)
    flow.DigestFlow(store=, minds=, slack=, clock=) / DigestFlow.from_services(services)
        run_due(digest_id) -> Outcome            post the latest missed fire once (claimed per window)
        run_now(digest, *, request_key, requested_by) -> Outcome
    flow.new_digest(*, team_id, channel_id, schedule, study_ids, created_by, skip_quiet=False) -> Digest
    scheduler.DigestScheduler(flow=, store=, clock=, scheduler=None)   Background: APScheduler jobs per digest
        start() / stop() / sync() / catch_up() / schedule(digest) / unschedule(digest_id)
"""
