"""One module per main-window tab."""
