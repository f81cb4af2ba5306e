import unittest
from email.utils import formatdate

from cubicle.lib.retry import backoff_seconds, parse_retry_after, retry_delay, should_retry_status


class RetryPolicyTest(unittest.TestCase):
    def test_statuses_for_retry_safe_requests(self) -> None:
        for status in (408, 429, 500, 502, 503, 504):
            self.assertTrue(should_retry_status(status, None, True), status)
        for status in (400, 401, 403, 404, 409, 412, 402, 507):
            self.assertFalse(should_retry_status(status, None, True), status)
        self.assertFalse(should_retry_status(429, "quota_exceeded", True))
        self.assertTrue(should_retry_status(429, "rate_limited", True))

    def test_statuses_for_other_requests(self) -> None:
        self.assertTrue(should_retry_status(429, "rate_limited", False))
        self.assertTrue(should_retry_status(503, None, False))
        for status in (408, 500, 502, 504):
            self.assertFalse(should_retry_status(status, None, False), status)

    def test_retry_after_seconds_and_date(self) -> None:
        self.assertEqual(parse_retry_after("3"), 3.0)
        now = 1_800_000_000.0
        self.assertAlmostEqual(parse_retry_after(formatdate(now + 10, usegmt=True), now=now) or 0, 10.0, delta=1)
        self.assertEqual(parse_retry_after(formatdate(now - 10, usegmt=True), now=now), 0.0)
        self.assertIsNone(parse_retry_after("soon"))
        self.assertIsNone(parse_retry_after(None))

    def test_retry_after_is_honoured_up_to_a_minute(self) -> None:
        self.assertEqual(retry_delay(0, "1"), 1.0)
        self.assertEqual(retry_delay(3, "60"), 60.0)
        self.assertIsNone(retry_delay(0, "61"))

    def test_backoff_grows_to_a_cap_with_jitter(self) -> None:
        self.assertEqual(backoff_seconds(0, lambda: 1.0), 0.5)
        self.assertEqual(backoff_seconds(0, lambda: 0.0), 0.375)
        self.assertEqual(backoff_seconds(2, lambda: 1.0), 2.0)
        self.assertEqual(backoff_seconds(10, lambda: 1.0), 8.0)
        for attempt in range(8):
            delay = retry_delay(attempt)
            assert delay is not None
            base = min(8.0, 0.5 * 2**attempt)
            self.assertGreaterEqual(delay, 0.75 * base)
            self.assertLessEqual(delay, base)


if __name__ == "__main__":
    unittest.main()
