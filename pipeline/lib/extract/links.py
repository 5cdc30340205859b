"""URLs written in an abstract, classified as code, project page or other.

One compiled pattern finds every candidate (scheme URLs, `www.` URLs and bare links on well-known
hosts such as `github.com/x/y` or `name.github.io`); trailing sentence punctuation is trimmed and the
two ways real abstracts break a URL are repaired: a space after the scheme (`https: //x.io`) and a
line break after a slash that leaves the path incomplete (`https://github.com/ owner/repo`).

`url` is the URL as written, `text[start:end] == url` for every link, so a repaired URL keeps
its stray whitespace; `joined(link)` is the URL without it, the one to open. Hosts, kinds and
repeated links are judged on the joined URL.
"""

from __future__ import annotations

import re
from typing import NamedTuple


class Link(NamedTuple):
    url: str
    kind: str  # 'code', 'project' or 'other'
    start: int
    end: int


# Characters a URL can contain here: no whitespace, quotes, brackets or braces (markdown and LaTeX
# wrappers), no CJK punctuation.
_URL_BODY = r"[^\s<>\"'`\[\]{}|\\^“”‘’，。；：、）（]*"
_PROJECT_HOST_SUFFIX = r"(?:github\.io|gitlab\.io|pages\.dev|netlify\.app|vercel\.app|notion\.site)"
_BARE_CODE_HOST = (
    r"(?:github\.com|gitlab\.com|bitbucket\.org|huggingface\.co|codeberg\.org|sourceforge\.net|gitee\.com"
    r"|anonymous\.4open\.science|sites\.google\.com)"
)
_BARE_TLDS = (
    "com",
    "org",
    "net",
    "edu",
    "gov",
    "io",
    "ai",
    "dev",
    "me",
    "info",
    "cc",
    "cn",
    "uk",
    "de",
    "fr",
    "jp",
)
_BARE_TLD = f"(?:{'|'.join(_BARE_TLDS)})"
_URL = re.compile(
    rf"(?:https?|ftp):\s?//{_URL_BODY}"
    # Bare links: not inside a word, an e-mail address or a path; "https//host" lost its colon.
    rf"|(?:(?<![\w.@/-])|(?<=[a-z]//))(?:"
    rf"www\.[a-z0-9-]+(?:\.[a-z0-9-]+)+{_URL_BODY}"
    rf"|(?:[a-z0-9-]+\.)+{_PROJECT_HOST_SUFFIX}(?![\w-]){_URL_BODY}"
    rf"|{_BARE_CODE_HOST}/[\w.~-]{_URL_BODY}"
    # Any other bare domain only with a path: "Walmart.com" in prose is a company, not a link.
    rf"|(?:[a-z0-9-]+\.)+{_BARE_TLD}/[\w~-]{_URL_BODY}"
    r")",
    re.IGNORECASE,
)
# What every candidate contains: '//', 'www.' or a dot opening a host's last part ('.co' of
# 'github.com' and 'huggingface.co', '.io', '.science'). Most abstracts have none, and this test is
# far cheaper than running the pattern; it looks for 'www.' at its dot so that every alternative
# starts with '/' or '.', the two characters re then scans for.
_HINT_LAST_PARTS = dict.fromkeys(("co", "io", "dev", "app", "site", "science", *_BARE_TLDS))
_HINT = re.compile(rf"//|\.(?:(?<=www\.)|{'|'.join(_HINT_LAST_PARTS)})")
_TRAILING_PUNCTUATION = ".,;:!?*'\"’”"
_SCHEME = re.compile(r"^(?:https?|ftp)://", re.IGNORECASE)
# A URL that stops here cannot be complete: the host needs an owner, a user or a page name.
_INCOMPLETE = re.compile(
    r"^(?:(?:https?|ftp)://)?(?:www\.)?(?:"
    r"(?:github\.com|gitlab\.com|bitbucket\.org|huggingface\.co|gitee\.com|codeberg\.org)/(?:[\w.-]+/)?"
    r"|sites\.google\.com/(?:view/|site/)?"
    r"|anonymous\.4open\.science/(?:r/)?"
    r")$",
    re.IGNORECASE,
)
_CONTINUATION = re.compile(r"\s{1,3}([\w][\w.~/%-]*[\w/])")
# "https://sites.google. com/view/x": a space after the dot before the top-level domain.
_SPLIT_DOMAIN = re.compile(r"\.\s(?:com|org|net|edu|io|ai|dev|cn|uk|de)/" + _URL_BODY)

_CODE_HOSTS = re.compile(
    r"^(?:[\w-]+\.)*(?:github\.com|githubusercontent\.com|gitlab\.com|bitbucket\.org|codeberg\.org"
    r"|sourceforge\.net|gitee\.com|anonymous\.4open\.science|anon-github\.automl\.cc|git\.io"
    r"|huggingface\.co|hf\.co|colab\.research\.google\.com|codeocean\.com|pypi\.org)$"
)
# Hosts whose paths read owner/repository.
_REPOSITORY_HOSTS = re.compile(r"^(?:github\.com|gitlab\.com|bitbucket\.org|codeberg\.org|gitee\.com)$")
_PROJECT_HOSTS = re.compile(rf"^(?:[\w-]+\.)*{_PROJECT_HOST_SUFFIX}$|^sites\.google\.com$")
_OTHER_HOSTS = re.compile(
    r"^(?:[\w-]+\.)*(?:arxiv\.org|doi\.org|youtube\.com|youtu\.be|vimeo\.com|zenodo\.org|kaggle\.com"
    r"|openreview\.net|aclanthology\.org|figshare\.com|paperswithcode\.com|drive\.google\.com"
    r"|dropbox\.com|wikipedia\.org)$"
)
# Hugging Face hosts code (models, spaces) and data; the data part is not code.
_HF_DATASETS = re.compile(r"^(?:huggingface|hf)\.co/datasets/", re.IGNORECASE)
# For hosts that say nothing, the words just before the URL do ("Project page: ...").
_CONTEXT_WINDOW = 60
_CONTEXT_CUE = re.compile(
    r"\b(?:(?P<project>project|web\s?(?:site|page)|home\s?page|demo|videos?|visuali[sz]ations|page"
    r"|supplement\w*|materials?|samples|examples|details|information)"
    r"|(?P<code>code|implementation|repository|repo|source|software|package|library|toolkit|toolbox)s?)\b",
    re.IGNORECASE,
)


def find_links(text: str) -> list[Link]:
    """Every distinct URL in `text`, in order of first appearance."""
    if not _HINT.search(text.lower()):
        return []
    links: list[Link] = []
    seen: set[str] = set()
    for match in _URL.finditer(text):
        start = match.start()
        end = _repaired_end(text, start, _trim_end(text, start, match.end()))
        host_and_path = _SCHEME.sub("", "".join(text[start:end].split()))
        if "." not in host_and_path.split("/", 1)[0]:
            continue
        key = host_and_path.lower().removeprefix("www.").rstrip("/")
        if key in seen:
            continue
        seen.add(key)
        links.append(Link(text[start:end], _kind(text, start, end, host_and_path), start, end))
    return links


def joined(link: Link) -> str:
    """The URL without the whitespace a line break left in it: 'https://x.io' for 'https: //x.io'."""
    return "".join(link.url.split())


def repository_name(link: Link) -> str | None:
    """The repository a code link points at: 'OSSCAR' for github.com/mazumder-lab/OSSCAR."""
    if link.kind != "code":
        return None
    parts = [part for part in _SCHEME.sub("", joined(link)).split("/") if part]
    if len(parts) < 3 or not _REPOSITORY_HOSTS.match(parts[0].lower().removeprefix("www.")):
        return None
    return parts[2].removesuffix(".git")


def _repaired_end(text: str, start: int, end: int) -> int:
    """Extend a URL that a stray space cut short over the rest of it."""
    if _INCOMPLETE.match("".join(text[start:end].split())):
        continuation = _CONTINUATION.match(text, end)
        if continuation:
            return _trim_end(text, start, continuation.end(1))
    split_domain = _SPLIT_DOMAIN.match(text, end)
    if split_domain:
        return _trim_end(text, start, split_domain.end())
    return end


def _trim_end(text: str, start: int, end: int) -> int:
    """Drop sentence punctuation and an unbalanced closing parenthesis from the end of a URL."""
    while end > start:
        last = text[end - 1]
        unbalanced = last == ")" and text.count("(", start, end) < text.count(")", start, end)
        if last not in _TRAILING_PUNCTUATION and not unbalanced:
            break
        end -= 1
    return end


def _kind(text: str, start: int, end: int, host_and_path: str) -> str:
    host = host_and_path.split("/", 1)[0].lower().removeprefix("www.")
    if _CODE_HOSTS.match(host) and not _HF_DATASETS.match(host_and_path):
        return "code"
    if _PROJECT_HOSTS.match(host):
        return "project"
    if _OTHER_HOSTS.match(host) or _HF_DATASETS.match(host_and_path):
        return "other"
    # The words before the URL, from the start of its sentence at most.
    window_start = max(0, start - _CONTEXT_WINDOW)
    window_start = max(window_start, text.rfind(". ", window_start, start) + 1)
    cues = list(_CONTEXT_CUE.finditer(text, window_start, start))
    if cues:
        return cues[-1].lastgroup
    # "See https://tinyurl.com/x for supplementary material."
    window_end = min(len(text), end + _CONTEXT_WINDOW // 2)
    sentence_end = text.find(". ", end, window_end)
    cue = _CONTEXT_CUE.search(text, end, window_end if sentence_end < 0 else sentence_end)
    return cue.lastgroup if cue else "other"
