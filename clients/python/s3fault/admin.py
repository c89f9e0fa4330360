"""The admin API of `s3fault proxy --admin HOST:PORT` (docs/faults.md, "The admin API")."""

import json
import urllib.error
import urllib.request
from typing import Any, Optional, Union

Rules = Union[str, dict, list]


class AdminError(Exception):
    """An answer other than 2xx: `status`, the API's error `code` and `message`, and `details`
    (every validation mistake, when the rules were refused)."""

    def __init__(self, status: int, code: str, message: str, details: list):
        self.status, self.code, self.message, self.details = status, code, message, details
        lines = [f"{status} {code}: {message}"] + [f"  {d}" for d in details]
        super().__init__("\n".join(lines))


class AdminClient:
    """One proxy's admin API. `token` is the proxy's --admin-token, when it has one."""

    def __init__(self, url: str, token: Optional[str] = None, timeout: float = 30):
        self.url = url.rstrip("/")
        self.token = token
        self.timeout = timeout

    # Rules
    def rules(self) -> list[dict]:
        """Every rule: its name, definition and counters."""
        return self._call("GET", "/rules")["rules"]

    def rule(self, name: str) -> dict:
        return self._call("GET", f"/rules/{name}")

    def counters(self, name: str) -> dict:
        """matched, injected, skipped (and in_flight, peak_in_flight, refusals when
        load-shaped)."""
        return self.rule(name)["counters"]

    def add(self, rules: Rules) -> list[dict]:
        """Adds rules: a one-line rule ("error SlowDown op=GetObject"), a rule object, a list
        of either, or a YAML rules document (a str starting with "rules:" or "seed:")."""
        return self._change("POST", rules)["rules"]

    def replace(self, rules: Rules) -> list[dict]:
        """Replaces every rule with these (same forms as add)."""
        return self._change("PUT", rules)["rules"]

    def preset(self, *names: str) -> list[dict]:
        """Adds the rules of presets, e.g. preset("rustfs-parts-count", "slowdown-storm:p=0.2")."""
        return self._call("POST", "/rules", {"presets": list(names)})["rules"]

    def delete(self, name: Optional[str] = None) -> None:
        """Removes one rule, or every rule without a name."""
        self._call("DELETE", f"/rules/{name}" if name else "/rules")

    def enable(self, name: str) -> None:
        self._call("POST", f"/rules/{name}/enable")

    def disable(self, name: str) -> None:
        self._call("POST", f"/rules/{name}/disable")

    # Traffic
    def stats(self) -> dict:
        """GET /stats: per operation and status class, requests, bytes, latency, TTFB and the
        store's TTFB quantiles, retries; faults per rule."""
        return self._call("GET", "/stats")

    def metrics(self) -> str:
        """GET /metrics: the Prometheus text."""
        return self._request("GET", "/metrics", None)[1].decode()

    def health(self) -> bool:
        return self._call("GET", "/health").get("status") == "ok"

    def _change(self, method: str, rules: Rules) -> dict:
        if isinstance(rules, str):
            text = rules.lstrip()
            if text.startswith(("rules:", "seed:", "-")):
                return self._call(method, "/rules", raw=rules.encode())
            return self._call(method, "/rules", {"fault": rules})
        if isinstance(rules, list) and rules and all(isinstance(r, str) for r in rules):
            return self._call(method, "/rules", {"faults": rules})
        return self._call(method, "/rules", rules)

    def _call(self, method: str, path: str, body: Any = None, raw: Optional[bytes] = None):
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        status, payload = self._request(method, path, data)
        return json.loads(payload) if payload else {}

    def _request(self, method: str, path: str, data: Optional[bytes]) -> tuple[int, bytes]:
        headers = {"Content-Type": "application/json"} if data is not None else {}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        request = urllib.request.Request(self.url + path, data=data, method=method,
                                         headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                return response.status, response.read()
        except urllib.error.HTTPError as error:
            raise admin_error(error.code, error.reason, error.read()) from None


def admin_error(status: int, reason: str, payload: bytes) -> AdminError:
    """The AdminError for an answer other than 2xx. A body in the documented shape,
    {"error": {"code", "message", "details"}}, gives its fields; any other body (not JSON, or
    JSON of another shape, from something in front of the API) is the message as it came, so
    nothing the server said is lost."""
    try:
        problem = json.loads(payload).get("error")
    except (ValueError, AttributeError):
        problem = None
    if not isinstance(problem, dict):
        text = payload.decode("utf-8", "replace").strip()
        return AdminError(status, "http_error", text or str(reason), [])
    details = problem.get("details")
    return AdminError(status, str(problem.get("code", "")), str(problem.get("message", "")),
                      details if isinstance(details, list) else [])
