"""The main window: one tab per area of work, each showing its empty state until filled."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QMainWindow, QTabWidget, QVBoxLayout, QWidget

from treasury_app import __version__

# Tab titles in the order the treasury staff see them; later issues replace the placeholders.
TAB_TITLES: tuple[str, ...] = (
    "Balance & statement",
    "Pix payouts",
    "Boletos",
    "Charges & batches",
    "Recurrences",
    "Settings",
)


class EmptyStateTab(QWidget):
    """A tab that has nothing to show yet, saying so instead of appearing broken."""

    def __init__(self, title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName(f"empty-state:{title}")
        layout = QVBoxLayout(self)
        message = QLabel(
            self.tr("Nothing here yet: connect to a bank to see %1.").replace("%1", title.lower())
        )
        message.setAlignment(Qt.AlignmentFlag.AlignCenter)
        message.setWordWrap(True)
        layout.addWidget(message)


class MainWindow(QMainWindow):
    """Top-level window holding the tabs and the status bar."""

    def __init__(self) -> None:
        super().__init__()
        self.setWindowTitle(self.tr("Treasury") + f" {__version__}")
        self.resize(1100, 720)
        self.tabs = QTabWidget(self)
        self.tabs.setDocumentMode(True)
        for title in TAB_TITLES:
            # "&" marks a keyboard mnemonic in Qt labels; "&&" shows a literal ampersand.
            self.tabs.addTab(EmptyStateTab(title, self.tabs), self.tr(title).replace("&", "&&"))
        self.setCentralWidget(self.tabs)
        self.statusBar().showMessage(self.tr("Not connected"))
