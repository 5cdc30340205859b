from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.lib.extract.links import Link, find_links, joined, repository_name


def urls(text: str) -> list[str]:
    return [link.url for link in find_links(text)]


def assert_offsets_hold(text: str, links: list[Link]) -> None:
    for link in links:
        assert text[link.start : link.end] == link.url


def test_code_link_loses_sentence_punctuation():
    text = "Code is available at https://github.com/owner/repo-name."
    (link,) = find_links(text)
    assert link == Link("https://github.com/owner/repo-name", "code", 21, 55)
    assert text[link.start : link.end] == link.url


def test_kinds_follow_the_host():
    text = (
        "See https://my-method.github.io/ and https://sites.google.com/view/robot-demo, "
        "https://anonymous.4open.science/r/Tool-1A2B, https://huggingface.co/spaces/user/demo, "
        "https://huggingface.co/datasets/user/corpus, https://arxiv.org/abs/2401.00001, "
        "https://gitlab.com/group/project and https://doi.org/10.1000/xyz."
    )
    kinds = {link.url: link.kind for link in find_links(text)}
    assert kinds == {
        "https://my-method.github.io/": "project",
        "https://sites.google.com/view/robot-demo": "project",
        "https://anonymous.4open.science/r/Tool-1A2B": "code",
        "https://huggingface.co/spaces/user/demo": "code",
        "https://huggingface.co/datasets/user/corpus": "other",
        "https://arxiv.org/abs/2401.00001": "other",
        "https://gitlab.com/group/project": "code",
        "https://doi.org/10.1000/xyz": "other",
    }


def test_unknown_hosts_take_their_kind_from_the_words_around():
    text = (
        "Project page: https://lab.example.edu/walker. Our code is at https://example.org/tool. "
        "Results: https://example.net/r1. See https://tinyurl.com/abc for supplementary material."
    )
    assert [(link.url, link.kind) for link in find_links(text)] == [
        ("https://lab.example.edu/walker", "project"),
        ("https://example.org/tool", "code"),
        ("https://example.net/r1", "other"),
        ("https://tinyurl.com/abc", "project"),
    ]


def test_bare_and_www_links():
    text = "Code at github.com/owner/repo. Demo at my-demo.github.io. Data at www.example.com/files."
    assert [(link.url, link.kind) for link in find_links(text)] == [
        ("github.com/owner/repo", "code"),
        ("my-demo.github.io", "project"),
        ("www.example.com/files", "other"),
    ]


def test_parentheses_quotes_and_markdown():
    text = (
        '(see https://github.com/a/b) and "https://example.com/x", '
        "https://en.wikipedia.org/wiki/Set_(mathematics). "
        "[github.com/c/d](https://github.com/c/d)"
    )
    assert urls(text) == [
        "https://github.com/a/b",
        "https://example.com/x",
        "https://en.wikipedia.org/wiki/Set_(mathematics)",
        "github.com/c/d",
    ]
    assert_offsets_hold(text, find_links(text))


def test_broken_urls_are_repaired_and_kept_as_written():
    text = (
        "Demo on https: //my-demo.github.io. Code: https://github.com/ owner/long-repo-name. "
        "Videos: https://sites.google. com/view/robot-demo/home"
    )
    links = find_links(text)
    assert [link.url for link in links] == [
        "https: //my-demo.github.io",
        "https://github.com/ owner/long-repo-name",
        "https://sites.google. com/view/robot-demo/home",
    ]
    assert [joined(link) for link in links] == [
        "https://my-demo.github.io",
        "https://github.com/owner/long-repo-name",
        "https://sites.google.com/view/robot-demo/home",
    ]
    assert [link.kind for link in links] == ["project", "code", "project"]
    assert repository_name(links[1]) == "long-repo-name"
    assert_offsets_hold(text, links)


def test_a_broken_url_written_again_whole_is_reported_once():
    assert urls("See https: //x.github.io and https://x.github.io.") == ["https: //x.github.io"]


def test_complete_url_is_not_joined_with_the_next_word():
    assert urls("Code: https://github.com/owner/repo/ with docs.") == ["https://github.com/owner/repo/"]


def test_not_links():
    text = (
        "Write to name@github.com. We crawl Walmart.com, e.g. product pages, i.e. 3.5 per item; "
        "version 1.2.3 of Node.js is used."
    )
    assert find_links(text) == []
    assert find_links("") == []


def test_repeated_url_is_reported_once():
    text = "[https://x.github.io/](https://x.github.io/) and again https://x.github.io."
    assert urls(text) == ["https://x.github.io/"]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "https://",
                "https: //",
                "github.com/",
                "www.",
                "a.github.io",
                "x",
                "-",
                ".",
                ")",
                "(",
                " ",
                "/",
                "]",
            ]
        ),
        max_size=30,
    ).map("".join)
)
def test_offsets_hold_on_arbitrary_text(text):
    links = find_links(text)
    assert_offsets_hold(text, links)
    assert all(link.kind in ("code", "project", "other") for link in links)
