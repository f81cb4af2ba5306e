"""A key that cannot be a credential fails in ``Cubicle()``, saying what is wrong with it,
instead of a UnicodeEncodeError from http.client at the first request."""

import os
import unittest
from unittest import mock

from cubicle import Cubicle, CubicleError, InvalidApiKeyError


class MalformedKeyTest(unittest.TestCase):
    def test_refused_naming_the_character(self) -> None:
        for key, shown in [
            ("cub_…", "'…' (U+2026) at character 5"),
            ("cub_abc def", "' ' (U+0020) at character 8"),
            ("cub_abc\n", "'\\n' (U+000A) at character 8"),
        ]:
            with self.assertRaises(InvalidApiKeyError) as raised:
                Cubicle(api_key=key)
            self.assertIn(shown, str(raised.exception))
            self.assertIsInstance(raised.exception, CubicleError)
            self.assertIsInstance(raised.exception, ValueError)

    def test_refused_from_the_environment(self) -> None:
        with mock.patch.dict(os.environ, {"CUBICLE_API_KEY": "cub_…"}):
            with self.assertRaisesRegex(InvalidApiKeyError, 'placeholder like "cub_…"'):
                Cubicle()

    def test_every_key_and_token_shape_passes(self) -> None:
        Cubicle(api_key="cub_0123456789abcdefghijklmnopqrstuv")
        Cubicle(api_key="eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.sig-_~")


if __name__ == "__main__":
    unittest.main()
