"""What the end-to-end tests need from their environment; missing settings fail, never skip."""

from __future__ import annotations

import http.client
import json
import os
import random
import urllib.parse
import urllib.request
from typing import Any

from cubicle import Cubicle


def required(name: str) -> str:
    value = os.environ.get(name)
    if not value:
        raise RuntimeError(f"{name} is not set: run these tests through e2e/sdk.python.test.ts")
    return value


def signed_up_client(base_url: str, label: str, **options: Any) -> tuple[Cubicle, str]:
    """Signs up once, connecting from a loopback address of its own: signups are limited per
    client address, which under `npm start` is the socket peer, so each file uses its own."""
    source = f"127.{random.randint(0, 255)}.{random.randint(0, 255)}.{random.randint(1, 254)}"
    url = urllib.parse.urlsplit(base_url)
    connection = http.client.HTTPConnection(url.hostname or "127.0.0.1", url.port, timeout=30, source_address=(source, 0))
    try:
        body = json.dumps({"email": f"{label}-{random.randint(0, 10**9)}@example.com"})
        connection.request("POST", "/v1/signup", body=body, headers={"content-type": "application/json"})
        response = connection.getresponse()
        text = response.read().decode()
    finally:
        connection.close()
    if response.status != 201:
        raise RuntimeError(f"signup failed: {response.status} {text}")
    key: str = json.loads(text)["apiKey"]["key"]
    return Cubicle(api_key=key, base_url=base_url, **options), key


class ProxyControl:
    """The fault proxy's HTTP control API (sdk-gen/testing/faultProxy.ts)."""

    def __init__(self, url: str) -> None:
        self.url = url.rstrip("/")

    def _call(self, method: str, path: str, body: Any = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            f"{self.url}/__proxy/{path}", data=data, method=method, headers={"content-type": "application/json"}
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read() or b"null")

    def fault(self, **fault: Any) -> None:
        self._call("POST", "faults", fault)

    def reset(self) -> None:
        self._call("DELETE", "faults")
        self._call("DELETE", "log")

    def log(self) -> list[dict[str, Any]]:
        return self._call("GET", "log")
