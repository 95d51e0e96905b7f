import unittest

import app


class DashboardTest(unittest.TestCase):
    def test_users_in_turn(self):
        # one process serves every user, one after the other
        phone = app.dashboard({"compact": True, "theme": "dark"})
        self.assertEqual(phone, {"header": "### Dashboard ###", "columns": 1})
        desk = app.dashboard({})
        self.assertEqual(desk, {"header": "=== Dashboard ===", "columns": 4})
        wide = app.dashboard({"width": 120})
        self.assertEqual(wide["columns"], 6)


if __name__ == "__main__":
    unittest.main()
