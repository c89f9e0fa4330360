"""docs/render_support.write_or_check must fail on a document that was edited by hand or is
missing, and pass only on the one the renderer would write."""

import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from render_support import write_or_check  # noqa: E402


class WriteOrCheckTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)
        self.path = os.path.join(self.dir.name, "doc.md")

    def check(self, text: str) -> int:
        return write_or_check(text, self.path, True, "docs/x/render_x.py", "the x script")

    def test_a_missing_document_fails(self):
        self.assertEqual(self.check("# doc\n"), 1)
        self.assertFalse(os.path.exists(self.path), "--check must write nothing")

    def test_an_edited_document_fails_and_the_generated_one_passes(self):
        self.assertEqual(write_or_check("# doc\n", self.path, False, "r.py", "g"), 0)
        self.assertEqual(self.check("# doc\n"), 0)
        with open(self.path, "a", encoding="utf-8") as f:
            f.write("edited by hand\n")
        self.assertEqual(self.check("# doc\n"), 1)


if __name__ == "__main__":
    unittest.main(verbosity=2)
