"""Qt item models, one QAbstractTableModel per list."""
