"""What the one-folder build leaves out (``packaging/treasury.spec`` filters PyInstaller's lists
of binaries and data files through :func:`trim`): parts of Qt that a Qt Widgets application
never loads, which PySide6's hooks collect anyway.

- the virtual keyboard input plugin, and with it the only users of Qt Quick and QML in the
  folder (``Qt6VirtualKeyboard*``, ``Qt6Quick*``, ``Qt6Qml*``: nothing else links them);
- Windows' software OpenGL renderer ``opengl32sw.dll`` (about 20 MB): the app draws with the
  raster engine and has no OpenGL view;
- Qt's own translation catalogues other than Brazilian Portuguese and English: the app loads
  ``qtbase_pt_BR`` (``treasury_app.app.install_translator``); ``qt_pt_BR`` and the English
  ones stay beside it for Qt's own lookups.

``tests/unit/test_packaging.py`` checks these rules on the file names of both platforms and,
when a build exists in ``dist/treasury-app``, that none of these files is in it;
``treasury-app --self-test`` (its "bundle" check) that what the app needs is still there.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

KEPT_QT_CATALOGUES = frozenset({"qt_pt_BR.qm", "qt_en.qm", "qtbase_pt_BR.qm", "qtbase_en.qm"})

# (why, pattern on the destination path inside the folder, "/" separated)
UNWANTED: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "the virtual keyboard input plugin",
        re.compile(r"(^|/)platforminputcontexts/(lib)?qtvirtualkeyboardplugin\.(dll|so)$", re.I),
    ),
    (
        "Qt Quick, QML and the virtual keyboard (only the keyboard plugin uses them)",
        re.compile(r"(^|/)(lib)?Qt6(Quick|Qml|VirtualKeyboard)\w*(\.dll|\.so(\.\d+)*)$", re.I),
    ),
    ("QML modules", re.compile(r"(^|/)PySide6/(Qt/)?qml/", re.I)),
    ("the software OpenGL renderer", re.compile(r"(^|/)opengl32sw\.dll$", re.I)),
)
QT_CATALOGUE = re.compile(r"(^|/)PySide6/(Qt/)?translations/([^/]+\.qm)$", re.I)


def unwanted(destination: str) -> str | None:
    """Why ``destination`` (a path inside the folder) is left out, or None to keep it."""
    path = destination.replace("\\", "/")
    for why, pattern in UNWANTED:
        if pattern.search(path):
            return why
    catalogue = QT_CATALOGUE.search(path)
    if catalogue and catalogue.group(3) not in KEPT_QT_CATALOGUES:
        return "a Qt translation catalogue of another language"
    return None


def trim(toc: Iterable[Any]) -> tuple[list[Any], list[Any]]:
    """Split a PyInstaller TOC (entries ``(destination, source, kind)``) into what is kept
    and what is left out."""
    kept: list[Any] = []
    dropped: list[Any] = []
    for entry in toc:
        (dropped if unwanted(str(entry[0])) else kept).append(entry)
    return kept, dropped
