-- The Minds budget (issue 28): one budget per Minds key, shared by every replica and workspace on that key.
--
-- The requests of the last window, named by a salted hash of the key (never the key), so replicas and workspaces
-- on one key share its 300 a minute, and a 429's Retry-After pauses them all (`blocked_until`). Times are the
-- database's clock (epoch seconds, the function below). PostgresStore (postgres.py) is the Minds client's `BudgetLedger`
-- (minds_bot.minds) on these: `budget_take` calls `minds_budget_take`, `budget_recent` and `budget_block` read and
-- write the tables.
--
-- Applied by migration 15 (migrations.py): the tables on both engines (SQLite keeps them unused: one process counts
-- in memory), the function on PostgreSQL only. A shipped migration never changes, so neither does this file's SQL
-- (tests/store/test_migrations.py holds it to what shipped); a change to the budget is a new migration.
--
-- Format, for the loader in migrations.py: statements are separated by a blank line and end with `;`; a statement
-- has no blank line inside; comment lines before a statement are not sent.

CREATE TABLE minds_budgets (budget TEXT PRIMARY KEY, blocked_until DOUBLE PRECISION NOT NULL DEFAULT 0);

CREATE TABLE minds_budget_sends (
        budget TEXT NOT NULL, sent_at DOUBLE PRECISION NOT NULL, caller TEXT NOT NULL
    );

CREATE INDEX minds_budget_sends_at ON minds_budget_sends (budget, sent_at);

-- One request counted in one round-trip: the budget's row is locked (so replicas take turns), a pause after a 429
-- is waited out, what left the window is forgotten, and the request is counted when it fits; otherwise the seconds
-- until it would fit come back. Each statement of a plpgsql function sees what committed before it, so the count
-- after the lock is current.
CREATE FUNCTION minds_budget_take(b TEXT, who TEXT, lim INTEGER, win DOUBLE PRECISION)
RETURNS DOUBLE PRECISION LANGUAGE plpgsql AS $$
DECLARE
    now_s DOUBLE PRECISION;
    n INTEGER;
    oldest DOUBLE PRECISION;
    blocked DOUBLE PRECISION;
BEGIN
    INSERT INTO minds_budgets (budget) VALUES (b) ON CONFLICT DO NOTHING;
    SELECT blocked_until INTO blocked FROM minds_budgets WHERE budget = b FOR UPDATE;
    now_s := extract(epoch FROM clock_timestamp());
    IF blocked > now_s THEN
        RETURN blocked - now_s;
    END IF;
    DELETE FROM minds_budget_sends WHERE budget = b AND sent_at <= now_s - win;
    SELECT count(*) INTO n FROM minds_budget_sends WHERE budget = b;
    IF n < lim THEN
        INSERT INTO minds_budget_sends (budget, sent_at, caller) VALUES (b, now_s, who);
        RETURN 0;
    END IF;
    SELECT sent_at INTO oldest FROM minds_budget_sends WHERE budget = b ORDER BY sent_at OFFSET n - lim LIMIT 1;
    RETURN greatest(0.001, oldest + win - now_s);
END $$;
