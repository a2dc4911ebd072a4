"""Proxies as a company sets them: an automatic proxy script (PAC) named by the profile, by
Windows' settings or found by WPAD, evaluated per request in a process of its own; Windows'
Internet settings and WinHTTP's read from the registry; the route of each request decided
by :class:`~treasury_app.api.autoproxy.resolver.ProxyResolver`.

Every read of the computer (the registry, the DNS, the network) is a small function behind an
interface, so that the tests on any platform drive it with fakes.
"""
