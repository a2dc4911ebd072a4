"""Treasury desktop application for Brazilian companies (Pix, boletos, Pix Automático)."""

__version__ = "0.2.0"
