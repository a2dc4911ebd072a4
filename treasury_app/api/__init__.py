"""The two async HTTP clients (QR Codes API and Accounts API) and everything on the wire."""
