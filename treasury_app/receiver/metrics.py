"""The receiver's figures in the Prometheus text format (``GET /metrics``).

One registry per app (one uvicorn worker per process: scale out with processes or instances,
each scraped on its own; no multiprocess mode)."""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST

LATENCY_BUCKETS = (0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)


class ReceiverMetrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.received = Counter(
            "treasury_receiver_items_received",
            "Notified items received, by source (pix, rec, cobr, transfer, ...).",
            ["source"],
            registry=self.registry,
        )
        self.outcomes = Counter(
            "treasury_receiver_items",
            "What became of each item: applied, unchanged, unmatched, failed, duplicate.",
            ["source", "outcome"],
            registry=self.registry,
        )
        self.rejected = Counter(
            "treasury_receiver_rejected",
            "Requests refused: pin, proxy, secret, too_large, bad_body, header_timeout,"
            " body_timeout, unavailable, pool_exhausted.",
            ["reason"],
            registry=self.registry,
        )
        self.reconciled = Counter(
            "treasury_receiver_reconciled",
            "Items the reconciler found missing and applied, by source.",
            ["source"],
            registry=self.registry,
        )
        self.latency = Histogram(
            "treasury_receiver_answer_seconds",
            "Seconds from the request's arrival to its answer (notification routes).",
            ["route"],
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )

    def reject(self, reason: str) -> None:
        self.rejected.labels(reason).inc()

    def exposition(self) -> tuple[bytes, str]:
        return generate_latest(self.registry), CONTENT_TYPE_LATEST
