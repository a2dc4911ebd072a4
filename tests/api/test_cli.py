"""The support command line against the sandbox: JSON out, exit statuses that tell a refusal
from no answer from a configuration problem, and no secret on screen."""

from __future__ import annotations

import json
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest

from tests.sandbox.conftest import Api
from tests.sandbox_harness import RunningSandbox
from tests.waiting import LONG_WAIT_SECONDS
from treasury_app.api import cli
from treasury_app.domain.money import loads_json


def ready_file(sandbox: RunningSandbox) -> Path:
    return sandbox.data_dir / "ready.json"


def run_cli(
    sandbox: RunningSandbox, *args: str, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str, str]:
    code = cli.main(["--sandbox-ready", str(ready_file(sandbox)), *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_balance_as_a_process_prints_exact_json(sandbox: RunningSandbox, control: Api) -> None:
    control.reset_token_limits()
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "treasury_app.api",
            "--sandbox-ready",
            str(ready_file(sandbox)),
            "balance",
        ],
        capture_output=True,
        text=True,
        timeout=LONG_WAIT_SECONDS,
    )
    assert result.returncode == 0, result.stderr
    balances = loads_json(result.stdout)
    assert isinstance(balances, list)
    assert balances[0]["balanceAmount"]["available"] == control.balance()
    assert isinstance(balances[0]["balanceAmount"]["available"], Decimal)


def test_statement_limit_and_payment_status(
    sandbox: RunningSandbox, control: Api, capsys: pytest.CaptureFixture[str]
) -> None:
    control.reset_token_limits()
    code, out, _ = run_cli(sandbox, "statement", "--limit", "7", capsys=capsys)
    assert code == 0 and len(json.loads(out)) == 7
    payment = control.paid(Decimal("3.21"))
    code, out, _ = run_cli(sandbox, "payment-status", "--e2e", payment["endToEndId"], capsys=capsys)
    assert code == 0
    by_e2e = loads_json(out)
    code, out, _ = run_cli(
        sandbox, "payment-status", "--idempotency-key", payment["idempotencyKey"], capsys=capsys
    )
    assert code == 0 and loads_json(out)["endToEndId"] == by_e2e["endToEndId"]
    assert by_e2e["payment"]["amount"] == Decimal("3.21")


def test_a_refusal_prints_the_problem_and_exits_1(
    sandbox: RunningSandbox, control: Api, capsys: pytest.CaptureFixture[str]
) -> None:
    control.reset_token_limits()
    code, out, err = run_cli(sandbox, "cob-get", "naoexiste0000000000000000000", capsys=capsys)
    assert code == cli.EXIT_REFUSED and out == ""
    problem = json.loads(err)
    assert problem["status"] == 404 and problem["instance"] == "/cob/naoexiste0000000000000000000"


def test_token_status_shows_no_token_or_secret(
    sandbox: RunningSandbox, control: Api, capsys: pytest.CaptureFixture[str]
) -> None:
    control.reset_token_limits()
    code, out, _ = run_cli(sandbox, "token-status", capsys=capsys)
    assert code == 0
    status = json.loads(out)
    assert set(status) == {"qrcodes", "accounts"}
    assert "cob.write" in status["qrcodes"]["scope"]
    assert status["accounts"]["certificateWarning"] is None
    for cred in sandbox.credentials.values():
        assert cred["client_secret"] not in out and cred["pfx_password"] not in out


def test_profile_file_without_secrets_is_a_configuration_error(
    sandbox: RunningSandbox,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    profile = {
        api: {
            "base_url": sandbox.urls[api],
            "client_id": cred["client_id"],
            "pfx": cred["pfx"],
            "ca_file": sandbox.ready["ca_file"],
        }
        for api, cred in sandbox.credentials.items()
    }
    path = tmp_path / "bank.json"
    path.write_text(json.dumps(profile), "utf-8")
    for variable in ("CLIENT_SECRET", "PFX_PASSWORD"):
        for api in ("QRCODES", "ACCOUNTS"):
            monkeypatch.delenv(f"TREASURY_{api}_{variable}", raising=False)
    assert cli.main(["--profile-file", str(path), "balance"]) == cli.EXIT_CONFIG
    assert "TREASURY_QRCODES_CLIENT_SECRET" in capsys.readouterr().err
    # With the secrets in the environment the same profile works ...
    for api, cred in sandbox.credentials.items():
        monkeypatch.setenv(f"TREASURY_{api.upper()}_CLIENT_SECRET", cred["client_secret"])
        monkeypatch.setenv(f"TREASURY_{api.upper()}_PFX_PASSWORD", cred["pfx_password"])
    assert cli.main(["--profile-file", str(path), "balance"]) == cli.EXIT_OK
    capsys.readouterr()
    # ... and a wrong pfx password is a configuration error, not a traceback.
    monkeypatch.setenv("TREASURY_QRCODES_PFX_PASSWORD", "wrong")
    assert cli.main(["--profile-file", str(path), "balance"]) == cli.EXIT_CONFIG
    assert "password does not open" in capsys.readouterr().err


def test_nothing_listening_exits_3(
    sandbox: RunningSandbox, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ready = json.loads(ready_file(sandbox).read_text("utf-8"))
    ready["accounts_url"] = "https://127.0.0.1:9"
    moved = tmp_path / "ready.json"
    moved.write_text(json.dumps(ready), "utf-8")
    assert cli.main(["--sandbox-ready", str(moved), "balance"]) == cli.EXIT_NO_ANSWER
    assert "connect" in capsys.readouterr().err
