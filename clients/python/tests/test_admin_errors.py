"""Every refusal of the admin API reaches the caller as an AdminError with the status, the code
and the message: a 401 for a missing token, and answers in no documented shape at all (a body
that is not JSON, or JSON of another shape, as something in front of the API may send)."""

import http.server
import threading

import pytest

from s3fault import AdminClient, AdminError, Proxy

TOKEN = "a-token-of-at-least-16-characters"


def test_a_missing_token_is_an_admin_error_with_code_and_message(s3fault_origin, tmp_path):
    proxy = Proxy(s3fault_origin.url, args=["--admin-token", TOKEN],
                  log_dir=tmp_path / "proxy").start()
    try:
        with pytest.raises(AdminError) as refused:
            proxy.admin.rules()  # the fixture's client has no token
        assert (refused.value.status, refused.value.code) == (401, "unauthorized")
        assert "Authorization: Bearer" in refused.value.message
        assert refused.value.details == []
        assert AdminClient(proxy.admin.url, token=TOKEN).rules() == []
    finally:
        assert proxy.stop() == 0


class _FixedAnswer(http.server.BaseHTTPRequestHandler):
    """Answers every request with the status and body of its server."""

    def do_GET(self):
        status, body = self.server.answer
        self.send_response(status)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture
def answering_server():
    """A server on 127.0.0.1 port 0 that answers with `server.answer` (status, body)."""
    server = http.server.HTTPServer(("127.0.0.1", 0), _FixedAnswer)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


@pytest.mark.parametrize("body", [
    b"<html><body>502 Bad Gateway</body></html>",
    b'{"error": "Unauthorized", "message": "a token is needed"}',
    b'["not", "an", "object"]',
])
def test_an_error_body_of_another_shape_keeps_its_text(answering_server, body):
    answering_server.answer = (502, body)
    client = AdminClient(f"http://127.0.0.1:{answering_server.server_port}")
    with pytest.raises(AdminError) as refused:
        client.rules()
    assert (refused.value.status, refused.value.code) == (502, "http_error")
    assert refused.value.message == body.decode()


def test_an_empty_error_body_is_named_by_the_reason(answering_server):
    answering_server.answer = (503, b"")
    client = AdminClient(f"http://127.0.0.1:{answering_server.server_port}")
    with pytest.raises(AdminError) as refused:
        client.health()
    assert (refused.value.status, refused.value.code) == (503, "http_error")
    assert refused.value.message == "Service Unavailable"
