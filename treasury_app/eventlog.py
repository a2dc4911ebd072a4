"""Errors to the Windows Event Log too, where IT's monitoring reads them (the Application log,
source ``Treasury``, which the MSI registers with .NET's generic message file: the event's
text is the record itself).

Only records at ERROR or above go there, formatted by the log's own redacting formatter (no
secret reaches the Event Log either), cut to what one event can hold. The Windows calls
(``RegisterEventSourceW``, ``ReportEventW``, ``DeregisterEventSource`` in advapi32) sit behind
:class:`EventLogApi`: tests on any system drive :class:`EventLogHandler` with a fake, and only
Windows runs :class:`Advapi32EventLog`. A source that cannot be opened (not registered, a
locked-down desktop) leaves the app logging to its file as before.
"""

from __future__ import annotations

import contextlib
import logging
import sys
from typing import Protocol

SOURCE = "Treasury"
EVENT_ID = 1000  # .NET's EventLogMessages.dll shows any id's first string as the text
# The Event Log's types (winnt.h).
ERROR_TYPE = 0x0001
WARNING_TYPE = 0x0002
# One string of an event may hold 31,839 characters; the record is cut well before.
MAX_CHARS = 30_000
CUT = "\n[… cut: the whole record is in the log file]"

log = logging.getLogger(__name__)


class EventLogApi(Protocol):
    """The three calls the handler needs."""

    def open(self, source: str) -> object | None:
        """A handle for ``source``, or ``None`` when it cannot be opened."""

    def report(self, handle: object, event_type: int, event_id: int, text: str) -> bool:
        """Write one event; ``False`` when Windows refused it."""

    def close(self, handle: object) -> None:
        """Let the handle go."""


class Advapi32EventLog:
    """The Windows Event Log through advapi32 (ctypes, no extra package)."""

    def __init__(self) -> None:
        import ctypes
        from ctypes import wintypes

        advapi32 = ctypes.WinDLL("advapi32", use_last_error=True)  # type: ignore[attr-defined]
        self._register = advapi32.RegisterEventSourceW
        self._register.argtypes = [wintypes.LPCWSTR, wintypes.LPCWSTR]
        self._register.restype = wintypes.HANDLE
        self._report = advapi32.ReportEventW
        self._report.argtypes = [
            wintypes.HANDLE,  # hEventLog
            wintypes.WORD,  # wType
            wintypes.WORD,  # wCategory
            wintypes.DWORD,  # dwEventID
            ctypes.c_void_p,  # lpUserSid
            wintypes.WORD,  # wNumStrings
            wintypes.DWORD,  # dwDataSize
            ctypes.POINTER(wintypes.LPCWSTR),  # lpStrings
            ctypes.c_void_p,  # lpRawData
        ]
        self._report.restype = wintypes.BOOL
        self._deregister = advapi32.DeregisterEventSource
        self._deregister.argtypes = [wintypes.HANDLE]
        self._deregister.restype = wintypes.BOOL
        self._ctypes = ctypes
        self._wintypes = wintypes

    def open(self, source: str) -> object | None:
        handle = self._register(None, source)
        return handle or None

    def report(self, handle: object, event_type: int, event_id: int, text: str) -> bool:
        strings = (self._wintypes.LPCWSTR * 1)(text)
        return bool(self._report(handle, event_type, 0, event_id, None, 1, 0, strings, None))

    def close(self, handle: object) -> None:
        self._deregister(handle)


class EventLogHandler(logging.Handler):
    """Writes ERROR and CRITICAL records to the Event Log through ``api``. Opened lazily, on
    the first error; a source that cannot be opened is not tried again."""

    def __init__(self, api: EventLogApi, source: str = SOURCE) -> None:
        super().__init__(logging.ERROR)
        self.api = api
        self.source = source
        self._handle: object | None = None
        self._unavailable = False

    def emit(self, record: logging.LogRecord) -> None:
        if self._unavailable:
            return
        try:
            if self._handle is None:
                self._handle = self.api.open(self.source)
                if self._handle is None:
                    self._unavailable = True
                    return
            text = self.format(record)
            if len(text) > MAX_CHARS:
                text = text[: MAX_CHARS - len(CUT)] + CUT
            event_type = ERROR_TYPE if record.levelno >= logging.ERROR else WARNING_TYPE
            self.api.report(self._handle, event_type, EVENT_ID, text)
        except Exception:  # the Event Log never breaks the app's logging
            self.handleError(record)

    def close(self) -> None:
        handle, self._handle = self._handle, None
        if handle is not None:
            with contextlib.suppress(OSError):
                self.api.close(handle)
        super().close()


def system_event_log() -> EventLogApi | None:
    """This computer's Event Log: advapi32 on Windows, none elsewhere."""
    if sys.platform != "win32":
        return None
    try:
        return Advapi32EventLog()
    except (OSError, AttributeError) as error:
        log.warning("the Windows Event Log cannot be used: %s", error)
        return None
