"""The route of each request, from every source a company uses, in order:

1. the explicit setting given by the caller (the profile's or the machine policy's): no
   proxy, this proxy, or this PAC script;
2. the computer's settings (:class:`~treasury_app.api.proxies.SystemProxies`): the
   environment's variables where they name a proxy; on Windows the Internet settings'
   automatic detection (WPAD), then their script (``AutoConfigURL``), then their manual proxy
   and bypass list, then WinHTTP's proxy;
3. direct.

Loopback is always direct. A PAC script answers per URL with an ordered list
(``PROXY a:8080; PROXY b:8080; DIRECT``): the transport tries them in that order, the next
one when a proxy cannot be reached.

A PAC script that cannot be fetched or evaluated is a :class:`ProxyRefusal` with its
``proxy.pac_*`` code: the app **fails closed** by default (``on_failure="fail"``), so that a
broken script never sends the bank's traffic around the company's proxy without anybody
knowing; ``on_failure="direct"`` behaves as Windows does instead (the manual proxy if one is
set, else direct). Scripts are kept per address for ``ttl`` seconds (a failure for
``failure_ttl``), then fetched again.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

import httpx

from treasury_app.api.autoproxy.pac import (
    Fetcher,
    PacError,
    PacLimits,
    PacScript,
    fetch_pac,
    worker_command,
)
from treasury_app.api.autoproxy.wpad import WpadDiscovery
from treasury_app.api.proxies import (
    ProxyRefusal,
    ProxyRoute,
    ProxySetting,
    SystemProxies,
    is_loopback,
    route,
)

PacFailure = Literal["fail", "direct"]
log = logging.getLogger("treasury_app.api.proxy")


@dataclass
class _Script:
    """A PAC address's state: its loaded script or its failure, until ``expires``."""

    expires: float
    script: PacScript | None = None
    error: PacError | None = None
    answers: dict[tuple[str, str, int | None], tuple[str | None, ...]] = field(default_factory=dict)


class ProxyResolver:
    """Decides the routes of requests for one client (see the module's docstring)."""

    def __init__(
        self,
        setting: ProxySetting,
        system: SystemProxies,
        *,
        limits: PacLimits | None = None,
        on_failure: PacFailure = "fail",
        wpad: WpadDiscovery | None = None,
        fetch: Fetcher = fetch_pac,
        ttl: float = 30 * 60.0,
        failure_ttl: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
        worker: list[str] | None = None,
    ) -> None:
        self.setting = setting
        self.system = system
        self.limits = limits or PacLimits()
        self.on_failure: PacFailure = on_failure
        self._wpad = wpad
        self._fetch = fetch
        self._ttl = ttl
        self._failure_ttl = failure_ttl
        self._clock = clock
        self._worker = worker or worker_command()
        self._scripts: dict[str, _Script] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._wpad_found: tuple[float, str | None] | None = None
        self._last: dict[tuple[str, str, int | None], ProxyRoute] = {}

    # -- what a request asks -----------------------------------------------------------------

    @property
    def uses_script(self) -> bool:
        """Whether routes come from a PAC script (named, or to be found by WPAD)."""
        if self.setting.mode == "pac":
            return True
        return self.setting.mode == "system" and (
            self.system.pac_url is not None or self.system.auto_detect
        )

    async def routes(self, url: httpx.URL | str) -> tuple[ProxyRoute, ...]:
        """The routes to try for ``url``, in order (one, unless a PAC script gives several)."""
        target = httpx.URL(url) if isinstance(url, str) else url
        key = (target.scheme, target.host, target.port)
        if is_loopback(target.host) or not self.uses_script:
            found: tuple[ProxyRoute, ...] = (route(target, self.setting, self.system),)
        else:
            found = await self._from_script(target)
        self._last[key] = found[0]
        return found

    def last_route(self, url: httpx.URL | str) -> ProxyRoute | None:
        """The first route last decided for ``url``'s scheme, host and port, if any."""
        target = httpx.URL(url) if isinstance(url, str) else url
        return self._last.get((target.scheme, target.host, target.port))

    async def aclose(self) -> None:
        scripts, self._scripts = list(self._scripts.values()), {}
        for state in scripts:
            if state.script is not None:
                state.script.close()

    # -- PAC ---------------------------------------------------------------------------------

    async def _from_script(self, target: httpx.URL) -> tuple[ProxyRoute, ...]:
        try:
            address = await self._script_address()
            if address is None:  # automatic detection found nothing: the other settings
                return (self._static(target),)
            answers = await self._answers(address, target)
        except PacError as error:
            if self.on_failure == "direct":
                log.warning("PAC script unusable (%s); falling back to direct", error.code)
                return (self._static(target),)
            raise ProxyRefusal(error.reason.code, **error.reason.params) from None
        return tuple(ProxyRoute(proxy, "pac") for proxy in answers)

    def _static(self, target: httpx.URL) -> ProxyRoute:
        """What the settings say without a script: the manual proxy, else direct."""
        return route(target, ProxySetting(mode="system"), self.system)

    async def _script_address(self) -> str | None:
        if self.setting.mode == "pac":
            return self.setting.url
        if self.system.auto_detect and self._wpad is not None:
            found = await self._detected()
            if found is not None:
                return found
        return self.system.pac_url

    async def _detected(self) -> str | None:
        now = self._clock()
        if self._wpad_found is not None and self._wpad_found[0] > now:
            return self._wpad_found[1]
        assert self._wpad is not None
        async with self._lock_for("wpad:"):
            if self._wpad_found is not None and self._wpad_found[0] > now:
                return self._wpad_found[1]
            found = await self._wpad.discover(self.limits)
            if found is None:
                self._wpad_found = (now + self._failure_ttl, None)
                return None
            url, text = found
            self._wpad_found = (now + self._ttl, url)
            await self._load(url, text)
            return url

    async def _answers(self, address: str, target: httpx.URL) -> tuple[str | None, ...]:
        state = await self._script(address)
        key = (target.scheme, target.host, target.port)
        known = state.answers.get(key)
        if known is not None:
            return known
        assert state.script is not None
        # Scheme, host and port only: a script never sees a path or a query (the PAC URL
        # leak: a hostile script sending paths to its own server).
        shown = httpx.URL(scheme=target.scheme, host=target.host, port=target.port, path="/")
        try:
            answers = await state.script.find(str(shown), target.host)
        except PacError as error:
            self._failed(address, error)
            raise
        state.answers[key] = answers
        return answers

    async def _script(self, address: str) -> _Script:
        state = self._fresh(address)
        if state is None:
            async with self._lock_for(address):
                state = self._fresh(address)
                if state is None:
                    try:
                        text = await self._fetch(address, self.limits)
                    except PacError as error:
                        self._failed(address, error)
                        raise
                    state = await self._load(address, text)
        if state.error is not None:
            raise state.error
        return state

    async def _load(self, address: str, text: str) -> _Script:
        old = self._scripts.pop(address, None)
        if old is not None and old.script is not None:
            old.script.close()
        if len(text.encode("utf-8", errors="replace")) > self.limits.max_bytes:
            return self._failed(
                address,
                PacError("proxy.pac_too_large", script=address, limit=self.limits.max_bytes),
            )
        script = PacScript(address, self.limits, self._worker)
        try:
            await script.load(text)
        except PacError as error:
            script.close()
            return self._failed(address, error)
        state = _Script(expires=self._clock() + self._ttl, script=script)
        self._scripts[address] = state
        return state

    def _failed(self, address: str, error: PacError) -> _Script:
        old = self._scripts.get(address)
        if old is not None and old.script is not None:
            old.script.close()
        state = _Script(expires=self._clock() + self._failure_ttl, error=error)
        self._scripts[address] = state
        return state

    def _fresh(self, address: str) -> _Script | None:
        state = self._scripts.get(address)
        if state is None or state.expires <= self._clock():
            return None
        return state

    def _lock_for(self, name: str) -> asyncio.Lock:
        lock = self._locks.get(name)
        if lock is None:
            lock = self._locks[name] = asyncio.Lock()
        return lock
