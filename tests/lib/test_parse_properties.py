"""Property-based tests: for any text the parser never raises and accounts for every non-blank line."""

from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.lib.parse import BLANK_LINE, LINE_BREAK, decode_bytes, parse_text

WORDS = st.sampled_from(
    ["ICLR", "2026", "Papers", "we", "propose", "$x$", "\\textbf{a}", "**b**", "\u200b", ""]
)
LINES = st.lists(st.one_of(st.text(max_size=60), st.lists(WORDS, max_size=30).map(" ".join)), max_size=40)
SEPARATORS = st.sampled_from(["\n", "\r\n", "\r", "\n\n"])


def _nonblank_count(text: str) -> int:
    lines = LINE_BREAK.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    return sum(1 for line in lines if not BLANK_LINE.match(line))


def _accounted(parsed) -> int:
    spans = [(d["line_start"], d["line_end"]) for d in parsed.documents]
    spans += [(r["line_start"], r["line_end"]) for r in parsed.rejects if r["line_start"] > 0]
    covered = [line for start, end in spans for line in range(start, end + 1)]
    assert len(covered) == len(set(covered)), "a line is in two pieces"
    return len(covered) + (parsed.header is not None)


@settings(max_examples=300, deadline=None)
@given(lines=LINES, separator=SEPARATORS)
def test_parser_accounts_for_every_nonblank_line(lines, separator):
    text = separator.join(lines)
    parsed = parse_text("x.txt", text)
    assert _accounted(parsed) == _nonblank_count(text)


@settings(max_examples=300, deadline=None)
@given(text=st.text())
def test_parser_never_raises_on_arbitrary_text(text):
    parsed = parse_text("x.txt", text)
    assert _accounted(parsed) == _nonblank_count(text)


@settings(max_examples=200, deadline=None)
@given(data=st.binary(max_size=2000))
def test_decoding_arbitrary_bytes_never_raises(data):
    decoded = decode_bytes(data)
    assert decoded is None or isinstance(decoded[0], str)
