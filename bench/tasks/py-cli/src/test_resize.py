import unittest

from resize import main


class ResizeCliTest(unittest.TestCase):
    def test_default_scale(self):
        self.assertEqual(main(["640", "480"]), "640x480")

    def test_scale_flag(self):
        self.assertEqual(main(["640", "480", "--scale", "0.5"]), "320x240")

    def test_keep_aspect(self):
        self.assertEqual(main(["100", "50", "--scale", "1.5", "--keep-aspect"]), "150x75")


if __name__ == "__main__":
    unittest.main()
