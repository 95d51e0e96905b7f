import unittest

from fetchpolicy import allowed
from urlparts import split


class SplitTest(unittest.TestCase):
    def test_parts(self):
        self.assertEqual(split("HTTPS://user@example.org:8443/a/b?q=1#top"), ("https", "user@example.org:8443", "/a/b", "q=1", "top"))

    def test_relative(self):
        self.assertEqual(split("/docs/index.html?x"), ("", "", "/docs/index.html", "x", ""))


class PolicyTest(unittest.TestCase):
    def test_ordinary_links(self):
        self.assertTrue(allowed("https://example.org/page"))
        self.assertTrue(allowed("/relative/link"))

    def test_blocked(self):
        self.assertFalse(allowed("file:///etc/passwd"))
        self.assertFalse(allowed("http://localhost:8080/admin"))

    def test_leading_blanks_and_controls(self):
        # browsers and the WHATWG URL standard strip leading C0 controls and spaces before parsing
        for url in (" file:///etc/passwd", "\t\nhttp://localhost/admin", "\x00javascript:alert(1)", "\x1f http://metadata.internal/"):
            with self.subTest(url=url):
                self.assertFalse(allowed(url))


if __name__ == "__main__":
    unittest.main()
