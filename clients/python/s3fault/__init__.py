"""s3fault from Python, standard library only: the admin API of a running proxy
(`AdminClient`), and `s3fault origin` / `s3fault proxy` started and stopped from a test
(`Origin`, `Proxy`). The pytest fixtures are in `s3fault.pytest_plugin`, loaded by pytest once
the package is installed."""

from s3fault.admin import AdminClient, AdminError
from s3fault.processes import Origin, Proxy, S3faultProcess, binary

__all__ = ["AdminClient", "AdminError", "Origin", "Proxy", "S3faultProcess", "binary"]
