"""Errors to the Windows Event Log: the handler the Windows path uses, driven with a fake Event
Log (only Windows runs advapi32; the workflow's installed-app run proves the source exists)."""

from __future__ import annotations

import logging
import sys

import pytest

from treasury_app import eventlog, logging_setup


class FakeEventLog:
    def __init__(self, opens: bool = True) -> None:
        self.opens = opens
        self.opened: list[str] = []
        self.events: list[tuple[int, int, str]] = []
        self.closed = 0

    def open(self, source: str) -> object | None:
        self.opened.append(source)
        return "handle" if self.opens else None

    def report(self, handle: object, event_type: int, event_id: int, text: str) -> bool:
        assert handle == "handle"
        self.events.append((event_type, event_id, text))
        return True

    def close(self, handle: object) -> None:
        self.closed += 1


@pytest.fixture
def fake():
    logging_setup.remove()
    fake = FakeEventLog()
    handler = logging_setup.attach_event_log(fake)
    assert handler is not None
    yield fake
    logging_setup.remove()


def test_errors_go_to_the_event_log_and_nothing_less(fake) -> None:
    log = logging.getLogger("treasury_app.test")
    log.warning("a warning stays in the file")
    log.info("so does this")
    assert fake.events == [] and fake.opened == []  # not even opened before the first error
    log.error("the bank could not be reached")
    try:
        raise ValueError("a bug")
    except ValueError:
        log.exception("unexpected")
    assert fake.opened == ["Treasury"]
    assert [(kind, ident) for kind, ident, _ in fake.events] == [(1, 1000), (1, 1000)]
    assert "the bank could not be reached" in fake.events[0][2]
    assert "ValueError: a bug" in fake.events[1][2]  # with its traceback


def test_no_secret_reaches_the_event_log(fake) -> None:
    logging.getLogger("treasury_app.test").error(
        "token refused: client_secret=s3cr3t-value Authorization: Bearer abcdefghijklmnopqrstuv"
    )
    text = fake.events[0][2]
    assert "s3cr3t-value" not in text and "abcdefghijklmnopqrstuv" not in text
    assert logging_setup.REDACTED in text


def test_a_long_record_is_cut_to_what_an_event_holds(fake) -> None:
    logging.getLogger("treasury_app.test").error("x" * 100_000)
    text = fake.events[0][2]
    assert len(text) == eventlog.MAX_CHARS
    assert text.endswith(eventlog.CUT)


def test_a_source_that_cannot_be_opened_is_not_tried_again() -> None:
    logging_setup.remove()
    fake = FakeEventLog(opens=False)
    logging_setup.attach_event_log(fake)
    try:
        for _ in range(3):
            logging.getLogger("treasury_app.test").error("no event log here")
        assert fake.opened == ["Treasury"] and fake.events == []
    finally:
        logging_setup.remove()


def test_attached_once_and_closed_with_the_log(fake) -> None:
    again = FakeEventLog()
    first = logging_setup.attach_event_log(again)
    assert isinstance(first, eventlog.EventLogHandler) and first.api is fake
    logging.getLogger("treasury_app.test").error("one")
    logging_setup.remove()
    assert fake.closed == 1 and again.opened == []


def test_only_windows_has_a_system_event_log() -> None:
    api = eventlog.system_event_log()
    assert (api is not None) == (sys.platform == "win32")


@pytest.mark.skipif(sys.platform != "win32", reason="advapi32: the Windows Event Log itself")
def test_windows_takes_an_event_through_advapi32() -> None:
    api = eventlog.system_event_log()
    assert api is not None
    handle = api.open("TreasuryTests")  # an unregistered source writes to the Application log
    assert handle is not None
    try:
        assert api.report(handle, eventlog.WARNING_TYPE, eventlog.EVENT_ID, "treasury test event")
    finally:
        api.close(handle)
