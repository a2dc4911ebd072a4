"""Client and models of the QR Codes API (Cash In and Pix Automático, BCB Pix standard)."""
