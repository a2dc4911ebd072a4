"""Texts of Qt's own widgets that Qt's pt_BR catalogue (qtbase_pt_BR.qm, loaded by
:func:`treasury_app.app.install_translator`) does not carry: Qt 6's file dialog labels its
fields "&Look in:" and "Files of &type:", while the catalogue PySide6 ships still has Qt 5's
"Look in:" and "Files of type:". The app's own catalogue carries them under Qt's context, so a
file dialog in pt_BR says "Procurar em:" (Qt asks every installed translator in turn)."""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP

__all__ = ["QT_GAPS"]

QT_GAPS: tuple[tuple[str, str], ...] = (
    ("QFileDialog", QT_TRANSLATE_NOOP("QFileDialog", "&Look in:")),
    ("QFileDialog", QT_TRANSLATE_NOOP("QFileDialog", "Files of &type:")),
)
