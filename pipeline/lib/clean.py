"""Abstract text in its two published forms.

`normalise_whitespace` gives `papers.abstract` (markup kept, whitespace collapsed);
`clean_abstract` gives `papers.abstract_clean`: plain Unicode with LaTeX rendered, markdown
emphasis removed and escapes resolved, for readers and the search index.

Most abstracts carry no markup, and a few C-level string checks send them down a fast path
that costs less than whitespace normalisation. The rest go through a small LaTeX renderer
written for abstracts: pylatexenc's own parser renders about 200 LaTeX-bearing abstracts a
second, far below the pipeline's throughput target, so only its symbol and font tables are
reused here, as data.
"""

from __future__ import annotations

import functools
import html
import re
import unicodedata
from collections.abc import Callable, Iterable
from string import ascii_letters

import ftfy
from pylatexenc import latex2text, latexwalker


def normalise_whitespace(text: str) -> str:
    """NFC, every whitespace run (newlines, tabs, NBSP, ...) collapsed to one space, stripped."""
    text = unicodedata.normalize("NFC", text)
    if _is_one_clean_line(text):
        return text
    return " ".join(text.split())


def clean_abstract(text: str) -> str:
    """Plain readable Unicode text of an abstract; never raises (non-text such as None gives "")."""
    if not isinstance(text, str):
        return ""
    text = _repair_characters(text)
    if not _has_markup(text):
        return text
    try:
        return _clean_markup(text)
    except Exception:
        # One odd abstract (thousands of nested braces, say) must not stop a batch of a million:
        # fall back to a crude strip that cannot fail.
        return _strip_markup_crudely(text)


def clean_many(texts: Iterable[str]) -> list[str]:
    """`clean_abstract` over a batch."""
    return [clean_abstract(text) for text in texts]


# --- character-level repairs -------------------------------------------------------------------

# UTF-8 read as Latin-1/cp1252 leaves a lead byte (Â..ô) before a continuation byte or one of the
# cp1252 punctuation characters; ftfy only runs when that shape appears.
_MOJIBAKE_HINT = re.compile(
    "[\u00c2-\u00f4][\u0080-\u00bf\u0152\u0153\u0160\u0161\u0178\u017d\u017e\u0192\u02c6\u02dc"
    "\u2013\u2014\u2018-\u201e\u2020-\u2022\u2026\u2030\u2039\u203a\u20ac\u2122]"
)
_HTML_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
# Control characters other than whitespace, zero-width and bidi format characters, soft hyphen,
# BOM and lone surrogates (which cannot be written as UTF-8).
_INVISIBLE = re.compile(
    "[\x00-\x08\x0e-\x1b\x7f-\x84\x86-\x9f\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u2064"
    "\u2066-\u2069\ufeff\ud800-\udfff]"
)
_PRINTABLE_ASCII = bytes(range(0x20, 0x7F))


def _repair_characters(text: str) -> str:
    """Entities decoded, mojibake fixed, NFC, invisible characters removed, whitespace collapsed.

    Written for speed: most abstracts are one clean ASCII line, and C-level checks (`isascii`,
    `bytes.translate`, `in`) recognise that without a regex scan.
    """
    if "&" in text:
        text = _HTML_ENTITY.sub(_decode_entity, text)
    if not text.isascii():
        if _MOJIBAKE_HINT.search(text):
            text = ftfy.fix_encoding(text)
        text = unicodedata.normalize("NFC", text)
    if _is_one_clean_line(text):
        return text
    return " ".join(_INVISIBLE.sub("", text).split())


def _is_one_clean_line(text: str) -> bool:
    """No control, format or non-ASCII space character, no doubled, leading or trailing space."""
    if text.isascii():
        printable = not text.encode("ascii").translate(None, _PRINTABLE_ASCII)
    else:
        printable = text.isprintable()
    return printable and "  " not in text and text[:1] != " " and text[-1:] != " "


def _has_markup(text: str) -> bool:
    return (
        "\\" in text
        or "$" in text
        or "*" in text
        or "_" in text
        or "`" in text
        or "~" in text
        or "--" in text
    )


def _decode_entity(match: re.Match[str]) -> str:
    return html.unescape(match.group())


# Placeholders: \x01<n>\x02 stands for protected text (URLs, rendered math) while the rest is
# rewritten; \x00 marks a removed element (a citation) so the space it leaves can be tidied.
# The input can hold neither, _INVISIBLE removed them.
_REMOVED = "\x00"
_PLACEHOLDER = re.compile("\x01([0-9]+)\x02")


def _clean_markup(text: str) -> str:
    protected: list[str] = []

    def protect(value: str) -> str:
        protected.append(value)
        return f"\x01{len(protected) - 1}\x02"

    if "\\" in text:
        if "\\\\" in text:
            text = _OVERESCAPED_BACKSLASH.sub(r"\\", text)
        if "\\href" in text:
            text = _HREF.sub(lambda m: _render_href(m, protect), text)
        if "\\url" in text:
            text = _URL_MACRO.sub(lambda m: protect(_unescape_url(m.group(1))), text)
    if "://" in text or "www." in text:
        text = _BARE_URL.sub(lambda m: _protect_bare_url(m, protect), text)
    if "$" in text or "\\(" in text or "\\[" in text or "\\begin" in text:
        text = _protect_math(text, protect)
    text = _rewrite_plain_markup(text)
    if "\\" in text:
        text = _render(_parse(text), math=False)
    while "\x01" in text:
        unprotected = _PLACEHOLDER.sub(lambda m: protected[int(m.group(1))], text)
        if unprotected == text:
            break
        text = unprotected
    if _REMOVED in text:
        text = _EMPTY_BRACKETS_OF_REMOVED.sub(_REMOVED, text)
        text = _SPACE_BEFORE_REMOVED_PUNCTUATION.sub("", text).replace(_REMOVED, "")
    text = text.replace("\x01", "").replace("\x02", "")
    return " ".join(unicodedata.normalize("NFC", text).split())


def _strip_markup_crudely(text: str) -> str:
    text = _CRUDE_MACRO.sub("", text.replace("\\%", "%").replace("\\_", "_"))
    text = _CRUDE_MARKUP_CHARS.sub("", text)
    return " ".join(text.split())


_CRUDE_MACRO = re.compile(r"\\[A-Za-z]+")
_CRUDE_MARKUP_CHARS = re.compile(r"[\\{}$\x00-\x1f]|\*\*")

_EMPTY_BRACKETS_OF_REMOVED = re.compile(r" ?[(\[][\s\x00,;]*\x00[\s\x00,;]*[)\]]")
_SPACE_BEFORE_REMOVED_PUNCTUATION = re.compile(r"\s*\x00[\s\x00]*(?=[,.;:!?)\]]|$)")

# --- URLs ----------------------------------------------------------------------------------------

# `\\` directly before a letter or escapable character is an over-escaped `\` (JSON or markdown
# export), not a LaTeX line break.
_OVERESCAPED_BACKSLASH = re.compile(r"\\\\(?=[A-Za-z{}|%$,!_&#])")
_URL_MACRO = re.compile(r"\\url\s*\{([^{}]*)\}")
_HREF = re.compile(r"\\href\s*\{([^{}]*)\}\s*\{((?:[^{}]|\{[^{}]*\})*)\}")
_BARE_URL = re.compile(r"(?:https?://|www\.)(?:[^\s<>\"{}\\$*|^`\x01\x02]|\\[_%&#~])+")
_URL_ESCAPE = re.compile(r"\\([_%&#~$])")
_URL_TRAILING_PUNCTUATION = re.compile(r"[.,;:!?'\"_]+$")
_URL_SCHEME = re.compile(r"^(?:https?://)?(?:www\.)?")


def _unescape_url(url: str) -> str:
    return _URL_ESCAPE.sub(r"\1", url.strip())


def _protect_bare_url(match: re.Match[str], protect: Callable[[str], str]) -> str:
    url = match.group()
    trailing = _URL_TRAILING_PUNCTUATION.search(url)
    tail = trailing.group() if trailing else ""
    url = url[: len(url) - len(tail)]
    if url.endswith(")") and "(" not in url:
        url, tail = url[:-1], ")" + tail
    return protect(_unescape_url(url)) + tail


def _render_href(match: re.Match[str], protect: Callable[[str], str]) -> str:
    """`\\href{url}{text}`: the text, followed by the URL in parentheses unless the text is the URL."""
    url = _unescape_url(match.group(1))
    label = match.group(2).strip()
    trailing = _URL_TRAILING_PUNCTUATION.search(label)
    tail = trailing.group() if trailing else ""
    bare_label = _URL_SCHEME.sub("", _unescape_url(label[: len(label) - len(tail)])).rstrip("/")
    if not bare_label or bare_label == _URL_SCHEME.sub("", url).rstrip("/"):
        return protect(url) + tail
    return f"{label} ({protect(url)})"


# --- math segments -------------------------------------------------------------------------------

_MATH_DELIMITER = re.compile(r"\\.|\$\$|\$", re.S)
_MATH_CLOSER = {"\\(": "\\)", "\\[": "\\]"}
_MATH_ENVIRONMENT = re.compile(
    r"\\begin\{(equation|align|gather|multline|eqnarray|displaymath|math)(\*?)\}(.{0,3000}?)\\end\{\1\2\}",
    re.S,
)
# An amount of money followed by words ("$5 and $10", "under $20 USD, our attack ... $d$"),
# the usual way a `$` pair fails to be math.
_CURRENCY_LIKE = re.compile(r"\d[^\\^_{}=]*\s[A-Za-z]{2}[^\\^_{}=]*")


def _protect_math(text: str, protect: Callable[[str], str]) -> str:
    """Render every math segment and protect the result; unpaired delimiters stay literal."""
    if "\\begin{" in text:
        text = _MATH_ENVIRONMENT.sub(lambda m: protect(_render_math(m.group(3))), text)
    delimiters = _math_delimiters(text)
    pieces = []
    position = 0
    index = 0
    while index < len(delimiters):
        found = _find_math(text, delimiters, index)
        if found is None:
            index += 1
            continue
        opener_start = delimiters[index][0]
        content_start, content_end, closer_end, index = found
        source = text[content_start:content_end]
        rendered = _render_math(source)
        # Keep a space the source had where the math would otherwise glue onto a word.
        if rendered and source[:1].isspace() and text[opener_start - 1 : opener_start].isalnum():
            rendered = " " + rendered
        if rendered and source[-1:].isspace() and text[closer_end : closer_end + 1] in _GLUING:
            rendered += " "
        pieces.append(text[position:opener_start])
        pieces.append(protect(rendered) if rendered else _REMOVED)
        position = closer_end
    pieces.append(text[position:])
    return "".join(pieces)


_GLUING = frozenset(ascii_letters + "0123456789\\")


def _math_delimiters(text: str) -> list[tuple[int, int, str]]:
    """(start, end, kind) of every unescaped `$`, and of `\\(`, `\\)`, `\\[`, `\\]`.

    `$$` becomes two `$`, kind "$$" for the first: it opens display math only when another `$$`
    follows, because abstracts mostly hold adjacent inline math such as `$\\times$$\\sim$`.
    """
    delimiters = []
    for match in _MATH_DELIMITER.finditer(text):
        token = match.group()
        start = match.start()
        if token == "$$":
            delimiters += ((start, start + 1, "$$"), (start + 1, start + 2, "$"))
        elif token == "$" or token in _MATH_CLOSER or token in ("\\)", "\\]"):
            delimiters.append((start, match.end(), token))
    return delimiters


def _find_math(
    text: str, delimiters: list[tuple[int, int, str]], index: int
) -> tuple[int, int, int, int] | None:
    """The math opened by delimiter `index`: (content start, content end, closer end, next index)."""
    _, opener_end, kind = delimiters[index]
    if kind in _MATH_CLOSER:
        closer = _next_delimiter(delimiters, index + 1, _MATH_CLOSER[kind])
        return (
            None if closer is None else (opener_end, delimiters[closer][0], delimiters[closer][1], closer + 1)
        )
    if kind == "$$":
        closer = _next_delimiter(delimiters, index + 2, "$$")
        if closer is not None:
            # Both `$$` are two delimiters each: skip the second `$` of opener and closer.
            return opener_end + 1, delimiters[closer][0], delimiters[closer][1] + 1, closer + 2
    elif kind != "$":
        return None
    if index + 1 >= len(delimiters):
        return None
    closer_start, closer_end, closer_kind = delimiters[index + 1]
    content = text[opener_end:closer_start].strip()
    if closer_kind not in ("$", "$$") or not content or _CURRENCY_LIKE.fullmatch(content):
        return None
    return opener_end, closer_start, closer_end, index + 2


def _next_delimiter(delimiters: list[tuple[int, int, str]], first: int, kind: str) -> int | None:
    # Bounded look-ahead: a closer is never far, and unclosed `\(` must not make a text quadratic.
    for candidate in range(first, min(len(delimiters), first + 64)):
        if delimiters[candidate][2] == kind:
            return candidate
    return None


_MATH_ONLY_SPACES = re.compile(r"(?<!\\)[~&]")
_SPACE_INSIDE_BRACKETS = re.compile(r"(?<=[(\[⟨]) +| +(?=[)\]⟩])")


# Abstracts repeat the same short math ($n$, $\epsilon$) over and over.
@functools.lru_cache(maxsize=65536)
def _render_math(source: str) -> str:
    if "~" in source or "&" in source:
        source = _MATH_ONLY_SPACES.sub(" ", source)
    rendered = " ".join(_render(_parse(source), math=True).split())
    if " " in rendered:
        rendered = _SPACE_INSIDE_BRACKETS.sub("", rendered)
    return rendered


# --- plain-text markup: markdown emphasis, dashes, quotes, ties ----------------------------------

# Each pattern starts with its literal delimiter and checks the character before it in a
# lookbehind: Python's re scans fast for a literal prefix and slowly for a leading lookbehind.
# Spans are bounded so that unpaired delimiters cannot make a long text quadratic.
_MARKDOWN_STRONG_EMPHASIS_STAR = re.compile(
    r"\*\*\*(?<![\w*\\]\*\*\*)(?=[^\s*])(.{1,300}?)(?<=[^\s\\])\*\*\*"
)
# Runs of two or three stars left inside or at the edge of a word by nested emphasis
# (`***O**pen-world`); between letters they are never arithmetic.
_STRAY_STRONG_STARS = re.compile(
    r"(?<![\w*])\*{2,4}(?=[A-Za-z])|(?<=[A-Za-z])\*{2,4}(?![\w*])|(?<=[A-Za-z])\*{2,4}(?=[A-Za-z])"
)
# A single star left inside or after a lower-case word by nested emphasis (`E*ncoding*-D*ecoding`);
# 'A* search' and 'MALA*' keep theirs. Applied only to text that had nested emphasis.
_STRAY_INNER_STAR = re.compile(r"(?<=[A-Za-z])\*(?=[a-z])|(?<=[a-z])\*(?=[\s,.;:)-]|$)")
_MARKDOWN_STRONG_STAR = re.compile(r"\*\*(?<![\w*\\]\*\*)(?=[^\s*])(.{1,300}?)(?<=[^\s\\])\*\*")
_MARKDOWN_STRONG_UNDERSCORE = re.compile(r"__(?<![\w\\_]__)(?=[^\s_])(.{1,300}?)(?<=[^\s\\])__(?![\w_])")
_MARKDOWN_EMPHASIS_STAR = re.compile(r"\*(?<![\w*\\]\*)(?=[^\s*])([^*]+?)(?<=[^\s*\\])\*(?![\w*])")
_MARKDOWN_EMPHASIS_UNDERSCORE = re.compile(r"_(?<![\w\\/_]_)(?=[^\s_])([^_]+?)(?<=[^\s_\\])_(?![\w_])")
_MARKDOWN_CODE = re.compile(r"(?<!`)`([^`'\n]+)`(?!`)")
_LATEX_DOUBLE_QUOTES = re.compile(r"``(.{1,500}?)(?:''|\")")
_LATEX_SINGLE_QUOTES = re.compile(r"(?<![\w`])`([^`'\s][^`']*?)'(?!\w)")
_EM_DASH = re.compile(r"(?<!-)---(?!-)")
# `--` is an en dash unless it starts a command-line flag (`--verbose`).
_EN_DASH = re.compile(r"(?<!-)(?:(?<=\S)--|--(?![A-Za-z]))(?!-)")
_TIE = re.compile(r"(?<=[\w.,;:)\]\x02])~(?=[\w(\[\\\x01])")


def _rewrite_plain_markup(text: str) -> str:
    if "*" in text:
        if "**" in text:
            if "***" in text:
                text = _MARKDOWN_STRONG_EMPHASIS_STAR.sub(r"\1", text)
            text = _MARKDOWN_STRONG_STAR.sub(r"\1", text)
        text = _MARKDOWN_EMPHASIS_STAR.sub(r"\1", text)
        if "**" in text:
            text = _STRAY_STRONG_STARS.sub("", text)
            text = _MARKDOWN_EMPHASIS_STAR.sub(r"\1", _STRAY_INNER_STAR.sub("", text))
    if "_" in text:
        if "__" in text:
            text = _MARKDOWN_STRONG_UNDERSCORE.sub(r"\1", text)
        text = _MARKDOWN_EMPHASIS_UNDERSCORE.sub(r"\1", text)
    if "`" in text:
        text = _LATEX_DOUBLE_QUOTES.sub(r"“\1”", text)
        text = _LATEX_SINGLE_QUOTES.sub(r"‘\1’", text)
        text = _MARKDOWN_CODE.sub(r"\1", text)
    if "--" in text:
        text = _EN_DASH.sub("–", _EM_DASH.sub("—", text))
    if "~" in text:
        text = _TIE.sub(" ", text)
    return text


# --- LaTeX parsing -------------------------------------------------------------------------------


class _Macro(str):
    """A control word or control symbol, by name (`alpha`, `%`)."""

    __slots__ = ()


class _Script(str):
    """A `^` or `_` in the source."""

    __slots__ = ()


_SUPERSCRIPT = _Script("^")
_SUBSCRIPT = _Script("_")
_TOKEN = re.compile(r"\\([A-Za-z]+)|\\(.)|(\\)$|([{}])|(\^)|(_)|([^\\{}^_]+)", re.S)


def _parse(source: str) -> list:
    """Tokens nested by braces: str text, _Macro, _Script and list (a group).

    A stray `}` is dropped; an unclosed `{` is dropped and its content kept.
    """
    root: list = []
    stack = [root]
    for match in _TOKEN.finditer(source):
        kind = match.lastindex
        if kind == 7:
            stack[-1].append(match.group(7))
        elif kind == 1:
            stack[-1].append(_Macro(match.group(1)))
        elif kind == 2:
            stack[-1].append(_Macro(match.group(2)))
        elif kind == 4:
            if match.group(4) == "{":
                group: list = []
                stack[-1].append(group)
                stack.append(group)
            elif len(stack) > 1:
                stack.pop()
        elif kind == 5:
            stack[-1].append(_SUPERSCRIPT)
        elif kind == 6:
            stack[-1].append(_SUBSCRIPT)
    while len(stack) > 1:
        unclosed = stack.pop()
        stack[-1].pop()
        stack[-1].extend(unclosed)
    return root


def _take_argument(nodes: list, index: int, math: bool) -> tuple[list, int]:
    """The next argument after `index`: a group, one macro (with its own arguments, as in
    `x_\\text{max}` or `d^\\frac12`), or the first character of a text run."""
    while index < len(nodes):
        node = nodes[index]
        if type(node) is list:
            return node, index + 1
        if type(node) is not str:
            if type(node) is _Macro and (node in _HANDLERS or _split_glued_macro(node)):
                piece, index, _ = _render_macro(str(node), nodes, index + 1, math)
                return [piece], index
            return [node], index + 1
        stripped = node.lstrip()
        if not stripped:
            index += 1
            continue
        end = stripped.find("\x02") + 1 if stripped[0] == "\x01" else 1
        end = end or len(stripped)
        if end < len(stripped):
            nodes[index] = stripped[end:]
        else:
            index += 1
        return [stripped[:end]], index
    return [], index


def _take_optional_argument(nodes: list, index: int) -> tuple[str | None, int]:
    """A `[...]` argument written as plain text right after the macro, if there is one."""
    if index < len(nodes) and type(nodes[index]) is str:
        text = nodes[index]
        stripped = text.lstrip()
        close = stripped.find("]")
        if stripped.startswith("[") and close > 0:
            rest = stripped[close + 1 :]
            if rest:
                nodes[index] = rest
                return stripped[1:close], index
            return stripped[1:close], index + 1
    return None, index


# --- LaTeX rendering -----------------------------------------------------------------------------


def _render(nodes: list, math: bool) -> str:
    if math and _INFIX_FRACTION in nodes:
        fraction = _render_infix_fraction(nodes)
        if fraction is not None:
            return fraction
    out: list[str] = []
    index = 0
    after_operator = False
    while index < len(nodes):
        node = nodes[index]
        index += 1
        node_type = type(node)
        is_operator = False
        if node_type is str:
            piece = node
        elif node_type is list:
            piece = _render_bare_group(node, math)
        elif node_type is _Script:
            if math:
                argument, index = _take_argument(nodes, index, math)
                out.append(_script(_render(argument, math), superscript=node is _SUPERSCRIPT))
                continue
            piece = str(node)
        elif node in _STYLE_DECLARATIONS:
            out.append(_render(nodes[index:], math).translate(_STYLE_DECLARATIONS[node]))
            break
        else:
            piece, index, is_operator = _render_macro(str(node), nodes, index, math)
        if (is_operator or after_operator) and piece[:1].isalnum() and out and out[-1][-1:].isalnum():
            out.append(" ")
        out.append(piece)
        after_operator = is_operator
    return "".join(out)


def _render_macro(name: str, nodes: list, index: int, math: bool) -> tuple[str, int, bool]:
    """(text, index after the macro's arguments, whether it reads like an operator name)."""
    symbol = _SYMBOLS.get(name)
    if symbol is not None:
        # Relations get the spaces LaTeX gives them, so `0\\leq \\alpha` is not "0≤ α".
        return (f" {symbol} " if math and name in _RELATIONS else symbol), index, False
    if name in _OPERATORS:
        return _OPERATORS[name], index, True
    if name in _OPERATOR_NAME_MACROS:
        text, index = _operator_name(nodes, index)
        return text, index, True
    handler = _HANDLERS.get(name)
    if handler is not None:
        text, index = handler(name, nodes, index, math)
        return text, index, False
    glued = _split_glued_macro(name)
    if glued:
        macro, remainder = glued
        nodes.insert(index, [_Macro(remainder) if remainder in _SYMBOLS else remainder])
        text, index = _HANDLERS[macro](macro, nodes, index, math)
        return text, index, False
    if math:
        alias = _MATH_ALIASES.get(name)
        if alias is not None:
            return alias, index, False
        # An author's own macro (\poly, \opt): print its name like an operator.
        return name, index, True
    return _TEXT_ALIASES.get(name, name), index, False


_INFIX_FRACTION = "over"


def _render_infix_fraction(nodes: list) -> str | None:
    """`{a \\over b}`, TeX's infix fraction."""
    position = next(
        (i for i, node in enumerate(nodes) if type(node) is _Macro and node == _INFIX_FRACTION), None
    )
    if position is None:
        return None
    numerator = _render(nodes[:position], math=True)
    denominator = _render(nodes[position + 1 :], math=True)
    return f"{_parenthesise(numerator)}/{_parenthesise(denominator)}"


def _render_bare_group(group: list, math: bool) -> str:
    """Braces vanish in math and around LaTeX in text; literal braces in text such as `{0, 1}` stay."""
    content = _render(group, math)
    if math or any(type(node) is not str for node in group) or content.isalpha():
        return content
    return "{" + content + "}"


@functools.lru_cache(maxsize=4096)
def _split_glued_macro(name: str) -> tuple[str, str] | None:
    """`\\mathbbR`, `\\sqrtT`, `\\emphhow`: exports that lost the braces around the argument."""
    for prefix in _GLUABLE_MACROS:
        if name.startswith(prefix) and len(name) > len(prefix):
            return prefix, name[len(prefix) :]
    return None


def _argument_text(nodes: list, index: int, math: bool) -> tuple[str, int]:
    argument, index = _take_argument(nodes, index, math)
    return _render(argument, math), index


def _unwrap(name: str, nodes: list, index: int, math: bool) -> tuple[str, int]:
    return _argument_text(nodes, index, math)


def _unwrap_as_text(name: str, nodes: list, index: int, math: bool) -> tuple[str, int]:
    return _argument_text(nodes, index, math=False)


def _styled(name: str, nodes: list, index: int, math: bool) -> tuple[str, int]:
    text, index = _argument_text(nodes, index, math)
    return text.translate(_FONT_TABLES[name]), index


def _operator_name(nodes: list, index: int) -> tuple[str, int]:
    """`\\operatorname*{arg\\,max}`: the name as upright text."""
    if index < len(nodes) and type(nodes[index]) is str and nodes[index].startswith("*"):
        nodes[index] = nodes[index][1:]
    text, index = _argument_text(nodes, index, math=False)
    return " ".join(text.split()), index


def _drop_argument(name: str, nodes: list, index: int, math: bool) -> tuple[str, int]:
    _, index = _take_optional_argument(nodes, index)
    _, index = _take_argument(nodes, index, math)
    return _REMOVED, index


def _drop_first_argument(name: str, nodes: list, index: int, math: bool) -> tuple[str, int]:
    _, index = _take_argument(nodes, index, math)
    return _argument_text(nodes, index, math)


def _footnote(name: str, nodes: list, index: int, math: bool) -> tuple[str, int]:
    _, index = _take_optional_argument(nodes, index)
    text, index = _argument_text(nodes, index, math=False)
    text = text.strip()
    return (f" ({text})" if text else _REMOVED), index


def _accent(name: str, nodes: list, index: int, math: bool) -> tuple[str, int]:
    text, index = _argument_text(nodes, index, math)
    text = text.strip()
    mark = _ACCENTS[name]
    if not text:
        return _SPACING_ACCENTS.get(name, ""), index
    if len(unicodedata.normalize("NFC", text)) == 1 or name in _TEXT_ACCENT_NAMES:
        return text[0] + mark + text[1:], index
    return text, index


def _fraction(name: str, nodes: list, index: int, math: bool) -> tuple[str, int]:
    numerator, index = _argument_text(nodes, index, math)
    denominator, index = _argument_text(nodes, index, math)
    return f"{_parenthesise(numerator)}/{_parenthesise(denominator)}", index


def _binomial(name: str, nodes: list, index: int, math: bool) -> tuple[str, int]:
    top, index = _argument_text(nodes, index, math)
    bottom, index = _argument_text(nodes, index, math)
    return f"C({top}, {bottom})", index


def _square_root(name: str, nodes: list, index: int, math: bool) -> tuple[str, int]:
    degree, index = _take_optional_argument(nodes, index)
    radicand, index = _argument_text(nodes, index, math)
    sign = {None: "√", "3": "∛", "4": "∜"}.get(degree)
    if sign is None:
        sign = _script(degree or "", superscript=True).lstrip("^") + "√"
    radicand = radicand.strip()
    if len(radicand) > 1 and not radicand.isdigit() and not _is_bracketed(radicand):
        radicand = f"({radicand})"
    return sign + radicand, index


def _delimiter_sizer(name: str, nodes: list, index: int, math: bool) -> tuple[str, int]:
    """`\\left(`, `\\big|`: the delimiter renders itself; `\\left.` is an invisible delimiter."""
    if index < len(nodes) and type(nodes[index]) is str:
        text = nodes[index].lstrip()
        if text.startswith("."):
            nodes[index] = text[1:]
    return "", index


def _environment_boundary(name: str, nodes: list, index: int, math: bool) -> tuple[str, int]:
    _, index = _take_argument(nodes, index, math)
    return " ", index


def _unicode_character(name: str, nodes: list, index: int, math: bool) -> tuple[str, int]:
    code, index = _argument_text(nodes, index, math=False)
    code = code.strip()
    try:
        value = int(code[1:], 16) if code[:1] in "xX" else int(code)
        character = chr(value)
    except (ValueError, OverflowError):
        return "", index
    return ("" if _INVISIBLE.match(character) else character), index


def _superscript_text(name: str, nodes: list, index: int, math: bool) -> tuple[str, int]:
    text, index = _argument_text(nodes, index, math=False)
    return _script(text, superscript=name == "textsuperscript"), index


_PAIRED_DELIMITERS = {"set": "{}", "norm": "‖‖", "abs": "||", "ceil": "⌈⌉", "floor": "⌊⌋", "paren": "()"}


def _delimited(name: str, nodes: list, index: int, math: bool) -> tuple[str, int]:
    """Common preamble shorthands: `\\norm{x}` → ‖x‖, `\\set{a, b}` → {a, b}."""
    text, index = _argument_text(nodes, index, math)
    opening, closing = _PAIRED_DELIMITERS[name]
    return f"{opening}{text.strip()}{closing}", index


# Letters, digits and primes; not `_`, so `n_i` in an exponent gets parentheses.
_ATOM = re.compile(r"(?:[^\W_]|[.′'*∗⋆†])+")
_SCRIPT_CHARACTERS = "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿⁱᵀ₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎*∗⋆†′"


def _is_atom(text: str, allow_call: bool = True) -> bool:
    """Whether `text` reads as one unit beside `/`: `n²`, `√T`, `(1-γ)²`, and `log(n)` if `allow_call`."""
    core = text.lstrip("√").rstrip(_SCRIPT_CHARACTERS)
    if not core:
        return False
    if _ATOM.fullmatch(core) or _is_bracketed(core):
        return True
    opening = core.find("(")
    return (
        allow_call
        and opening > 0
        and _ATOM.fullmatch(core[:opening]) is not None
        and _is_bracketed(core[opening:])
    )


def _is_bracketed(text: str) -> bool:
    if len(text) < 2 or text[0] != "(" or text[-1] != ")":
        return False
    depth = 0
    for position, character in enumerate(text):
        depth += (character == "(") - (character == ")")
        if depth == 0 and position < len(text) - 1:
            return False
    return True


def _parenthesise(text: str, allow_call: bool = True) -> str:
    text = text.strip()
    return text if len(text) <= 1 or _is_atom(text, allow_call) else f"({text})"


_SUPERSCRIPT_TABLE = str.maketrans("0123456789+-−=()ni⊤", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁻⁼⁽⁾ⁿⁱᵀ")
_SUBSCRIPT_TABLE = str.maketrans("0123456789+-−=()", "₀₁₂₃₄₅₆₇₈₉₊₋₋₌₍₎")
_SUPERSCRIPT_CHARS = frozenset("0123456789+-−=()ni⊤")
_SUBSCRIPT_CHARS = frozenset("0123456789+-−=()")
_MARKS = frozenset("*∗⋆†‡′'″")


def _script(text: str, superscript: bool) -> str:
    """`x^2` → x², `x^{1/4}` → x^(1/4), `x_i` → x_i, `\\nu^*` → ν*."""
    text = text.strip()
    if not text:
        return ""
    if text == "(":
        # `x^(a+b)` typed without braces: the parenthesis is not the exponent.
        return "^(" if superscript else "_("
    if superscript and set(text) <= _MARKS:
        return text
    if set(text) <= (_SUPERSCRIPT_CHARS if superscript else _SUBSCRIPT_CHARS):
        return text.translate(_SUPERSCRIPT_TABLE if superscript else _SUBSCRIPT_TABLE)
    # `n^o(1)` would read as (n^o)(1), so a call form gets parentheses here.
    return ("^" if superscript else "_") + _parenthesise(text, allow_call=False)


# --- LaTeX tables ----------------------------------------------------------------------------------


def _symbols_from_pylatexenc() -> dict[str, str]:
    """Argument-less macros with a plain replacement in pylatexenc's latex2text tables."""
    argument_specs = latexwalker.get_default_latex_context_db()
    replacements = latex2text.get_default_latex_context_db()
    symbols: dict[str, str] = {}
    for category in replacements.category_list:
        for name, spec in replacements.d[category]["macros"].items():
            replacement = spec.simplify_repl
            if not isinstance(replacement, str) or "%" in replacement or replacement.startswith("<"):
                continue
            walker_spec = argument_specs.get_macro_spec(name)
            if walker_spec is None or not getattr(walker_spec.args_parser, "argspec", ""):
                symbols.setdefault(name, replacement)
    return symbols


_SYMBOL_OVERRIDES = {
    # ε and φ are the letters people type and search for; LaTeX's default glyphs are the variants.
    "epsilon": "ε",
    "eps": "ε",
    "phi": "φ",
    "prime": "′",
    "-": "",
    "/": "",
    "@": "",
    "!": "",
    "\\": " ",
    ",": " ",
    ";": " ",
    ":": " ",
    ">": " ",
    " ": " ",
    "quad": " ",
    "qquad": " ",
    "enspace": " ",
    "thinspace": " ",
    "medspace": " ",
    "thickspace": " ",
    "negthinspace": "",
    "newline": " ",
    "par": " ",
    "linebreak": " ",
    "hfill": " ",
    "noindent": "",
    "|": "‖",
    "*": "*",
    "(": "(",
    ")": ")",
    "[": "[",
    "]": "]",
    "bot": "⊥",
    "iff": "⟺",
    "implies": "⟹",
    "impliedby": "⟸",
    "coloneqq": "≔",
    "coloneq": "≔",
    "neg": "¬",
    "land": "∧",
    "lor": "∨",
    "ne": "≠",
    "gets": "←",
    "checkmark": "✓",
    "ddagger": "‡",
    "models": "⊨",
    "vDash": "⊨",
    "Re": "ℜ",
    "Im": "ℑ",
    "Box": "□",
    "triangle": "△",
    "lhd": "◁",
    "rhd": "▷",
    "textless": "<",
    "textgreater": ">",
    "textbar": "|",
    "textunderscore": "_",
    "textasciitilde": "~",
    "textasciicircum": "^",
    "degree": "°",
    "colon": ":",
    "bullet": "•",
    "lbrack": "[",
    "rbrack": "]",
    "LaTeX": "LaTeX",
    "TeX": "TeX",
    "today": "",
}
_OPERATORS = {
    name: name
    for name in [
        "log",
        "ln",
        "lg",
        "exp",
        "min",
        "max",
        "sup",
        "inf",
        "lim",
        "sin",
        "cos",
        "tan",
        "sec",
        "csc",
        "cot",
        "arcsin",
        "arccos",
        "arctan",
        "sinh",
        "cosh",
        "tanh",
        "det",
        "arg",
        "deg",
        "dim",
        "ker",
        "hom",
        "gcd",
        "lcm",
        "Pr",
        "argmin",
        "argmax",
        "sgn",
        "sign",
        "tr",
        "Tr",
        "rank",
        "diag",
        "poly",
        "polylog",
        "softmax",
        "var",
        "Var",
        "cov",
        "Cov",
        "erf",
        "KL",
    ]
} | {"limsup": "lim sup", "liminf": "lim inf"}
_SYMBOLS = {
    name: value
    for name, value in (_symbols_from_pylatexenc() | _SYMBOL_OVERRIDES).items()
    if name not in _OPERATORS
}
# Shorthands common in ML papers' own preambles, in math.
_MATH_ALIASES = {"R": "ℝ", "N": "ℕ", "Z": "ℤ", "Q": "ℚ", "E": "𝔼", "veps": "ε", "eps": "ε"}
_MATH_ALIASES |= {f"c{letter}": latex2text.fmt_math_text_style(letter, "script") for letter in ascii_letters}
_MATH_ALIASES |= {
    f"bb{letter}": latex2text.fmt_math_text_style(letter, "doublestruck") for letter in ascii_letters
}
_MATH_ALIASES |= {f"{bold}{letter}": letter for bold in ("bf", "bm") for letter in ascii_letters}
_RELATIONS = frozenset(
    [
        "le",
        "leq",
        "ge",
        "geq",
        "leqslant",
        "geqslant",
        "ll",
        "gg",
        "lesssim",
        "gtrsim",
        "neq",
        "ne",
        "approx",
        "simeq",
        "cong",
        "equiv",
        "asymp",
        "propto",
        "in",
        "notin",
        "ni",
        "subset",
        "subseteq",
        "supset",
        "supseteq",
        "subsetneq",
        "to",
        "rightarrow",
        "leftarrow",
        "mapsto",
        "Rightarrow",
        "Leftarrow",
        "Leftrightarrow",
        "leftrightarrow",
        "iff",
        "implies",
        "longrightarrow",
        "coloneqq",
        "triangleq",
        "models",
    ]
)
_TEXT_ALIASES = {
    "ie": "i.e.",
    "eg": "e.g.",
    "etal": "et al.",
    "etc": "etc.",
    "wrt": "w.r.t.",
    "vs": "vs.",
    "iid": "i.i.d.",
}


def _font_table(style: str) -> dict[int, str]:
    table = {ord(letter): latex2text.fmt_math_text_style(letter, style) for letter in ascii_letters}
    if style == "doublestruck":
        table[ord("1")] = "𝟙"
    return table


_FONT_STYLES = {"mathcal": "script", "mathscr": "script", "mathbb": "doublestruck", "mathbbm": "doublestruck"}
_FONT_STYLES |= {"mathds": "doublestruck", "mathfrak": "fraktur"}
_FONT_TABLES = {name: _font_table(style) for name, style in _FONT_STYLES.items()}
_OPERATOR_NAME_MACROS = frozenset(("operatorname", "mathoperator", "DeclareMathOperator"))
_STYLE_DECLARATIONS = {
    "cal": _FONT_TABLES["mathcal"],
    "Bbb": _FONT_TABLES["mathbb"],
    "frak": _FONT_TABLES["mathfrak"],
}
for _declaration in [
    "em",
    "it",
    "bf",
    "rm",
    "sf",
    "tt",
    "sc",
    "sl",
    "up",
    "md",
    "normalfont",
    "itshape",
    "bfseries",
    "upshape",
    "mdseries",
    "rmfamily",
    "sffamily",
    "ttfamily",
    "scshape",
    "slshape",
    "tiny",
    "scriptsize",
    "footnotesize",
    "small",
    "normalsize",
    "large",
    "Large",
    "LARGE",
    "huge",
    "Huge",
    "displaystyle",
    "textstyle",
    "scriptstyle",
    "scriptscriptstyle",
    "limits",
    "nolimits",
    "nonumber",
    "notag",
    "relax",
    "protect",
    "centering",
    "boldmath",
]:
    _SYMBOLS.setdefault(_declaration, "")

_ACCENTS = {
    "'": "\u0301",
    "`": "\u0300",
    "^": "\u0302",
    '"': "\u0308",
    "~": "\u0303",
    "=": "\u0304",
    ".": "\u0307",
    "u": "\u0306",
    "v": "\u030c",
    "H": "\u030b",
    "c": "\u0327",
    "k": "\u0328",
    "r": "\u030a",
    "d": "\u0323",
    "b": "\u0331",
    "acute": "\u0301",
    "grave": "\u0300",
    "hat": "\u0302",
    "widehat": "\u0302",
    "check": "\u030c",
    "tilde": "\u0303",
    "widetilde": "\u0303",
    "Tilde": "\u0303",
    "bar": "\u0304",
    "overline": "\u0304",
    "breve": "\u0306",
    "dot": "\u0307",
    "ddot": "\u0308",
    "mathring": "\u030a",
    "vec": "\u20d7",
    "overrightarrow": "\u20d7",
    "not": "\u0338",
    "wt": "\u0303",
    "wh": "\u0302",
}
_TEXT_ACCENT_NAMES = frozenset("'`^\"~=.uvHckrdb")
_SPACING_ACCENTS = {"~": "~", "^": "^", "'": "'", "`": "`", '"': '"'}

_HANDLERS: dict[str, Callable[[str, list, int, bool], tuple[str, int]]] = {}
_HANDLERS |= dict.fromkeys(
    [
        "textit",
        "textbf",
        "textsl",
        "textsc",
        "textup",
        "textmd",
        "textnormal",
        "emph",
        "underline",
        "uline",
        "mathrm",
        "mathit",
        "mathbf",
        "mathsf",
        "mathtt",
        "mathnormal",
        "boldsymbol",
        "bm",
        "pmb",
        "ensuremath",
        "smash",
        "mathop",
        "mathbin",
        "mathrel",
        "mathord",
        "hphantom",
        "vphantom",
        "displaystyle",
        "overbrace",
        "underbrace",
        "wideparen",
        "tag",
    ],
    _unwrap,
)
_HANDLERS |= dict.fromkeys(
    ["text", "textrm", "textsf", "texttt", "mbox", "hbox", "fbox", "intertext"], _unwrap_as_text
)
_HANDLERS |= dict.fromkeys(_FONT_STYLES, _styled)
_HANDLERS |= dict.fromkeys(
    [
        "cite",
        "citep",
        "citet",
        "citealp",
        "citealt",
        "citeauthor",
        "citeyear",
        "citenum",
        "nocite",
        "ref",
        "eqref",
        "cref",
        "Cref",
        "autoref",
        "pageref",
        "label",
        "hspace",
        "vspace",
        "includegraphics",
        "phantom",
        "thanks",
        "footnotemark",
    ],
    _drop_argument,
)
_HANDLERS |= dict.fromkeys(["textcolor", "colorbox", "overset", "underset", "stackrel"], _drop_first_argument)
_HANDLERS |= dict.fromkeys(("footnote", "footnotetext"), _footnote)
_HANDLERS |= dict.fromkeys(_ACCENTS, _accent)
_HANDLERS |= dict.fromkeys(["frac", "dfrac", "tfrac", "cfrac", "nicefrac", "sfrac"], _fraction)
_HANDLERS |= dict.fromkeys(["binom", "dbinom", "tbinom"], _binomial)
_HANDLERS |= {
    "sqrt": _square_root,
    "unicode": _unicode_character,
    "url": _unwrap_as_text,
    "href": _drop_first_argument,
}
_HANDLERS |= dict.fromkeys(("textsuperscript", "textsubscript"), _superscript_text)
_HANDLERS |= dict.fromkeys(("begin", "end"), _environment_boundary)
_HANDLERS |= dict.fromkeys(_PAIRED_DELIMITERS, _delimited)
_HANDLERS |= dict.fromkeys(
    [
        "left",
        "right",
        "middle",
        "big",
        "Big",
        "bigg",
        "Bigg",
        "bigl",
        "bigr",
        "Bigl",
        "Bigr",
        "biggl",
        "biggr",
        "Biggl",
        "Biggr",
        "bigm",
        "Bigm",
    ],
    _delimiter_sizer,
)
_SYMBOLS["item"] = " • "
# Longest first, so `\widetildeO` splits as widetilde + O rather than wide... + ...
_GLUABLE_MACROS = sorted(
    (
        name
        for name, handler in _HANDLERS.items()
        if len(name) >= 3
        and name.isalpha()
        and handler is not _delimiter_sizer
        and name not in {"not", "tag"}
    ),
    key=len,
    reverse=True,
)
