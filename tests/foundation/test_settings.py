"""Bad or missing settings: one plain message listing every problem, exit code 2, no traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from minds_bot.settings import DEFAULT_DB, Settings, SettingsError, load_settings, read_env_file

SETTINGS_VARS = [
    "SLACK_BOT_TOKEN",
    "SLACK_SIGNING_SECRET",
    "SLACK_APP_TOKEN",
    "SLACK_API_URL",
    "SLACK_CLIENT_ID",
    "SLACK_CLIENT_SECRET",
    "MINDS_API_URL",
    "MINDS_API_KEY",
    "MINDS_BOT_DB",
    "MINDS_BOT_DATABASE_URL",
    "MINDS_BOT_DATABASE_POOL_SIZE",
    "MINDS_BOT_LEASE_SECONDS",
    "MINDS_BOT_SECRET_KEY",
    "LOG_LEVEL",
    "LOG_FORMAT",
]
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in SETTINGS_VARS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)  # no stray .env


def run_cli(*args: str, env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k not in SETTINGS_VARS}
    base["PYTHONPATH"] = str(REPO)
    return subprocess.run(
        [sys.executable, "-m", "minds_bot", *args],
        env={**base, **env},
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_every_problem_is_listed_at_once_with_exit_code_2_and_no_traceback(tmp_path: Path) -> None:
    secret = "xoxp-" + "9" * 20
    result = run_cli(
        "run",
        env={
            "SLACK_BOT_TOKEN": secret,
            "MINDS_API_KEY": "minds_not-a-key",
            "LOG_LEVEL": "loud",
            "LOG_FORMAT": "xml",
            "MINDS_API_URL": "getminds.ai",
            "MINDS_BOT_SECRET_KEY": "short",
        },
        cwd=tmp_path,
    )
    assert result.returncode == 2
    err = result.stderr
    for name in (
        "SLACK_BOT_TOKEN",
        "MINDS_API_KEY",
        "LOG_LEVEL",
        "LOG_FORMAT",
        "MINDS_API_URL",
        "MINDS_BOT_SECRET_KEY",
    ):
        assert name in err
    assert "Traceback" not in err
    assert secret not in err and "minds_not-a-key" not in err


def test_missing_pieces_for_http_mode_are_named(tmp_path: Path) -> None:
    result = run_cli("run", "--http", env={"SLACK_CLIENT_ID": "123.456"}, cwd=tmp_path)
    assert result.returncode == 2
    assert "SLACK_SIGNING_SECRET" in result.stderr
    assert "SLACK_CLIENT_SECRET" in result.stderr
    assert "Traceback" not in result.stderr


def test_run_without_any_slack_credentials_points_to_the_demo(tmp_path: Path) -> None:
    result = run_cli("run", env={}, cwd=tmp_path)
    assert result.returncode == 2
    assert "minds-bot demo" in result.stderr


def test_valid_settings_are_normalised(monkeypatch: pytest.MonkeyPatch) -> None:
    key = "minds_" + "ab" * 24
    monkeypatch.setenv("MINDS_API_KEY", f"  {key} ")
    monkeypatch.setenv("SLACK_API_URL", "http://127.0.0.1:9999/api")
    monkeypatch.setenv("MINDS_API_URL", "http://127.0.0.1:8787/api/v1/")
    monkeypatch.setenv("LOG_LEVEL", "debug")
    settings = load_settings()
    assert settings.minds_api_key is not None and settings.minds_api_key.get_secret_value() == key
    assert settings.slack_api_url == "http://127.0.0.1:9999/api/"
    assert settings.minds_api_url == "http://127.0.0.1:8787/api/v1"
    assert settings.log_level == "DEBUG"
    assert key not in repr(settings)


def test_settings_read_a_dotenv_file_in_the_working_directory(tmp_path: Path) -> None:
    from cryptography.fernet import Fernet

    (tmp_path / ".env").write_text(
        "SLACK_BOT_TOKEN=xoxb-from-dotenv\nSLACK_SIGNING_SECRET=abcdefgh12345678\n"
        f"MINDS_BOT_SECRET_KEY={Fernet.generate_key().decode()}\n"
    )
    settings = load_settings()
    assert settings.slack_bot_token is not None
    assert settings.problems_for_run(http=True) == []


def test_oauth_mode_needs_a_secret_key_to_encrypt_tokens(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SLACK_CLIENT_ID", "1.2")
    monkeypatch.setenv("SLACK_CLIENT_SECRET", "client-secret-value")
    monkeypatch.setenv("SLACK_SIGNING_SECRET", "signing-secret-value")
    problems = load_settings().problems_for_run(http=True)
    assert [p.split(":")[0] for p in problems] == ["MINDS_BOT_SECRET_KEY"]


def test_a_bad_fernet_key_names_its_position_without_echoing_it(monkeypatch: pytest.MonkeyPatch) -> None:
    from cryptography.fernet import Fernet

    good = Fernet.generate_key().decode()
    monkeypatch.setenv("MINDS_BOT_SECRET_KEY", f"{good},not-a-fernet-key")
    with pytest.raises(SettingsError) as caught:
        load_settings()
    (problem,) = caught.value.problems
    assert problem.startswith("MINDS_BOT_SECRET_KEY: key 2 of 2")
    assert "not-a-fernet-key" not in problem and good not in problem


DB_PASSWORD = "pg-Pa55word-never-shown"  # made up; must never be printed


@pytest.mark.parametrize(
    "url",
    [
        f"mysql://bot:{DB_PASSWORD}@db/minds",
        f"postgresql://bot:{DB_PASSWORD}@db:notaport/minds",
        f"postgresql://bot:{DB_PASSWORD}@/minds",
        f"postgresql://bot:{DB_PASSWORD}@db:5432",
    ],
)
def test_a_bad_database_url_is_named_without_its_password(url: str, tmp_path: Path) -> None:
    result = run_cli("run", env={"MINDS_BOT_DATABASE_URL": url, "SLACK_APP_TOKEN": "xapp-1"}, cwd=tmp_path)
    assert result.returncode == 2
    assert "MINDS_BOT_DATABASE_URL" in result.stderr and "postgresql://" in result.stderr
    assert DB_PASSWORD not in result.stderr and "Traceback" not in result.stderr


def test_an_unreachable_database_stops_start_up_with_one_message(tmp_path: Path) -> None:
    import socket

    with socket.socket() as sock:  # a port nothing listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = {
        "MINDS_BOT_DATABASE_URL": f"postgresql://bot:{DB_PASSWORD}@127.0.0.1:{port}/minds",
        "SLACK_BOT_TOKEN": "xoxb-" + "1" * 20,
        "SLACK_SIGNING_SECRET": "0" * 32,
        "MINDS_BOT_SECRET_KEY": "uB3dJ9kz8a1yqvJkq2lHkqg0i0b4p0c9m4w1b2n3v4s=",
    }
    result = run_cli("run", "--http", "--port", "0", env=env, cwd=tmp_path)
    assert result.returncode == 2
    assert "cannot connect to PostgreSQL at postgresql://bot:***@127.0.0.1" in result.stderr
    assert DB_PASSWORD not in result.stderr + result.stdout and "Traceback" not in result.stderr


def test_database_settings_are_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MINDS_BOT_DATABASE_URL", f" postgresql://bot:{DB_PASSWORD}@db:5432/minds ")
    monkeypatch.setenv("MINDS_BOT_DATABASE_POOL_SIZE", "4")
    monkeypatch.setenv("MINDS_BOT_LEASE_SECONDS", "15")
    settings = load_settings()
    assert settings.minds_bot_database_url is not None
    assert settings.minds_bot_database_url.get_secret_value() == f"postgresql://bot:{DB_PASSWORD}@db:5432/minds"
    assert (settings.minds_bot_database_pool_size, settings.minds_bot_lease_seconds) == (4, 15.0)
    assert DB_PASSWORD in settings.secrets()  # so the log filter redacts it
    assert DB_PASSWORD not in repr(settings)


def test_the_environment_wins_over_the_dotenv_file_and_names_are_read_in_any_case(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / ".env").write_text(
        "# written by the operator\n"
        "export LOG_LEVEL=debug\n"
        "log_format = json   # inline comment\n"
        "SLACK_API_URL='http://127.0.0.1:9999/api'\n"
        'MINDS_BOT_DB="./a #1/bot.sqlite3"  # quoted, so the # is kept\n'
        "MINDS_BOT_DATABASE_POOL_SIZE=7\n"
        "not a setting line\n"
        "UNKNOWN_THING=ignored\n"
    )
    monkeypatch.setenv("MINDS_BOT_DATABASE_POOL_SIZE", "3")
    settings = load_settings()
    assert settings.log_level == "DEBUG" and settings.log_format == "json"
    assert settings.slack_api_url == "http://127.0.0.1:9999/api/"
    assert settings.minds_bot_db == "./a #1/bot.sqlite3"
    assert settings.minds_bot_database_pool_size == 3  # the environment, not the file


def test_a_bad_value_in_the_dotenv_file_is_named_like_one_in_the_environment(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("MINDS_BOT_DATABASE_POOL_SIZE=lots\nMINDS_BOT_LEASE_SECONDS=0\n")
    with pytest.raises(SettingsError) as caught:
        load_settings()
    assert [p.split(":")[0] for p in caught.value.problems] == [
        "MINDS_BOT_DATABASE_POOL_SIZE",
        "MINDS_BOT_LEASE_SECONDS",
    ]


def test_settings_built_in_code_read_neither_the_environment_nor_a_dotenv_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / ".env").write_text("LOG_LEVEL=DEBUG\n")
    monkeypatch.setenv("MINDS_BOT_DB", "/from/the/environment.sqlite3")
    built = Settings(log_format="json")
    assert (built.log_level, built.log_format, built.minds_bot_db) == ("INFO", "json", DEFAULT_DB)
    read = Settings.from_env(env_file=None, log_format="text")
    assert (read.log_level, read.log_format, read.minds_bot_db) == ("INFO", "text", "/from/the/environment.sqlite3")


def test_dotenv_escapes_in_double_quotes_are_read_and_a_directory_named_dotenv_is_no_file(tmp_path: Path) -> None:
    (tmp_path / "values.env").write_text('MINDS_BOT_DB="a\\tb\\\\c\\"d"\nLOG_LEVEL=\'warning\'\n')
    assert read_env_file(tmp_path / "values.env") == {"minds_bot_db": 'a\tb\\c"d', "log_level": "warning"}
    (tmp_path / ".env").mkdir()
    assert read_env_file(tmp_path / ".env") == {}
