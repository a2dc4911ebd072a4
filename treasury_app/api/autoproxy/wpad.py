"""WPAD by the DNS: ``http://wpad.<domain>/wpad.dat`` for the computer's domain and its
parents, down to a domain of two labels (never ``wpad.com.br``-like names of a public
suffix's direct child: ``wpad.example.com.br`` is tried, ``wpad.com.br`` is not). WPAD by
DHCP (option 252) is out of reach of a program without the Windows API that asks for it;
Windows itself uses it, and IT that relies on it names the script in ``AutoConfigURL``.

The computer's domain and the name lookups are behind :class:`WpadEnvironment`, so the tests
drive the discovery with fakes.
"""

from __future__ import annotations

import asyncio
import socket
from dataclasses import dataclass, field
from typing import Protocol

from treasury_app.api.autoproxy.pac import Fetcher, PacError, PacLimits, fetch_pac

# Second-level labels under which a two-label name is still a public suffix (com.br, gov.br):
# WPAD never goes up to a child of such a suffix alone.
_PUBLIC_SECOND_LEVEL = frozenset({"com", "net", "org", "gov", "edu", "co", "ac", "mil", "nom"})


def wpad_candidates(domain: str) -> tuple[str, ...]:
    """The addresses WPAD tries for a computer in ``domain``, nearest first:
    ``corp.example.com.br`` -> ``wpad.corp.example.com.br``, ``wpad.example.com.br``."""
    labels = [label for label in domain.strip().strip(".").lower().split(".") if label]
    found: list[str] = []
    while len(labels) >= 2:
        if len(labels) == 2 and _public(labels):
            break
        if len(labels) == 3 and len(labels[-1]) == 2 and labels[-2] in _PUBLIC_SECOND_LEVEL:
            found.append("http://wpad." + ".".join(labels) + "/wpad.dat")
            break
        found.append("http://wpad." + ".".join(labels) + "/wpad.dat")
        labels = labels[1:]
    return tuple(found)


def _public(labels: list[str]) -> bool:
    return len(labels[-1]) == 2 and labels[0] in _PUBLIC_SECOND_LEVEL


class WpadEnvironment(Protocol):
    """The computer's DNS domain and whether a name resolves."""

    def domain(self) -> str: ...

    def resolves(self, host: str) -> bool: ...


class SystemWpadEnvironment:
    """The real one: the domain of the computer's fully qualified name."""

    def domain(self) -> str:
        name = socket.getfqdn()
        return name.split(".", 1)[1] if "." in name else ""

    def resolves(self, host: str) -> bool:
        try:
            socket.getaddrinfo(host, 80, type=socket.SOCK_STREAM)
        except (OSError, UnicodeError):
            return False
        return True


@dataclass
class WpadDiscovery:
    """Finds the first WPAD script that answers: its address and text, or ``None``."""

    environment: WpadEnvironment = field(default_factory=SystemWpadEnvironment)
    fetch: Fetcher = fetch_pac

    async def discover(self, limits: PacLimits) -> tuple[str, str] | None:
        domain = await asyncio.to_thread(self.environment.domain)
        for url in wpad_candidates(domain):
            host = url.split("/")[2]
            if not await asyncio.to_thread(self.environment.resolves, host):
                continue
            try:
                return url, await self.fetch(url, limits)
            except PacError:
                continue  # a name that resolves but serves no script: try the parent
        return None
