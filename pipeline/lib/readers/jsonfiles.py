"""JSON Lines and JSON files, read one record at a time.

JSON Lines are read line by line (a malformed line is one reject naming its line). A JSON file is
streamed with ijson: an array of records, an object holding the array of records under a known key
(`results` of an OpenAlex /works page, `notes` of an OpenReview API answer, `message.items` of a
Crossref answer ...), a list of groups that carry their venue and year beside their records (as
OpenReview crawlers write them), or a single record (an OpenAlex or Crossref work).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import BinaryIO

import ijson
import orjson

from pipeline.lib.readers.records import Record, RecordSink
from pipeline.lib.readers.shapes import to_record

BATCH_RECORDS = 20_000
# A JSON Lines record longer than this is rejected unread: it cannot be one paper's record.
MAX_LINE_BYTES = 16 * 2**20
# Keys under which a JSON object holds its records, in the order they are looked for.
RECORD_ARRAYS = ("results", "notes", "items", "data", "papers", "records", "works", "submissions")
# Keys of a group that holds records of one venue, with the venue and year beside them.
GROUP_ARRAYS = ("submissions", "notes", "papers")

Batch = tuple[list[dict], list[dict]]


def _locate(record: Record, start: int, end: int, locator: str) -> Record:
    record.line_start, record.line_end, record.locator = start, end, locator
    return record


def _add(sink: RecordSink, obj, start: int, end: int, locator: str, mapping, defaults=None) -> None:
    if not isinstance(obj, Mapping):
        kind = type(obj).__name__.replace("dict", "object").replace("list", "array")
        sink.reject(start, end, f"{locator} is a JSON {kind}, not an object (a record)", _short(obj))
        return
    record, shape = to_record(obj, mapping, defaults)
    sink.add(_locate(record, start, end, locator), shape if shape != "table" else None)


def _short(obj) -> str:
    return orjson.dumps(obj, default=str).decode()[:10_000]


def _full(sink: RecordSink) -> bool:
    return len(sink.documents) + len(sink.rejects) >= BATCH_RECORDS


def read_jsonl(stream: BinaryIO, sink: RecordSink, mapping: Mapping | None = None) -> Iterator[Batch]:
    number = 0
    while True:
        line = stream.readline(MAX_LINE_BYTES + 1)
        if not line:
            break
        number += 1
        if len(line) > MAX_LINE_BYTES and not line.endswith(b"\n"):
            while line and not line.endswith(b"\n"):  # skip the rest of the over-long line
                line = stream.readline(MAX_LINE_BYTES)
            sink.reject(number, number, f"line {number} is longer than {MAX_LINE_BYTES:,} bytes", None)
            continue
        if not line.strip():
            continue
        try:
            obj = orjson.loads(line)
        except orjson.JSONDecodeError as error:
            raw = line.decode("utf-8", "replace").rstrip("\r\n")
            sink.reject(number, number, f"line {number} is not valid JSON ({error})", raw)
        else:
            _add(sink, obj, number, number, f"line {number}", mapping)
        if _full(sink):
            yield sink.take()
    yield sink.take()


def _first_events(stream: BinaryIO, limit: int = 2000) -> list[tuple[str, str, object]]:
    events = []
    try:
        for event in ijson.parse(stream):
            events.append(event)
            if len(events) >= limit:
                break
    except ijson.JSONError:
        pass
    return events


def json_layout(stream: BinaryIO) -> str:
    """Where a JSON file's records are: an ijson prefix ('item', 'results.item' ...), 'groups' for a
    list of groups, or '' for a file that is one record."""
    events = _first_events(stream)
    if not events:
        return ""
    if events[0][1] == "start_array":
        for prefix, event, value in events[1:]:
            if prefix == "item" and event == "map_key" and value in GROUP_ARRAYS:
                return "groups"
            if prefix == "item" and event == "end_map":
                break
        return "item"
    for prefix, event, value in events:
        if event == "map_key" and prefix == "" and value in RECORD_ARRAYS:
            return f"{value}.item"
        if event == "map_key" and prefix == "message" and value == "items":
            return "message.items.item"
    if any(prefix == "" and event == "map_key" and value == "message" for prefix, event, value in events):
        return "message"
    return ""


def read_json(
    open_start, open_records, sink: RecordSink, mapping: Mapping | None = None, name: str = "JSON"
) -> Iterator[Batch]:
    """`open_start()` gives the file's bytes to find the layout in its first events, then
    `open_records()` gives them afresh to read the records."""
    with open_start() as stream:
        layout = json_layout(stream)
    with open_records() as stream:
        if layout == "groups":
            for group_number, group in enumerate(ijson.items(stream, "item", use_float=True), 1):
                records = next((group.get(k) for k in GROUP_ARRAYS if isinstance(group.get(k), list)), [])
                defaults = {k: group.get(k) for k in ("venue", "year")}
                for number, obj in enumerate(records, 1):
                    locator = f"element {number} of group {group_number}"
                    _add(sink, obj, number, number, locator, mapping, defaults)
                    if _full(sink):
                        yield sink.take()
        elif layout in ("", "message"):
            obj = next(ijson.items(stream, layout, use_float=True), None)
            _add(sink, obj, 1, 1, f"the {name} object", mapping)
        else:
            where = layout.removesuffix(".item").removesuffix("item") or "the top-level array"
            for number, obj in enumerate(ijson.items(stream, layout, use_float=True), 1):
                _add(sink, obj, number, number, f"element {number} of {where}", mapping)
                if _full(sink):
                    yield sink.take()
    yield sink.take()
