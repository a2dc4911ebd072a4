"""``treasury-receiver --config FILE``: serve the bank's notifications (uvicorn, one worker).

``--check`` reads the configuration, opens the team database once and exits (0: ready). Logs
go to stderr, one line each (``time level logger message``): under systemd, to the journal.
Secrets are never logged. Stop with SIGTERM/SIGINT: the answers under way finish first.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import ssl
import sys
from collections.abc import Callable, Sequence
from typing import Any

LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s %(message)s"


def build_server(config: Any, receiver: Any) -> Any:
    """The uvicorn server for ``receiver`` as ``config`` says (tests start it too)."""
    import uvicorn

    from treasury_app.receiver.protocol import receiver_protocol
    from treasury_app.receiver.tls import server_context

    tls = config.certificate is not None and config.key is not None
    if tls and config.bank_ca is None:
        raise ValueError("bank.ca is required to check the bank's client certificate")

    def context_factory(_config: Any, _default: Callable[[], ssl.SSLContext]) -> ssl.SSLContext:
        return server_context(config)

    uvicorn_config = uvicorn.Config(
        receiver.app(),
        host=config.host,
        port=config.port,
        ssl_context_factory=context_factory if tls else None,
        # the pin checked at the handshake's end; the header and body deadlines
        http=receiver_protocol(config, receiver.metrics.reject),
        proxy_headers=False,  # the real peer: a proxy's headers are trusted by address only
        server_header=False,
        lifespan="on",
        log_config=None,
        access_log=False,
        timeout_keep_alive=30,
        timeout_graceful_shutdown=10,
    )
    return uvicorn.Server(uvicorn_config)


def build_monitor(config: Any, receiver: Any) -> Any:
    """The ``[monitor]`` listener (plain HTTP, /metrics and /healthz), or ``None``. It leaves
    the signals to the main server, which stops it when it stops."""
    import contextlib

    import uvicorn

    if config.monitor_port is None:
        return None

    class MonitorServer(uvicorn.Server):
        @contextlib.contextmanager
        def capture_signals(self) -> Any:
            yield

    return MonitorServer(
        uvicorn.Config(
            receiver.monitor_app(),
            host=config.monitor_host,
            port=config.monitor_port,
            proxy_headers=False,
            server_header=False,
            lifespan="off",
            log_config=None,
            access_log=False,
        )
    )


async def serve(server: Any, monitor: Any) -> None:
    """The main server and, beside it, the monitor listener until the main one stops."""
    if monitor is None:
        await server.serve()
        return
    side = asyncio.create_task(monitor.serve())
    try:
        await server.serve()
    finally:
        monitor.should_exit = True
        await side


async def _check(config: Any) -> int:
    from treasury_app.receiver.config import ConfigError
    from treasury_app.receiver.reconcile import bank_api_configs
    from treasury_app.receiver.store import DatabaseUnavailable, ReceiverStore

    if config.bank_api is not None:
        try:
            bank_api_configs(config.bank_api)  # the certificates open with their passwords
        except ConfigError as error:
            print(f"treasury-receiver: {error}", file=sys.stderr)
            return 2

    store = ReceiverStore(config.conninfo, min_size=1, max_size=1)
    try:
        await store.open(wait=False)
        await store.ping()
    except DatabaseUnavailable as error:
        print(f"treasury-receiver: the team database cannot be reached: {error}", file=sys.stderr)
        return 3
    finally:
        await store.close()
    print(f"treasury-receiver {config.name}: configuration and database ready.")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="treasury-receiver", description="Receive the bank's webhook notifications."
    )
    parser.add_argument("--config", required=True, help="the receiver's TOML file")
    parser.add_argument("--check", action="store_true", help="check and exit")
    parser.add_argument("--log-level", default="INFO")
    args = parser.parse_args(argv)
    logging.basicConfig(level=args.log_level.upper(), format=LOG_FORMAT, stream=sys.stderr)
    from pathlib import Path

    from treasury_app.receiver.app import Receiver
    from treasury_app.receiver.config import ConfigError, load_config
    from treasury_app.receiver.reconcile import reconciler_for

    try:
        config = load_config(Path(args.config))
    except ConfigError as error:
        print(f"treasury-receiver: {error}", file=sys.stderr)
        return 2
    # psycopg's async mode refuses a Proactor loop (Windows' default): a selector loop on
    # every operating system.
    with asyncio.Runner(loop_factory=asyncio.SelectorEventLoop) as runner:
        if args.check:
            return runner.run(_check(config))
        try:
            receiver = Receiver(config)
            # Without [bank_api]: None (logged); a certificate it cannot use: ConfigError.
            receiver.reconciler = reconciler_for(config, receiver.store, receiver.metrics)
            server = build_server(config, receiver)
            monitor = build_monitor(config, receiver)
        except (ValueError, OSError, ssl.SSLError) as error:
            print(f"treasury-receiver: {error}", file=sys.stderr)
            return 2
        runner.run(serve(server, monitor))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
