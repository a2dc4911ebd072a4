"""The PAC evaluator's own process: reads one JSON request a line on stdin, answers one JSON
line on stdout. A PAC file is hostile input (anyone who can name ``wpad.<domain>`` can serve
one), and the JavaScript engine (dukpy's QuickJS) holds the interpreter lock while it runs:
in the app's own process a ``while (true) {}`` would freeze the window. Here, the app's side
kills this process past its time limit.

The script sees no environment, no ``require`` and no files: only the PAC helper functions
(``dnsDomainIs``, ``shExpMatch``, ``isInNet``, ``dnsResolve``...). Requests::

    {"op": "load", "script": "..."}            -> {"ok": true} | {"error": "syntax", ...}
    {"op": "find", "url": "...", "host": "..."} -> {"answer": "PROXY a:8080; DIRECT"} | error
"""

from __future__ import annotations

import ipaddress
import json
import socket
import sys
from typing import Any

# An answer longer than this is no proxy list; it is cut and refused by the app's side.
MAX_ANSWER = 4096
_PYTHON_HELPERS = ("dnsResolve", "myIpAddress", "isResolvable", "_pacIsInNet")

# The PAC helpers that need no computer, in JavaScript (Netscape's and Microsoft's
# definitions); the ones that ask the DNS call back into Python.
PAC_RUNTIME = r"""
function isPlainHostName(host) { return String(host).indexOf('.') < 0; }
function dnsDomainIs(host, domain) {
    host = String(host).toLowerCase(); domain = String(domain).toLowerCase();
    return host.length >= domain.length &&
        host.substring(host.length - domain.length) === domain;
}
function localHostOrDomainIs(host, hostdom) {
    host = String(host).toLowerCase(); hostdom = String(hostdom).toLowerCase();
    if (host === hostdom) { return true; }
    return host.indexOf('.') < 0 && hostdom.indexOf(host + '.') === 0;
}
function dnsDomainLevels(host) { return String(host).split('.').length - 1; }
function shExpMatch(text, pattern) {
    var re = String(pattern).replace(/[.+^${}()|[\]\\]/g, '\\$&')
        .replace(/\*/g, '.*').replace(/\?/g, '.');
    return new RegExp('^' + re + '$').test(String(text));
}
function isInNet(host, pattern, mask) {
    var address = /^\d+\.\d+\.\d+\.\d+$/.test(host) ? host : dnsResolve(host);
    if (!address) { return false; }
    return _pacIsInNet(address, pattern, mask);
}
function isInNetEx(host, prefix) {
    var address = /^[0-9a-fA-F:.]+$/.test(host) ? host : dnsResolve(host);
    if (!address) { return false; }
    return _pacIsInNet(address, prefix, null);
}
function dnsResolveEx(host) { return dnsResolve(host) || ''; }
function myIpAddressEx() { return myIpAddress(); }
function isResolvableEx(host) { return isResolvable(host); }
function _pacDay(name) {
    return ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'].indexOf(String(name).toUpperCase());
}
function weekdayRange(first, last, gmt) {
    if (last === 'GMT') { gmt = last; last = undefined; }
    var now = new Date();
    var day = gmt === 'GMT' ? now.getUTCDay() : now.getDay();
    var a = _pacDay(first), b = last === undefined ? a : _pacDay(last);
    if (a < 0 || b < 0) { return false; }
    return a <= b ? (day >= a && day <= b) : (day >= a || day <= b);
}
function timeRange() {
    var args = Array.prototype.slice.call(arguments);
    var gmt = args[args.length - 1] === 'GMT';
    if (gmt) { args.pop(); }
    var now = new Date();
    var h = gmt ? now.getUTCHours() : now.getHours();
    var m = gmt ? now.getUTCMinutes() : now.getMinutes();
    var s = gmt ? now.getUTCSeconds() : now.getSeconds();
    var t = h * 3600 + m * 60 + s;
    if (args.length === 1) { return h === args[0]; }
    if (args.length === 2) { return args[0] <= h && h < args[1]; }
    if (args.length === 4) {
        var a4 = args[0] * 3600 + args[1] * 60, b4 = args[2] * 3600 + args[3] * 60;
        return a4 <= t && t < b4;
    }
    if (args.length === 6) {
        var a6 = args[0] * 3600 + args[1] * 60 + args[2];
        var b6 = args[3] * 3600 + args[4] * 60 + args[5];
        return a6 <= t && t <= b6;
    }
    return false;
}
function dateRange() { return false; }
function alert(message) { }
"""


def _resolve(host: Any) -> str | None:
    try:
        return socket.gethostbyname(str(host))
    except (OSError, UnicodeError):
        return None


def _my_address() -> str:
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # no packet is sent: only a route is chosen
            return str(probe.getsockname()[0])
    except OSError:
        return "127.0.0.1"


def _in_net(address: Any, pattern: Any, mask: Any) -> bool:
    try:
        if mask is None:
            network = ipaddress.ip_network(str(pattern), strict=False)
        else:
            network = ipaddress.ip_network(f"{pattern}/{mask}", strict=False)
        return ipaddress.ip_address(str(address)) in network
    except ValueError:
        return False


def _interpreter() -> Any:
    import dukpy  # type: ignore[import-untyped]

    class BareInterpreter(dukpy.JSInterpreter):  # type: ignore[misc]
        """dukpy's interpreter without its Node-like extras: no ``process.env`` (the
        environment), no ``require`` (files), no console."""

        def _init_process(self) -> None:
            pass

        def _init_console(self) -> None:
            pass

        def _init_require(self) -> None:
            pass

    interpreter = BareInterpreter()
    helpers = {
        "dnsResolve": _resolve,
        "myIpAddress": _my_address,
        "isResolvable": lambda host: _resolve(host) is not None,
        "_pacIsInNet": _in_net,
    }
    for name in _PYTHON_HELPERS:
        interpreter.export_function(name, helpers[name])
        interpreter.evaljs(
            f"{name} = function () {{ var a = Array.prototype.slice.call(arguments);"
            f" a.unshift('{name}'); return call_python.apply(null, a); }}; void 0;"
        )
    interpreter.evaljs(PAC_RUNTIME + "\nvoid 0;")
    return interpreter


def answer(interpreter: Any, request: dict[str, Any]) -> dict[str, Any]:
    """The answer to one request (see the module's docstring)."""
    import dukpy  # type: ignore[import-untyped]

    op = request.get("op")
    try:
        if op == "load":
            interpreter.evaljs(str(request["script"]) + "\nvoid 0;")
            kind = interpreter.evaljs(
                "typeof FindProxyForURL === 'function' ? 'plain' :"
                " (typeof FindProxyForURLEx === 'function' ? 'ex' : '')"
            )
            if not kind:
                return {"error": "no_function"}
            return {"ok": True, "entry": kind}
        if op == "find":
            entry = "FindProxyForURLEx" if request.get("entry") == "ex" else "FindProxyForURL"
            result = interpreter.evaljs(
                f"{entry}(dukpy['url'], dukpy['host'])",
                url=str(request["url"]),
                host=str(request["host"]),
            )
            if not isinstance(result, str):
                return {"error": "answer_type"}
            return {"answer": result[:MAX_ANSWER]}
    except dukpy.JSRuntimeError as error:
        return {"error": "syntax" if op == "load" else "runtime", "detail": str(error)[:300]}
    return {"error": "request"}


def main() -> int:
    """Serve requests until stdin closes."""
    try:
        interpreter = _interpreter()
    except Exception as error:
        sys.stdout.write(json.dumps({"error": "engine", "detail": str(error)[:300]}) + "\n")
        sys.stdout.flush()
        return 1
    sys.stdout.write(json.dumps({"ready": True}) + "\n")
    sys.stdout.flush()
    for line in sys.stdin:
        try:
            request = json.loads(line)
        except ValueError:
            reply: dict[str, Any] = {"error": "request"}
        else:
            reply = answer(interpreter, request) if isinstance(request, dict) else {}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
