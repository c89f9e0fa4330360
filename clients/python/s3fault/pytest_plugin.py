"""pytest fixtures, loaded by pytest once the package is installed (entry point pytest11):

    def test_reader(s3fault_proxy):
        s3fault_proxy.add("strip-header x-amz-mp-parts-count")
        ...  # point the reader at s3fault_proxy.url

- `s3fault_origin`: an in-memory `s3fault origin` (anonymous: unsigned requests are fine) for
  the test, stopped after it.
- `s3fault_proxy`: `s3fault proxy` in front of `s3fault_origin`, with its admin API; stopped
  after the test, and the test fails if the proxy did not exit 0.

Both run the binary in $S3FAULT_BIN, or `s3fault` on the PATH; their logs are in pytest's
tmp_path."""

import pytest

from s3fault.processes import Origin, Proxy


@pytest.fixture
def s3fault_origin(tmp_path):
    origin = Origin(log_dir=tmp_path / "origin").start()
    yield origin
    origin.stop()


@pytest.fixture
def s3fault_proxy(s3fault_origin, tmp_path):
    proxy = Proxy(s3fault_origin.url, log_dir=tmp_path / "proxy").start()
    yield proxy
    status = proxy.stop()
    if status != 0:
        pytest.fail(f"s3fault proxy exited {status}:\n{proxy.log()[-3000:]}")
