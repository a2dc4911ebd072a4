"""treasury-banks refresh: the central bank's list (a file, or its address over HTTP) becomes
the table the app ships, dated; unreadable rows are listed, and a file that is not the list
(or would drop most banks) writes nothing."""

from __future__ import annotations

import datetime as dt
import http.server
import os
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from treasury_app import banks_cli
from treasury_app.domain.banks import Bank, BankTable, table_to_json
from treasury_app.services.bank_list import RefreshError, load_table, refresh

SAMPLE = Path(__file__).resolve().parents[1] / "data" / "banks" / "ParticipantesSTRport-sample.csv"


def test_refresh_from_a_file_writes_the_dated_table(tmp_path: Path) -> None:
    output = tmp_path / "banks.json"
    report = refresh(str(SAMPLE), output, as_of=dt.date(2026, 11, 30))
    table = load_table(output)
    assert table == report.table
    assert table.as_of == dt.date(2026, 11, 30)
    assert not table.partial
    assert "Participantes do STR" in table.source
    assert "ParticipantesSTRport-sample.csv" in table.source
    assert table.by_compe("341").ispb == "60701190"  # type: ignore[union-attr]
    assert len(table.banks) == 8
    assert [(bad.line, bad.reason) for bad in report.bad_rows] == [
        (8, "ispb"),
        (10, "duplicate"),
        (11, "columns"),
        (13, "compe"),
    ]


def test_without_a_date_the_files_own_date_is_the_lists(tmp_path: Path) -> None:
    source = tmp_path / "ParticipantesSTRport.csv"
    source.write_bytes(SAMPLE.read_bytes())
    noon_in_brasilia = dt.datetime(2026, 3, 2, 15, 0, tzinfo=dt.UTC).timestamp()
    os.utime(source, (noon_in_brasilia, noon_in_brasilia))
    report = refresh(str(source), tmp_path / "banks.json")
    assert report.table.as_of == dt.date(2026, 3, 2)


def test_a_file_that_is_not_the_list_writes_nothing(tmp_path: Path) -> None:
    output = tmp_path / "banks.json"
    wrong = tmp_path / "payees.csv"
    wrong.write_text("chave;valor\nabc;1\n", "utf-8")
    with pytest.raises(RefreshError) as refused:
        refresh(str(wrong), output)
    assert refused.value.code == "not_a_list"
    assert not output.exists()
    with pytest.raises(RefreshError) as missing:
        refresh(str(tmp_path / "nowhere.csv"), output)
    assert missing.value.code == "unreadable"


def whole_table(count: int) -> BankTable:
    banks = tuple(Bank(f"{n:08d}", None, f"BANK {n}", f"Bank {n}") for n in range(1, count + 1))
    return BankTable(banks=banks, as_of=dt.date(2026, 1, 5), source="before")


def test_a_cut_list_does_not_replace_a_whole_table_unless_forced(tmp_path: Path) -> None:
    output = tmp_path / "banks.json"
    before = table_to_json(whole_table(40))
    output.write_text(before, "utf-8")
    with pytest.raises(RefreshError) as refused:
        refresh(str(SAMPLE), output)
    assert refused.value.code == "too_many_dropped"
    assert output.read_text("utf-8") == before
    report = refresh(str(SAMPLE), output, force=True)
    assert len(report.dropped) == 40 and len(report.added) == 8
    assert load_table(output).by_ispb("00000001") is None


def test_a_partial_seed_is_replaced_by_the_list(tmp_path: Path) -> None:
    output = tmp_path / "banks.json"
    seed = whole_table(40)
    output.write_text(table_to_json(BankTable(seed.banks, seed.as_of, "seed", partial=True)))
    assert refresh(str(SAMPLE), output).written


@pytest.fixture
def list_server() -> Iterator[str]:
    """The list served over HTTP, as the central bank's site serves it (with its date)."""

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = SAMPLE.read_bytes()
            self.send_response(200)
            self.send_header("Content-Type", "text/csv")
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Last-Modified", "Fri, 04 Dec 2026 02:30:00 GMT")
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/ParticipantesSTRport.csv"
    finally:
        server.shutdown()
        server.server_close()


def test_refresh_from_an_address_takes_its_date_in_brasilia(
    tmp_path: Path, list_server: str
) -> None:
    report = refresh(list_server, tmp_path / "banks.json")
    assert report.table.as_of == dt.date(2026, 12, 3)  # 02:30 UTC is 23:30 the day before
    assert list_server in report.table.source
    assert len(report.table.banks) == 8


def test_the_command_lists_rows_left_out_and_says_so_in_its_status(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    output = tmp_path / "banks.json"
    status = banks_cli.main(
        ["refresh", str(SAMPLE), "--output", str(output), "--as-of", "01/12/2026"]
    )
    out, err = capsys.readouterr()
    assert status == banks_cli.EXIT_ROWS_LEFT_OUT
    assert "line 8: left out (ispb): 1234ABC;BANCO QUEBRADO" in err
    assert "written: 8 banks" in out and "01/12/2026" in out
    assert banks_cli.main(["--table", str(output), "find", "itau"]) == banks_cli.EXIT_OK
    assert "60701190  341  Itaú Unibanco S.A." in capsys.readouterr().out


def test_the_command_writes_nothing_for_a_dry_run_or_a_wrong_date(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    output = tmp_path / "banks.json"
    assert banks_cli.main(["refresh", str(SAMPLE), "--output", str(output), "--dry-run"]) == 1
    assert (
        banks_cli.main(["refresh", str(SAMPLE), "--output", str(output), "--as-of", "12/31/2026"])
        == 2
    )
    assert not output.exists()
    out, err = capsys.readouterr()
    assert "checked (not written): 8 banks" in out
    assert "error:" in err


def test_a_broken_table_is_an_error_for_the_command_and_no_name_for_the_app(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = tmp_path / "banks.json"
    broken.write_text("{not json", "utf-8")
    assert banks_cli.main(["--table", str(broken), "show"]) == banks_cli.EXIT_NOTHING_WRITTEN
    assert "not a bank table" in capsys.readouterr().err


def test_without_a_readable_table_the_app_names_no_bank_and_refuses_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from treasury_app.services import bank_list

    broken = tmp_path / "banks.json"
    broken.write_text('{"format": 1}', "utf-8")
    monkeypatch.setattr(bank_list, "bank_table_path", lambda: broken)
    table = bank_list.packaged_table.__wrapped__()
    assert table.banks == () and table.by_ispb("00000000") is None
    assert table.search("banco") == []
