"""The schema as an ordered list of migrations, for SQLite (`MIGRATIONS`) and PostgreSQL (`PG_MIGRATIONS`).

Migration N (1-based) is `MIGRATIONS[N - 1]`, a tuple of statements applied in one transaction together with
the `schema_version` row that records it. Append only: never edit a migration that has shipped, add the next,
to both lists. Columns are named after the record fields (see codec.py) and keep the same types on both engines
(times are fixed-width UTC text, booleans 0/1), so one codec and one set of statements serve both. What only
PostgreSQL gets (`_PG_EXTRA`, keyed by the migration it extends): a `seq` column on the two tables ordered by
insertion (it has no `rowid`), and the Minds budget's counting function. SQL too long to read as a Python string
lives in a .sql file of this package (the Minds budget's: minds_budget.sql), read once at import; a shipped
migration's statements never change (tests/store/test_migrations.py). Owns no other I/O.
"""

from __future__ import annotations

from importlib import resources

Migration = tuple[str, ...]
SQL_PACKAGE = "minds_bot.store"  # where the schema's .sql files are (package data)


def _statements(name: str) -> Migration:
    """The statements of one of the package's .sql files: separated by a blank line, each ending in `;` (not
    sent), comment lines before a statement left out. Read once, when this module is imported."""
    text = resources.files(SQL_PACKAGE).joinpath(name).read_text(encoding="utf-8")
    statements = []
    for block in text.split("\n\n"):
        lines = block.strip("\n").split("\n")
        while lines and lines[0].startswith("--"):
            lines.pop(0)
        if lines:
            statement = "\n".join(lines)
            if not statement.endswith(";"):
                raise ValueError(f"{name}: a statement does not end with ';' before a blank line: {statement[:60]!r}")
            statements.append(statement.removesuffix(";"))
    return tuple(statements)


_V1_CORE: Migration = (
    """CREATE TABLE installations (
        enterprise_id TEXT, enterprise_name TEXT, enterprise_url TEXT,
        team_id TEXT, team_name TEXT, is_enterprise_install INTEGER NOT NULL, app_id TEXT,
        user_id TEXT NOT NULL,
        bot_token TEXT, bot_refresh_token TEXT, bot_token_expires_at TEXT,
        bot_id TEXT, bot_user_id TEXT, bot_scopes TEXT NOT NULL,
        user_token TEXT, user_refresh_token TEXT, user_token_expires_at TEXT, user_scopes TEXT NOT NULL,
        incoming_webhook_url TEXT, incoming_webhook_channel TEXT, incoming_webhook_channel_id TEXT,
        incoming_webhook_configuration_url TEXT, token_type TEXT,
        installed_at TEXT NOT NULL,
        enterprise_key TEXT GENERATED ALWAYS AS (coalesce(enterprise_id, '')) STORED,
        team_key TEXT GENERATED ALWAYS AS (coalesce(team_id, '')) STORED
    )""",
    "CREATE UNIQUE INDEX installations_key ON installations (enterprise_key, team_key, user_id)",
    """CREATE TABLE bots (
        enterprise_id TEXT, enterprise_name TEXT, team_id TEXT, team_name TEXT,
        is_enterprise_install INTEGER NOT NULL, app_id TEXT,
        bot_token TEXT NOT NULL, bot_refresh_token TEXT, bot_token_expires_at TEXT,
        bot_id TEXT NOT NULL, bot_user_id TEXT NOT NULL, bot_scopes TEXT NOT NULL,
        installed_at TEXT NOT NULL,
        enterprise_key TEXT GENERATED ALWAYS AS (coalesce(enterprise_id, '')) STORED,
        team_key TEXT GENERATED ALWAYS AS (coalesce(team_id, '')) STORED
    )""",
    "CREATE UNIQUE INDEX bots_key ON bots (enterprise_key, team_key)",
    "CREATE TABLE oauth_states (state TEXT PRIMARY KEY, expires_at TEXT NOT NULL)",
    """CREATE TABLE workspaces (
        team_id TEXT PRIMARY KEY, minds_key TEXT NOT NULL, account_label TEXT,
        default_language TEXT NOT NULL, broadcast_terminal INTEGER NOT NULL,
        connected_by TEXT NOT NULL, connected_at TEXT NOT NULL, updated_at TEXT
    )""",
    """CREATE TABLE approvers (
        team_id TEXT NOT NULL, channel_id TEXT NOT NULL, user_id TEXT NOT NULL, added_at TEXT NOT NULL,
        PRIMARY KEY (team_id, channel_id, user_id)
    )""",
    """CREATE TABLE plan_posts (
        team_id TEXT NOT NULL, channel_id TEXT NOT NULL, message_ts TEXT NOT NULL,
        study_id TEXT NOT NULL, study_name TEXT NOT NULL, draft_plan_id TEXT, revision INTEGER,
        requester_id TEXT NOT NULL, state TEXT NOT NULL, preview_idempotency_key TEXT NOT NULL,
        pending_receipt TEXT, created_at TEXT, updated_at TEXT,
        PRIMARY KEY (team_id, channel_id, message_ts)
    )""",
    "CREATE INDEX plan_posts_draft ON plan_posts (team_id, draft_plan_id)",
    """CREATE TABLE approvals (
        team_id TEXT NOT NULL, draft_plan_id TEXT NOT NULL, revision INTEGER NOT NULL,
        idempotency_key TEXT NOT NULL, approver_id TEXT NOT NULL, approved_at TEXT NOT NULL,
        state TEXT NOT NULL, run_id TEXT, failure TEXT, updated_at TEXT,
        PRIMARY KEY (team_id, draft_plan_id, revision)
    )""",
    """CREATE TABLE tracked_runs (
        team_id TEXT NOT NULL, run_id TEXT NOT NULL, study_id TEXT NOT NULL, kind TEXT NOT NULL,
        client_request_id TEXT, channel_id TEXT NOT NULL, thread_ts TEXT, progress_ts TEXT, last_state TEXT,
        next_poll_at TEXT NOT NULL, attempts INTEGER NOT NULL, terminal_posted INTEGER NOT NULL,
        terminal_claimed_at TEXT, finished_at TEXT, created_at TEXT, updated_at TEXT,
        PRIMARY KEY (team_id, run_id)
    )""",
    "CREATE INDEX tracked_runs_due ON tracked_runs (terminal_posted, next_poll_at)",
    """CREATE TABLE direct_asks (
        client_request_id TEXT PRIMARY KEY, team_id TEXT NOT NULL, study_id TEXT NOT NULL,
        channel_id TEXT NOT NULL, thread_ts TEXT, question TEXT NOT NULL, requester_id TEXT NOT NULL,
        run_id TEXT, created_at TEXT, updated_at TEXT
    )""",
    """CREATE TABLE exports (
        team_id TEXT NOT NULL, job_id TEXT NOT NULL, study_id TEXT NOT NULL, kind TEXT NOT NULL,
        format TEXT NOT NULL, requested_by TEXT NOT NULL, channel_id TEXT NOT NULL, thread_ts TEXT,
        state TEXT NOT NULL, file_name TEXT, sha256 TEXT, created_at TEXT, updated_at TEXT,
        PRIMARY KEY (team_id, job_id)
    )""",
    """CREATE TABLE digests (
        digest_id TEXT PRIMARY KEY, team_id TEXT NOT NULL, channel_id TEXT NOT NULL,
        schedule_kind TEXT NOT NULL, spec TEXT NOT NULL, tz TEXT NOT NULL, study_ids TEXT NOT NULL,
        created_by TEXT NOT NULL, watermark TEXT, last_posted_at TEXT, created_at TEXT, updated_at TEXT
    )""",
    """CREATE TABLE digest_runs (
        digest_id TEXT NOT NULL, window_key TEXT NOT NULL, claimed_at TEXT NOT NULL, completed_at TEXT,
        PRIMARY KEY (digest_id, window_key)
    )""",
    "CREATE TABLE deliveries (delivery_key TEXT PRIMARY KEY, seen_at TEXT NOT NULL)",
    "CREATE INDEX deliveries_seen ON deliveries (seen_at)",
)

# Whether a digest posts nothing for a period without news.
_V2_DIGEST_QUIET: Migration = ("ALTER TABLE digests ADD COLUMN skip_quiet INTEGER NOT NULL DEFAULT 0",)

# Whether Minds answered a direct ask's POST definitively (a run, a refusal, planning_required): only unsettled
# asks are re-sent after a restart.
_V3_ASK_SETTLED: Migration = ("ALTER TABLE direct_asks ADD COLUMN settled INTEGER NOT NULL DEFAULT 0",)

# The advanced-method opt-in given with an approval, so a confirm resumed after a restart sends it again.
_V4_APPROVAL_OPT_IN: Migration = ("ALTER TABLE approvals ADD COLUMN advanced_opt_in INTEGER NOT NULL DEFAULT 0",)

# Keyed requests a person asked for (Study duplicates, Audience builds): Try again reuses the key.
_V5_KEYED_REQUESTS: Migration = (
    """CREATE TABLE keyed_requests (
        team_id TEXT NOT NULL, key TEXT NOT NULL, purpose TEXT NOT NULL, subject TEXT NOT NULL,
        arguments TEXT NOT NULL, requester_id TEXT NOT NULL, channel_id TEXT NOT NULL, created_at TEXT,
        PRIMARY KEY (team_id, key)
    )""",
    "CREATE INDEX keyed_requests_subject ON keyed_requests (team_id, purpose, subject, created_at)",
)

# Threads talking to one Mind (``/minds chat``): the Minds chat id lives with the Slack thread across restarts.
_V6_CHAT_THREADS: Migration = (
    """CREATE TABLE chat_threads (
        team_id TEXT NOT NULL, channel_id TEXT NOT NULL, thread_ts TEXT NOT NULL, chat_id TEXT NOT NULL,
        mind_id TEXT NOT NULL, mind_name TEXT NOT NULL, started_by TEXT NOT NULL,
        last_activity_at TEXT NOT NULL, closed_at TEXT, created_at TEXT, updated_at TEXT,
        PRIMARY KEY (team_id, channel_id, thread_ts)
    )""",
    "CREATE INDEX chat_threads_idle ON chat_threads (closed_at, last_activity_at)",
)

# Leases: who is working on a run, an approval or a question, and until when (base.py, "Leases, not luck").
_V7_LEASES: Migration = (
    "ALTER TABLE tracked_runs ADD COLUMN lease_holder TEXT",
    "ALTER TABLE tracked_runs ADD COLUMN lease_until TEXT",
    "ALTER TABLE approvals ADD COLUMN lease_holder TEXT",
    "ALTER TABLE approvals ADD COLUMN lease_until TEXT",
    "ALTER TABLE direct_asks ADD COLUMN lease_holder TEXT",
    "ALTER TABLE direct_asks ADD COLUMN lease_until TEXT",
)

# The model connection (id, revision) an approval pinned, so a retried or resumed confirm sends the same selection.
_V8_APPROVAL_MODEL: Migration = (
    "ALTER TABLE approvals ADD COLUMN model_connection_id TEXT",
    "ALTER TABLE approvals ADD COLUMN model_connection_revision INTEGER",
)

_V9_RECENT_PLANS: Migration = (
    "CREATE INDEX plan_posts_recent ON plan_posts (team_id, requester_id, updated_at)",  # the App Home's lists
)

# What a plan message remembers between revisions: its questions and who answered which confirmation question.
_V10_PLAN_MEMORY: Migration = ("ALTER TABLE plan_posts ADD COLUMN memory TEXT",)

# How a research run ended, shown on its plan message: the plan's blocks as frozen at approval (so the closing
# line can change after a restart, when the message itself is not at hand), who asked Minds to cancel a run, and
# the one setting for the channel's outcome line. The old "also post the result to the channel" choice is gone;
# its successor is on by default, so every workspace starts with it on (an admin turns it off in the dialog).
# And which run a report follows, with the run's end as Minds reported it (the report says what it covers).
_V11_RUN_OUTCOME: Migration = (
    "ALTER TABLE plan_posts ADD COLUMN frozen_blocks TEXT",
    "ALTER TABLE tracked_runs ADD COLUMN cancelled_by TEXT",
    "ALTER TABLE workspaces RENAME COLUMN broadcast_terminal TO outcome_in_channel",
    "UPDATE workspaces SET outcome_in_channel = 1",
    "ALTER TABLE exports ADD COLUMN for_run TEXT",  # a run's report: which run, and when Minds said it ended
    "ALTER TABLE exports ADD COLUMN after_run_at TEXT",
)

# Hearing when a research run ends (store/notices.py): who turned the DMs off, who pressed "Notify me" on a run,
# the sent marker per run and person (its primary key makes the DM once-only across replicas), and how each run
# ended with its thread's link (the App Home's Recent results).
_V12_RUN_NOTICES: Migration = (
    """CREATE TABLE run_dm_opt_outs (
        team_id TEXT NOT NULL, user_id TEXT NOT NULL, turned_off_at TEXT NOT NULL,
        PRIMARY KEY (team_id, user_id)
    )""",
    """CREATE TABLE run_watchers (
        team_id TEXT NOT NULL, run_id TEXT NOT NULL, user_id TEXT NOT NULL, added_at TEXT NOT NULL,
        PRIMARY KEY (team_id, run_id, user_id)
    )""",
    """CREATE TABLE run_notices (
        team_id TEXT NOT NULL, run_id TEXT NOT NULL, user_id TEXT NOT NULL, sent_at TEXT NOT NULL,
        PRIMARY KEY (team_id, run_id, user_id)
    )""",
    """CREATE TABLE run_results (
        team_id TEXT NOT NULL, run_id TEXT NOT NULL, channel_id TEXT NOT NULL, thread_ts TEXT,
        study_name TEXT NOT NULL, revision INTEGER, requester_id TEXT, approver_id TEXT, status TEXT NOT NULL,
        cancelled_by TEXT, permalink TEXT, ended_at TEXT NOT NULL,
        PRIMARY KEY (team_id, run_id)
    )""",
    "CREATE INDEX run_results_recent ON run_results (team_id, channel_id, ended_at)",
)

# A question's stimulus (a file shared in Slack, issue 27): what was sent with it, so a retry sends the same.
_V13_ASK_ATTACHMENTS: Migration = ("ALTER TABLE direct_asks ADD COLUMN attachments TEXT",)

# Spend with consent: a channel's policy per action (run now, hold for an approver, refuse) and the ledger of
# every spend, held or run (``/minds policy``, ``/minds activity``).
_V14_SPEND_POLICY: Migration = (
    """CREATE TABLE channel_policies (
        team_id TEXT NOT NULL, channel_id TEXT NOT NULL, action TEXT NOT NULL, mode TEXT NOT NULL,
        set_by TEXT NOT NULL, updated_at TEXT,
        PRIMARY KEY (team_id, channel_id, action)
    )""",
    """CREATE TABLE spends (
        team_id TEXT NOT NULL, spend_id TEXT NOT NULL, channel_id TEXT NOT NULL, user_id TEXT NOT NULL,
        action TEXT NOT NULL, subject TEXT NOT NULL, command TEXT NOT NULL, responses INTEGER, cost TEXT,
        outcome TEXT NOT NULL, decided_by TEXT, detail TEXT, created_at TEXT, updated_at TEXT,
        PRIMARY KEY (team_id, spend_id)
    )""",
    "CREATE INDEX spends_channel ON spends (team_id, channel_id, created_at)",
)

# One Minds budget per key (issue 28): its tables, and PostgreSQL's counting function, are in minds_budget.sql.
_MINDS_BUDGET: Migration = _statements("minds_budget.sql")
_V15_MINDS_BUDGET: Migration = tuple(s for s in _MINDS_BUDGET if not s.startswith("CREATE FUNCTION"))
_PG_BUDGET_TAKE: Migration = tuple(s for s in _MINDS_BUDGET if s.startswith("CREATE FUNCTION"))

# A standalone question asked of only some of its Study's Audiences (issue 37): a retry asks the same ones.
_V16_ASK_AUDIENCES: Migration = ("ALTER TABLE direct_asks ADD COLUMN audience_ids TEXT",)

MIGRATIONS: tuple[Migration, ...] = (
    _V1_CORE,
    _V2_DIGEST_QUIET,
    _V3_ASK_SETTLED,
    _V4_APPROVAL_OPT_IN,
    _V5_KEYED_REQUESTS,
    _V6_CHAT_THREADS,
    _V7_LEASES,
    _V8_APPROVAL_MODEL,
    _V9_RECENT_PLANS,
    _V10_PLAN_MEMORY,
    _V11_RUN_OUTCOME,
    _V12_RUN_NOTICES,
    _V13_ASK_ATTACHMENTS,
    _V14_SPEND_POLICY,
    _V15_MINDS_BUDGET,
    _V16_ASK_AUDIENCES,
)

# PostgreSQL: the same migrations; `seq` stands in for SQLite's rowid where rows are ordered by insertion
# (an upsert sets it anew, as SQLite's INSERT OR REPLACE gives a new rowid).
_PG_V1_CORE: Migration = (
    *_V1_CORE,
    "ALTER TABLE installations ADD COLUMN seq BIGSERIAL",
    "ALTER TABLE plan_posts ADD COLUMN seq BIGSERIAL",
)

# What only PostgreSQL adds to a migration.
_PG_EXTRA: dict[Migration, Migration] = {
    _V1_CORE: _PG_V1_CORE[len(_V1_CORE) :],
    _V15_MINDS_BUDGET: _PG_BUDGET_TAKE,
}

PG_MIGRATIONS: tuple[Migration, ...] = tuple((*m, *_PG_EXTRA.get(m, ())) for m in MIGRATIONS)
