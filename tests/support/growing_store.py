"""A stand-in store whose threads and memory grow as it serves, for timeline tests: every
request leaves one more thread behind, holding 1 MiB it has written (so the pages are resident),
until the process is ended. Answers every request 200 with a short body. Prints
`listening on PORT` (127.0.0.1, a free port) once it accepts connections."""

import http.server
import sys
import threading

held = []
stop = threading.Event()


def hold_a_mebibyte() -> None:
    held.append(bytearray(b"x" * (1024 * 1024)))
    stop.wait()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def answer(self) -> None:
        threading.Thread(target=hold_a_mebibyte, daemon=True).start()
        body = b"ok\n"
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    do_GET = do_PUT = do_HEAD = do_POST = do_DELETE = answer

    def log_message(self, *args) -> None:
        pass


def main() -> None:
    # A thread per connection (the proxy may open one per worker); those stay few, while the
    # held threads grow with every request.
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(f"listening on {server.server_address[1]}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    sys.exit(0)


if __name__ == "__main__":
    main()
