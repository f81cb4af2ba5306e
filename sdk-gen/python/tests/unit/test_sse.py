import unittest

from cubicle.lib.exec_stream import event_from_frame
from cubicle.lib.sse import SseEvent, SseParser

STREAM = (
    b": keepalive\n\n"
    b'id: 1\nevent: stdout\ndata: {"text":"h\xc3\xa9llo\\n"}\n\n'
    b"id: 2\nevent: note\ndata: first\ndata: second\n\n"
    b'id: 3\r\nevent: exit\r\ndata: {"status":"completed","exitCode":0,"durationMs":7}\r\n\r\n'
)


class SseParserTest(unittest.TestCase):
    def expected(self) -> list[SseEvent]:
        return [
            SseEvent("1", "stdout", '{"text":"h\u00e9llo\\n"}'),
            SseEvent("2", "note", "first\nsecond"),
            SseEvent("3", "exit", '{"status":"completed","exitCode":0,"durationMs":7}'),
        ]

    def test_whole_stream(self) -> None:
        self.assertEqual(SseParser().feed(STREAM), self.expected())

    def test_any_split_gives_the_same_events(self) -> None:
        for size in (1, 2, 3, 7, 64):
            parser = SseParser()
            events: list[SseEvent] = []
            for start in range(0, len(STREAM), size):
                events += parser.feed(STREAM[start : start + size])
            self.assertEqual(events, self.expected(), size)

    def test_incomplete_frame_waits(self) -> None:
        parser = SseParser()
        self.assertEqual(parser.feed(b"id: 1\nevent: stdout\ndata: x\n"), [])
        self.assertEqual(parser.feed(b"\n"), [SseEvent("1", "stdout", "x")])

    def test_exec_events(self) -> None:
        events = [event for frame in SseParser().feed(STREAM) if (event := event_from_frame(frame))]
        self.assertEqual(len(events), 2)
        self.assertEqual(events[0].text, "h\u00e9llo\n")
        self.assertEqual(events[0].data, "h\u00e9llo\n".encode())
        exit_event = events[1]
        self.assertEqual((exit_event.stream, exit_event.status, exit_event.exit_code), ("exit", "completed", 0))
        binary = event_from_frame(SseEvent("4", "stderr", '{"text":"\ufffd","base64":"/w=="}'))
        assert binary is not None
        self.assertEqual((binary.stream, binary.data), ("stderr", b"\xff"))


if __name__ == "__main__":
    unittest.main()
