"""The CLI flags become a SandboxConfig."""

from __future__ import annotations

import argparse

from minds_sandbox import cli


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    cli.add_arguments(parser)
    return parser.parse_args(list(argv))


def test_defaults() -> None:
    config = cli.config_from_args(parse())
    assert (config.host, config.port, config.db_path) == ("127.0.0.1", 8787, None)
    assert config.faults.plan_receipts == cli.DEMO_PLAN_RECEIPTS


def test_fault_flags() -> None:
    config = cli.config_from_args(
        parse(
            "--db",
            "x.db",
            "--speed",
            "5",
            "--error-rate",
            "GET */runs/*=0.5",
            "--error-rate",
            "0.1",
            "--malformed-lists",
            "empty_page",
            "--rate-limit",
            "0",
            "--allowance",
            "100",
        )
    )
    assert config.faults.error_rates == {"GET */runs/*": 0.5, "*": 0.1}
    assert config.faults.run_speed == 5 and config.faults.malformed_lists == "empty_page"
    assert config.rate_limit_per_minute is None and config.response_allowance == 100
    assert str(config.db_path) == "x.db"


def test_invalid_flags_exit_with_2(capsys) -> None:
    assert cli.run(parse("--throttle-rate", "7")) == 2
    assert "throttle_rate" in capsys.readouterr().out
