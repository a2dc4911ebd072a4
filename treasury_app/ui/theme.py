"""The app's few semantic colours (error, warning, success, muted), made readable on the
palette in use, light or dark (Windows dark mode included), and its fixed-pitch font.

A colour is the familiar one (the red of an error) with its lightness moved until it reads
on the background (WCAG contrast 4.5:1), so a label never carries a colour chosen for one
palette only. Banners and highlighted rows get a tint: the tone blended into the background.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

from PySide6.QtGui import QColor, QFont, QFontDatabase, QFontInfo, QGuiApplication, QPalette
from PySide6.QtWidgets import QWidget

Tone = Literal["error", "warning", "success", "muted"]
Tinted = Literal["error", "warning", "success"]
Role = QPalette.ColorRole

# As designed on a light background; moved in lightness only when the background needs it.
TONES: dict[str, str] = {
    "error": "#b3261e",
    "warning": "#8a5300",
    "success": "#1e7e34",
}
# Tints start from brighter hues: a warning row reads as yellow, an error one as red.
TINTS: dict[str, str] = {
    "error": "#d93025",
    "warning": "#f9ab00",
    "success": "#188038",
}
READABLE = 4.5  # WCAG AA for text
TINT = 0.16  # how much of the tone a banner or row background takes
EDGE = 0.55  # ... and its border


# Fixed-pitch families worth trying, best first, when the system's own answer is not fixed
# pitch (fontconfig answers "Noto Sans Mono" for monospace once fonts-noto-mono is installed, a
# font Qt does not take for fixed pitch); any other fixed-pitch family installed comes after.
FIXED_FAMILIES = (
    "Consolas",
    "Cascadia Mono",
    "Menlo",
    "SF Mono",
    "DejaVu Sans Mono",
    "Liberation Mono",
    "Noto Mono",
    "Ubuntu Mono",
    "Courier New",
)


def is_fixed_pitch(font: QFont) -> bool:
    """Whether the font Qt actually resolves for ``font`` is fixed pitch."""
    return QFontInfo(font).fixedPitch()


def fixed_font() -> QFont:
    """A fixed-pitch font for text that is read or compared character by character (keys,
    lines, hashes, columns of figures): the system's own (Consolas on Windows, Menlo on macOS,
    the desktop's monospace on Linux) when Qt resolves it to a fixed-pitch font, else the first
    installed family that is; the system's, hinted as typewriter, when none is."""
    system = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
    if is_fixed_pitch(system):
        return system
    installed = QFontDatabase.families()
    candidates = [name for name in FIXED_FAMILIES if name in installed]
    candidates += sorted(name for name in installed if QFontDatabase.isFixedPitch(name))
    for family in candidates:
        font = QFont(system)
        font.setFamilies([family])
        if is_fixed_pitch(font):
            return font
    system.setStyleHint(QFont.StyleHint.TypeWriter)
    system.setFixedPitch(True)
    return system


def _palette(widget: QWidget | None) -> QPalette:
    return widget.palette() if widget is not None else QGuiApplication.palette()


def luminance(color: QColor) -> float:
    """WCAG relative luminance."""

    def channel(value: float) -> float:
        return value / 12.92 if value <= 0.03928 else ((value + 0.055) / 1.055) ** 2.4

    return (
        0.2126 * channel(color.redF())
        + 0.7152 * channel(color.greenF())
        + 0.0722 * channel(color.blueF())
    )


def contrast(a: QColor, b: QColor) -> float:
    """WCAG contrast ratio of two colours, from 1 (the same) to 21 (black on white)."""
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def is_dark(widget: QWidget | None = None) -> bool:
    """Whether the window background is dark (light text reads better on it)."""
    window = _palette(widget).color(Role.Window)
    return contrast(window, QColor("white")) > contrast(window, QColor("black"))


def blend(color: QColor, background: QColor, amount: float) -> QColor:
    """``amount`` of ``color`` over ``background`` (0: the background, 1: the colour)."""
    return QColor.fromRgbF(
        background.redF() + (color.redF() - background.redF()) * amount,
        background.greenF() + (color.greenF() - background.greenF()) * amount,
        background.blueF() + (color.blueF() - background.blueF()) * amount,
    )


def readable(color: QColor, background: QColor, ratio: float = READABLE) -> QColor:
    """``color`` with its lightness moved away from ``background`` until it reaches
    ``ratio`` (or black or white, whichever is nearer the goal)."""
    if contrast(color, background) >= ratio:
        return QColor(color)
    lighter = contrast(background, QColor("white")) > contrast(background, QColor("black"))
    hue = max(color.hslHueF(), 0.0)  # -1 for a grey
    saturation, lightness = color.hslSaturationF(), color.lightnessF()
    step = 0.02 if lighter else -0.02
    candidate = QColor(color)
    while 0.0 <= lightness <= 1.0:
        lightness += step
        candidate = QColor.fromHslF(hue, saturation, min(1.0, max(0.0, lightness)))
        if contrast(candidate, background) >= ratio:
            return candidate
    return QColor("white") if lighter else QColor("black")


@lru_cache(maxsize=64)
def _tone_name(tone: str, background: int, text: int) -> str:
    back, fore = QColor.fromRgba(background), QColor.fromRgba(text)
    base = blend(fore, back, 0.62) if tone == "muted" else QColor(TONES[tone])
    return readable(base, back).name()


def tone_color(tone: Tone, widget: QWidget | None = None, *, on: Role = Role.Window) -> QColor:
    """The colour of ``tone`` for text on ``on`` (Window for labels, Base for table cells)."""
    palette = _palette(widget)
    text = Role.Text if on in (Role.Base, Role.AlternateBase) else Role.WindowText
    return QColor(_tone_name(tone, palette.color(on).rgba(), palette.color(text).rgba()))


def error_color(widget: QWidget | None = None) -> QColor:
    return tone_color("error", widget)


def warning_color(widget: QWidget | None = None) -> QColor:
    return tone_color("warning", widget)


def success_color(widget: QWidget | None = None) -> QColor:
    return tone_color("success", widget)


def muted_color(widget: QWidget | None = None) -> QColor:
    """Secondary text (notes, counters): quieter than the text, still readable."""
    return tone_color("muted", widget)


def tint(
    tone: Tinted, widget: QWidget | None = None, *, on: Role = Role.Window, amount: float = TINT
) -> QColor:
    """A background for a banner or a row that calls for attention: the tone, faint, over
    the palette's ``on`` colour; its normal text stays readable on it."""
    background = _palette(widget).color(on)
    return blend(QColor(TINTS[tone]), background, amount)


@lru_cache(maxsize=64)
def _on_tint_name(tone: str, background: int) -> str:
    return readable(QColor(TONES[tone]), QColor.fromRgba(background)).name()


def tinted_text(
    tone: Tinted, widget: QWidget | None = None, *, on: Role = Role.Window, amount: float = TINT
) -> QColor:
    """The colour of ``tone`` for text on its own :func:`tint`."""
    return QColor(_on_tint_name(tone, tint(tone, widget, on=on, amount=amount).rgba()))


def text_style(tone: Tone, widget: QWidget | None = None) -> str:
    """A style sheet that colours a label's text in ``tone``."""
    return f"color: {tone_color(tone, widget).name()};"


def banner_style(tone: Tinted, widget: QWidget | None = None, *, border: int = 1) -> str:
    """A style sheet for a boxed message: tinted background, border and text of ``tone``;
    padding and weight are the caller's."""
    palette = _palette(widget)
    background = tint(tone, widget)
    edge = blend(QColor(TINTS[tone]), palette.color(Role.Window), EDGE)
    text = tinted_text(tone, widget)
    return (
        f"background: {background.name()}; border: {border}px solid {edge.name()};"
        f" border-radius: 4px; color: {text.name()};"
    )
