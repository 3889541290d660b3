# Sourced by scripts/test: the PostgreSQL tests start their own server (127.0.0.1, a random port, a temporary
# data directory) from Debian's "postgresql" package, unless MINDS_BOT_TEST_DATABASE_URL names a server to use.
# Installs the package when it is missing and this user may (root, or password-less sudo). When it cannot be
# installed this says why and the tests go on: the PostgreSQL tests then fail with that reason (never skipped).
_pg_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }
if [ -z "${MINDS_BOT_TEST_DATABASE_URL:-}" ] && [ -z "${MINDS_BOT_PG_BIN:-}" ]; then
  if [ -z "$(_pg_bin)" ]; then
    if [ "$(id -u)" = 0 ]; then
      _pg_sudo=""
    elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
      _pg_sudo="sudo -n"
    else
      _pg_sudo="none"
    fi
    if [ "$_pg_sudo" = none ] || ! command -v apt-get >/dev/null 2>&1; then
      echo "The PostgreSQL tests need PostgreSQL's server binaries: install Debian's 'postgresql' package, set" >&2
      echo "MINDS_BOT_PG_BIN to a directory holding initdb and postgres, or MINDS_BOT_TEST_DATABASE_URL." >&2
    else
      echo "Installing PostgreSQL for the store tests (Debian package 'postgresql')…" >&2
      $_pg_sudo apt-get update -qq >/dev/null
      DEBIAN_FRONTEND=noninteractive $_pg_sudo apt-get install -y -qq postgresql >/dev/null \
        || echo "Installing the 'postgresql' package failed; the PostgreSQL tests will say so." >&2
    fi
  fi
  if [ -n "$(_pg_bin)" ]; then
    export MINDS_BOT_PG_BIN="$(_pg_bin)"
  fi
fi
unset -f _pg_bin
