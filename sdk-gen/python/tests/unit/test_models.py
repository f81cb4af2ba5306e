import unittest

from cubicle._generated.models import (
    BatchResult,
    BatchResultResultDelete,
    BatchResultResultWrite,
    ExecRecord,
    ExecRecordEgressObject,
    SignupResponse,
    UsageReport,
)

SIGNUP = {
    "tenant": {"id": "ten_1", "email": "a@example.com", "name": None, "plan": "free", "createdAt": "2026-01-01T00:00:00Z"},
    "apiKey": {
        "id": "key_1",
        "name": "default",
        "prefix": "cub_ab",
        "scopes": ["exec"],
        "workspaceIds": None,
        "expiresAt": None,
        "createdAt": "2026-01-01T00:00:00Z",
        "key": "cub_secret",
    },
}


class ModelTest(unittest.TestCase):
    def test_nested_round_trip(self) -> None:
        signed = SignupResponse.from_dict(SIGNUP)
        self.assertEqual(signed.api_key.key, "cub_secret")
        self.assertEqual(signed.tenant.created_at, "2026-01-01T00:00:00Z")
        self.assertIsNone(signed.tenant.name)
        self.assertEqual(signed.to_dict(), SIGNUP)

    def test_unknown_keys_are_ignored(self) -> None:
        data = {**SIGNUP, "future": 1, "tenant": {**SIGNUP["tenant"], "newField": {"x": 1}}}
        signed = SignupResponse.from_dict(data)
        self.assertEqual(signed.to_dict(), SIGNUP)

    def test_arrays_of_refs_and_inline_objects(self) -> None:
        report = {
            "from": "a",
            "to": "b",
            "granularity": "day",
            "groupBy": "meter",
            "series": [{"meter": "api_requests", "total": 3, "points": [{"start": "a", "quantity": 3}]}],
        }
        parsed = UsageReport.from_dict(report)
        self.assertEqual(parsed.from_, "a")
        self.assertEqual(parsed.series[0].points[0].quantity, 3)
        self.assertIsNone(parsed.series[0].workspace_id)
        self.assertEqual(parsed.to_dict(), report)

    def test_unions(self) -> None:
        result = BatchResult.from_dict({"results": [{"op": "delete", "removed": 2}, {"op": "write", "stat": STAT}]})
        self.assertIsInstance(result.results[0], BatchResultResultDelete)
        self.assertIsInstance(result.results[1], BatchResultResultWrite)
        record = ExecRecord.from_dict({**RECORD, "egress": {"allow": ["example.com"]}})
        self.assertEqual(record.egress, ExecRecordEgressObject(allow=["example.com"]))
        self.assertIs(ExecRecord.from_dict(RECORD).egress, False)
        self.assertEqual(ExecRecord.from_dict(RECORD).to_dict(), RECORD)

    def test_discriminator_defaults(self) -> None:
        self.assertEqual(BatchResultResultDelete(removed=1).to_dict(), {"op": "delete", "removed": 1})


STAT = {
    "path": "/a",
    "name": "a",
    "type": "file",
    "size": 1,
    "mode": 420,
    "mtime": "t",
    "mtimeNs": "1",
    "ctime": "t",
    "uid": 1000,
    "gid": 1000,
    "ino": 2,
    "nlink": 1,
}
RECORD = {
    "id": "ex_1",
    "executor": "shell",
    "summary": "echo",
    "status": "completed",
    "exitCode": 0,
    "error": None,
    "reason": None,
    "mount": None,
    "conflicts": [],
    "startedAt": "t",
    "endedAt": "t",
    "durationMs": 5,
    "outputBytes": 3,
    "truncated": False,
    "nextSeq": 3,
    "snapshotId": None,
    "pathPrefix": None,
    "egress": False,
}

if __name__ == "__main__":
    unittest.main()
