"""The fixtures as a user's tests use them: faults added through the proxy's admin API change
what a plain HTTP client gets, counters count it, mistakes are refused with their details, and
the processes are gone after the test."""

import socket
import time
import urllib.error
import urllib.request

import pytest

from s3fault import AdminError


def put(url: str, body: bytes = b"") -> int:
    request = urllib.request.Request(url, data=body, method="PUT")
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.status


def get(url: str):
    """(status, headers, body), 4xx and 5xx included."""
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


@pytest.fixture
def object_url(s3fault_origin):
    """An object of 11 bytes in a new bucket, put straight into the origin; the path is the
    same through the proxy."""
    put(f"{s3fault_origin.url}/fixture-bucket")
    put(f"{s3fault_origin.url}/fixture-bucket/hello.txt", b"hello world")
    return "/fixture-bucket/hello.txt"


def test_a_fault_added_through_the_fixture_reaches_the_client(s3fault_proxy, object_url):
    status, _, body = get(s3fault_proxy.url + object_url)
    assert (status, body) == (200, b"hello world")

    s3fault_proxy.add("error SlowDown op=GetObject first=1 name=slow")
    status, headers, body = get(s3fault_proxy.url + object_url)
    assert status == 503
    assert b"<Code>SlowDown</Code>" in body
    assert get(s3fault_proxy.url + object_url)[0] == 200  # first=1: once only
    assert s3fault_proxy.counters("slow")["injected"] == 1


def test_a_header_is_stripped_only_through_the_proxy(s3fault_origin, s3fault_proxy, object_url):
    s3fault_proxy.add("strip-header ETag op=GetObject name=no-etag")
    assert get(s3fault_origin.url + object_url)[1]["ETag"]
    status, headers, body = get(s3fault_proxy.url + object_url)
    assert (status, headers["ETag"], body) == (200, None, b"hello world")
    assert requests_counted(s3fault_proxy, "GetObject", 1) == 1


def requests_counted(proxy, operation: str, expected: int, timeout: float = 10) -> int:
    """The proxy counts an exchange once its last write has completed, which can be just after
    the client has read the last byte; so look again until the count is there or time is up."""
    deadline = time.monotonic() + timeout
    while True:
        by_operation = {o["operation"]: o["requests"] for o in proxy.stats()["operations"]}
        counted = by_operation.get(operation, 0)
        if counted >= expected or time.monotonic() > deadline:
            return counted
        time.sleep(0.02)


def test_presets_lists_and_yaml_documents(s3fault_proxy):
    s3fault_proxy.preset("rustfs-parts-count")
    s3fault_proxy.add(["delay 10ms name=d1", "reset op=PutObject name=cut"])
    s3fault_proxy.add("rules:\n  - name: from-yaml\n    actions: [{type: error, code: SlowDown}]\n")
    assert [r["name"] for r in s3fault_proxy.admin.rules()] == [
        "rustfs-parts-count", "d1", "cut", "from-yaml"]
    s3fault_proxy.admin.disable("from-yaml")
    s3fault_proxy.delete("cut")
    assert [r["name"] for r in s3fault_proxy.admin.rules()] == [
        "rustfs-parts-count", "d1", "from-yaml"]
    s3fault_proxy.delete()
    assert s3fault_proxy.admin.rules() == []


def test_a_rule_with_mistakes_is_refused_with_every_one_named(s3fault_proxy):
    with pytest.raises(AdminError) as refused:
        s3fault_proxy.add(["truncate abc", "error Nope"])
    assert refused.value.status == 400
    assert refused.value.code == "invalid_rules"
    assert len(refused.value.details) == 2
    assert "truncate.at" in str(refused.value)
    with pytest.raises(AdminError) as missing:
        s3fault_proxy.counters("nope")
    assert (missing.value.status, missing.value.code) == (404, "no_such_rule")
    assert s3fault_proxy.admin.rules() == []


def test_the_processes_stop_with_status_zero(s3fault_origin):
    from s3fault import Proxy

    proxy = Proxy(s3fault_origin.url).start()
    try:
        port = int(proxy.url.rsplit(":", 1)[1])
        assert proxy.admin.health()
    finally:
        assert proxy.stop() == 0
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", port), timeout=5)
