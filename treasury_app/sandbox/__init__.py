"""The sandbox bank: a local server implementing both APIs of the interface specification
(QR Codes API and Accounts API) over mutual TLS, for the desktop app and the tests."""
