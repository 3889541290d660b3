"""A real PostgreSQL server for the tests: one per test session, on 127.0.0.1 and a free port, in a temporary data
directory, stopped at the end. ``MINDS_BOT_TEST_DATABASE_URL`` names an existing server to use instead.

The binaries come from ``MINDS_BOT_PG_BIN`` (scripts/_postgres.sh sets it from Debian's ``postgresql`` package) or
``/usr/lib/postgresql/*/bin``. PostgreSQL refuses to run as root, so as root the server runs as the ``postgres``
user (``runuser``). When no server can be had, ``PgUnavailable`` says why and the PostgreSQL tests fail with it:
they are never skipped. Each test gets a fresh schema of its own (``new_database``).

A test that stops and starts PostgreSQL under a running bot starts a server of its own (``start_own_server``: never
the shared one, nor ``MINDS_BOT_TEST_DATABASE_URL``'s) and calls ``halt`` (a fast shutdown: open connections are
cut, as when the database goes down) and ``resume`` (the same data directory and port again).
"""

from __future__ import annotations

import glob
import itertools
import os
import shutil
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import asyncpg

START_TIMEOUT_SECONDS = 30.0
STOP_TIMEOUT_SECONDS = 15.0
SERVER_USER = "postgres"
TEST_DATABASE = "minds_bot_tests"
# Durability is not under test here (the server is thrown away): trade it for speed on a 2-core machine.
FAST_SETTINGS = ("fsync=off", "synchronous_commit=off", "full_page_writes=off", "max_connections=200")


class PgUnavailable(RuntimeError):
    """No PostgreSQL server could be started or reached; the message says what to install or set."""


@dataclass
class PgServer:
    """A running server; ``admin_url`` reaches its ``postgres`` database as a superuser."""

    admin_url: str
    process: subprocess.Popen[bytes] | None = None
    data_dir: Path | None = None
    _names: itertools.count = field(default_factory=lambda: itertools.count(1))
    _command: list[str] = field(default_factory=list)  # how it was started, for ``resume``
    _bin_dir: Path | None = None
    _port: int = 0

    def url_for(self, database: str, *, schema: str | None = None) -> str:
        parts = urlsplit(self.admin_url)
        query = f"search_path={schema}" if schema else parts.query
        return urlunsplit(parts._replace(path="/" + database, query=query))

    async def new_database(self) -> str:
        """A fresh, empty place for one test's tables: a new schema in the shared test database (creating a
        whole database costs over a second; a schema costs nothing). asyncpg passes the URL's ``search_path``
        to the server, so the store's unqualified tables land in that schema."""
        schema = f"t_{os.getpid()}_{next(self._names)}"
        conn = await asyncpg.connect(self.admin_url)
        try:
            if not await conn.fetchval("SELECT 1 FROM pg_database WHERE datname = $1", TEST_DATABASE):
                await conn.execute(f'CREATE DATABASE "{TEST_DATABASE}" TEMPLATE template0')
        finally:
            await conn.close()
        conn = await asyncpg.connect(self.url_for(TEST_DATABASE))
        try:
            await conn.execute(f'CREATE SCHEMA "{schema}"')
        finally:
            await conn.close()
        return self.url_for(TEST_DATABASE, schema=schema)

    async def drop_database(self, url: str) -> None:
        schema = urlsplit(url).query.removeprefix("search_path=")
        conn = await asyncpg.connect(self.url_for(TEST_DATABASE))
        try:
            await conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        finally:
            await conn.close()

    def halt(self) -> None:
        """Stop the server now, keeping its data (``pg_ctl stop -m fast``: sessions are cut, not waited for)."""
        if self.process is None or self._bin_dir is None or self.data_dir is None:
            raise PgUnavailable("only a server this test process started can be halted")
        stop = [*_run_as(), str(self._bin_dir / "pg_ctl"), "-D", str(self.data_dir), "-m", "fast", "-w", "stop"]
        _run(stop, what="pg_ctl stop", cwd=self.data_dir.parent)
        self.process.wait(timeout=STOP_TIMEOUT_SECONDS)

    def resume(self) -> None:
        """Start the halted server again on the same port and data directory; returns once it accepts connections."""
        if self.process is None or self._bin_dir is None or self.data_dir is None or self.process.poll() is None:
            raise PgUnavailable("only a halted server this test process started can be resumed")
        root = self.data_dir.parent
        log = open(root / "server.log", "ab")  # noqa: SIM115 - kept open for the server's lifetime
        self.process = subprocess.Popen(self._command, stdout=log, stderr=subprocess.STDOUT, cwd=root)
        _wait_ready(self._bin_dir, port=self._port, process=self.process, log=root / "server.log")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()  # SIGTERM: PostgreSQL's "smart" shutdown
            try:
                self.process.wait(timeout=STOP_TIMEOUT_SECONDS)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=STOP_TIMEOUT_SECONDS)
        if self.data_dir is not None:
            shutil.rmtree(self.data_dir.parent, ignore_errors=True)


def start_server() -> PgServer:
    """The server named by MINDS_BOT_TEST_DATABASE_URL, or a new one started here."""
    given = os.environ.get("MINDS_BOT_TEST_DATABASE_URL", "").strip()
    if given:
        return PgServer(admin_url=given)
    return start_own_server()


def start_own_server() -> PgServer:
    """A new server in a temporary directory, whatever MINDS_BOT_TEST_DATABASE_URL says: one a test may halt and
    resume. Raises ``PgUnavailable`` when it cannot be started."""
    bin_dir = _bin_dir()
    root = Path(tempfile.mkdtemp(prefix="minds-bot-pg-"))
    data, sockets = root / "data", root / "sockets"
    data.mkdir()
    sockets.mkdir()
    as_user = _run_as()
    if as_user:
        shutil.chown(root, user=SERVER_USER)
        for path in (data, sockets):
            shutil.chown(path, user=SERVER_USER)
    initdb = [str(bin_dir / "initdb"), "-D", str(data), "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-sync"]
    _run([*as_user, *initdb], what="initdb", cwd=root)
    port = _free_port()
    command = [*as_user, str(bin_dir / "postgres"), "-D", str(data), "-h", "127.0.0.1", "-p", str(port)]
    command += ["-k", str(sockets)]
    for setting in FAST_SETTINGS:
        command += ["-c", setting]
    log = open(root / "server.log", "wb")  # noqa: SIM115 - kept open for the server's lifetime
    # The server user may not enter the checkout (say, under /root): run it from its own directory.
    process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, cwd=root)
    server = PgServer(
        admin_url=f"postgresql://postgres@127.0.0.1:{port}/postgres",
        process=process,
        data_dir=data,
        _command=command,
        _bin_dir=bin_dir,
        _port=port,
    )
    try:
        _wait_ready(bin_dir, port=port, process=process, log=root / "server.log")
    except BaseException:
        server.stop()
        raise
    return server


def _bin_dir() -> Path:
    configured = os.environ.get("MINDS_BOT_PG_BIN", "").strip()
    candidates = [configured] if configured else sorted(glob.glob("/usr/lib/postgresql/*/bin"))
    for candidate in reversed(candidates):
        if (Path(candidate) / "initdb").exists() and (Path(candidate) / "postgres").exists():
            return Path(candidate)
    raise PgUnavailable(
        "PostgreSQL's server binaries were not found (MINDS_BOT_PG_BIN or /usr/lib/postgresql/*/bin): run "
        "scripts/test, which installs Debian's 'postgresql' package, or set MINDS_BOT_TEST_DATABASE_URL"
    )


def _run_as() -> list[str]:
    if os.geteuid() != 0:
        return []
    runuser = shutil.which("runuser")
    if runuser is None:
        raise PgUnavailable("running as root, PostgreSQL must run as another user, but 'runuser' is missing")
    return [runuser, "-u", SERVER_USER, "--"]


def _run(command: list[str], *, what: str, cwd: Path) -> None:
    done = subprocess.run(command, capture_output=True, check=False, timeout=START_TIMEOUT_SECONDS, cwd=cwd)
    if done.returncode != 0:
        raise PgUnavailable(f"{what} failed: {done.stderr.decode(errors='replace').strip()[-500:]}")


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait_ready(bin_dir: Path, *, port: int, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + START_TIMEOUT_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise PgUnavailable(f"PostgreSQL exited at start: {log.read_text(errors='replace')[-800:]}")
        ready = subprocess.run(
            [str(bin_dir / "pg_isready"), "-h", "127.0.0.1", "-p", str(port), "-U", "postgres"],
            capture_output=True,
            check=False,
        )
        if ready.returncode == 0:
            return
        time.sleep(0.1)  # polling a process that offers no event to await; bounded by the deadline
    raise PgUnavailable(f"PostgreSQL did not accept connections within {START_TIMEOUT_SECONDS:.0f} s")
