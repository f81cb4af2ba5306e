import json
import unittest

from cubicle import errors
from cubicle.errors import error_from_response


def problem(status: int, code: str, request_id: str = "req_1") -> bytes:
    return json.dumps(
        {"type": f"urn:cubicle:error:{code}", "title": "T", "status": status, "detail": "D", "code": code, "requestId": request_id}
    ).encode()


JSON = {"content-type": "application/problem+json", "X-Request-Id": "req_header"}


class ErrorMappingTest(unittest.TestCase):
    def test_code_picks_its_class(self) -> None:
        error = error_from_response(429, JSON, problem(429, "quota_exceeded"))
        self.assertIsInstance(error, errors.QuotaExceededError)
        self.assertIsInstance(error, errors.TooManyRequestsError)
        self.assertIsInstance(error, errors.APIError)
        self.assertIsInstance(error, errors.CubicleError)
        self.assertEqual((error.status, error.code, error.request_id), (429, "quota_exceeded", "req_1"))
        self.assertEqual((error.title, error.detail), ("T", "D"))

    def test_status_class_serves_its_own_code(self) -> None:
        error = error_from_response(404, JSON, problem(404, "not_found"))
        self.assertIs(type(error), errors.NotFoundError)
        self.assertIs(errors.CODE_ERRORS["not_found"], errors.NotFoundError)

    def test_status_without_code(self) -> None:
        error = error_from_response(409, {"content-type": "text/html", "x-request-id": "req_h"}, b"<html>")
        self.assertIs(type(error), errors.ConflictError)
        self.assertEqual(error.request_id, "req_h")
        self.assertIsNone(error.code)

    def test_unknown_statuses(self) -> None:
        self.assertIs(type(error_from_response(599, {}, b"")), errors.InternalServerError)
        self.assertIs(type(error_from_response(418, {}, b"")), errors.APIError)

    def test_field_errors(self) -> None:
        body = json.loads(problem(400, "validation_failed"))
        body["errors"] = [{"in": "body", "pointer": "/name", "detail": "too long"}]
        error = error_from_response(400, JSON, json.dumps(body).encode())
        self.assertIsInstance(error, errors.ValidationFailedError)
        self.assertIsInstance(error, errors.BadRequestError)
        self.assertEqual(error.errors[0]["pointer"], "/name")
        self.assertIn("req_1", str(error))

    def test_tables_cover_every_status(self) -> None:
        for status, cls in errors.STATUS_ERRORS.items():
            self.assertEqual(cls.status, status)
        for code, cls in errors.CODE_ERRORS.items():
            self.assertTrue(cls.code == code or cls.code is None, code)


if __name__ == "__main__":
    unittest.main()
