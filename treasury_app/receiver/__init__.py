"""The webhook receiver service (``treasury-receiver``): the bank's notifications, over
mutual TLS, stored and applied in the team database, which tells the desktops.

It may import the domain, the API models and the ledger, never the UI; nothing imports it but
its entry point (:mod:`treasury_app.receiver.__main__`).
"""
