"""Colours that read in a dark palette (Windows dark mode) as in a light one, and no UI file
choosing a font family or a text colour of its own."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtGui import QColor, QFont, QFontDatabase, QFontInfo, QFontMetrics, QPalette
from PySide6.QtWidgets import QLabel

from treasury_app.ui import theme
from treasury_app.ui.theme import (
    READABLE,
    banner_style,
    contrast,
    error_color,
    fixed_font,
    is_dark,
    muted_color,
    success_color,
    tint,
    tinted_text,
    tone_color,
    warning_color,
)

UI = Path(theme.__file__).parent
Role = QPalette.ColorRole

# Files another change is rewriting at the same time: their literals are replaced there.
SKIPPED: set[str] = set()
# Colours that are not text on the palette, on purpose.
FIXED_COLOURS = {
    "widgets/qr_code_view.py": "QR modules: dark on light, or phones cannot read them",
    "dialogs/receipt_viewer.py": "a PDF page is painted on white paper",
    "widgets/api_status.py": "environment badges set their own background and text together",
}


def palette(window: str, text: str, base: str, base_text: str | None = None) -> QPalette:
    result = QPalette()
    for group in (QPalette.ColorGroup.Active, QPalette.ColorGroup.Inactive):
        result.setColor(group, Role.Window, QColor(window))
        result.setColor(group, Role.WindowText, QColor(text))
        result.setColor(group, Role.Base, QColor(base))
        result.setColor(group, Role.Text, QColor(base_text or text))
    return result


PALETTES = {
    # Qt's Windows 11 style in dark mode, and the Fusion default of the tests.
    "windows dark": palette("#202020", "#ffffff", "#2d2d2d"),
    "dark grey": palette("#353535", "#e0e0e0", "#2a2a2a"),
    "black": palette("#000000", "#ffffff", "#000000"),
    "light": palette("#efefef", "#000000", "#ffffff"),
}


@pytest.fixture(params=sorted(PALETTES))
def label(request: Any, qtbot: Any) -> QLabel:
    widget = QLabel()
    qtbot.addWidget(widget)
    widget.setPalette(PALETTES[request.param])
    return widget


def test_text_colours_read_on_the_window_and_on_table_cells(label: QLabel) -> None:
    window = label.palette().color(Role.Window)
    base = label.palette().color(Role.Base)
    for helper in (error_color, warning_color, success_color, muted_color):
        colour = helper(label)
        assert contrast(colour, window) >= READABLE, (helper.__name__, colour.name())
    for tone in ("error", "warning", "success", "muted"):
        assert contrast(tone_color(tone, label, on=Role.Base), base) >= READABLE, tone


def test_tints_keep_every_text_readable(label: QLabel) -> None:
    text = label.palette().color(Role.WindowText)
    for tone in ("error", "warning", "success"):
        for amount in (0.14, 0.25, 0.32):
            background = tint(tone, label, amount=amount)
            assert contrast(text, background) >= READABLE, (tone, amount)
            assert contrast(tinted_text(tone, label, amount=amount), background) >= READABLE


def test_a_dark_palette_gets_lighter_colours_than_a_light_one(qtbot: Any) -> None:
    dark, light = QLabel(), QLabel()
    qtbot.addWidget(dark)
    qtbot.addWidget(light)
    dark.setPalette(PALETTES["windows dark"])
    light.setPalette(PALETTES["light"])
    assert is_dark(dark) and not is_dark(light)
    assert error_color(light).name() == theme.TONES["error"]  # as designed where it reads
    assert error_color(dark).lightnessF() > error_color(light).lightnessF()
    assert error_color(dark).hue() == pytest.approx(error_color(light).hue(), abs=3)  # still red
    assert banner_style("error", dark) != banner_style("error", light)


def _advances(font) -> set[int]:
    metrics = QFontMetrics(font)
    return {metrics.horizontalAdvance(char) for char in "il0W.,|M"}


def test_the_fixed_font_is_fixed_pitch_whatever_fonts_are_installed() -> None:
    font = fixed_font()
    assert QFontInfo(font).fixedPitch(), QFontInfo(font).family()
    assert len(_advances(font)) == 1  # every character as wide as the next: columns line up
    system = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
    if QFontInfo(system).fixedPitch():
        assert font == system  # the system's own, where it is fixed pitch


def test_a_proportional_system_answer_is_replaced_by_a_fixed_pitch_family(monkeypatch) -> None:
    """A machine whose "monospace" resolves to a font Qt does not take for fixed pitch (seen
    with fonts-noto-mono): another family is chosen, by what Qt resolves, not by its name."""
    proportional = QFontDatabase.systemFont(QFontDatabase.SystemFont.GeneralFont)
    assert not QFontInfo(proportional).fixedPitch()
    monkeypatch.setattr(theme.QFontDatabase, "systemFont", lambda _which: QFont(proportional))
    font = fixed_font()
    assert QFontInfo(font).fixedPitch(), QFontInfo(font).family()
    assert len(_advances(font)) == 1


def _ui_files() -> list[tuple[str, str]]:
    return [
        (path.relative_to(UI).as_posix(), path.read_text("utf-8"))
        for path in sorted(UI.rglob("*.py"))
        if path.name != "theme.py"  # the one place colours and the font are chosen
    ]


FONT_NAMES = re.compile(
    r"font-family|monospace|courier|dejavu|consolas|menlo|QFont\(\s*[\"']|setFamil(y|ies)\(",
    re.IGNORECASE,
)
TEXT_COLOURS = re.compile(
    r"(?<![\w-])(color|background(-color)?)\s*:\s*(?!palette\()[#\w]"
    r"|QColor\(\s*[\"']|Qt\.GlobalColor\.",
)


def test_no_ui_file_names_a_font_family() -> None:
    found = {name for name, text in _ui_files() if FONT_NAMES.search(text)}
    assert found - SKIPPED == set(), "use theme.fixed_font() (the system's fixed font)"


def test_no_ui_file_hard_codes_a_text_colour() -> None:
    found = {name for name, text in _ui_files() if TEXT_COLOURS.search(text)}
    allowed = SKIPPED | set(FIXED_COLOURS)
    assert found - allowed == set(), "use treasury_app.ui.theme (palette-aware colours)"


def test_the_scans_see_what_they_look_for() -> None:
    """The controls: each pattern does match what it forbids."""
    assert FONT_NAMES.search('edit.setFont(QFont("Courier New"))')
    assert FONT_NAMES.search('"QLabel { font-family: monospace; }"')
    assert TEXT_COLOURS.search('label.setStyleSheet("color: #b3261e;")')
    assert TEXT_COLOURS.search('"background:#fdecea; border: 1px"')
    assert TEXT_COLOURS.search('QBrush(QColor("#fdecea"))')
    assert not TEXT_COLOURS.search('"color: palette(mid); border: 1px solid #d93025;"')
