"""Qt widgets, dialogs and item models; with app.py the only place that imports PySide6."""
