"""TF-IDF search of registry components by natural-language query."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from aftui.emulator.search import TextIndex, tokenize

# key + name + description, as the emulator would index registry components.
DOCS = [
    ("github-new-issue", "github-new-issue New Issue. Emit new event when an issue is created in a GitHub repository."),
    ("github-new-issue-comment", "github-new-issue-comment New Issue Comment. Emit new event when a comment is added to an issue or pull request."),
    ("github-create-issue", "github-create-issue Create Issue. Create a new issue in a GitHub repo."),
    ("github-new-commit", "github-new-commit New Commit. Emit new event when commits are pushed to a branch."),
    ("gitlab-new-issue", "gitlab-new-issue New Issue. Emit new event when an issue is opened in a GitLab project."),
    ("slack-new-message-in-channels", "slack-new-message-in-channels New Message In Channels. Emit new event when a message is posted to one or more channels."),
    ("slack-send-message", "slack-send-message Send Message. Send a message to a user, group, private channel or public channel."),
    ("google_sheets-new-row-added", "google_sheets-new-row-added New Row Added. Emit new event each time a row or rows are added to the bottom of a spreadsheet."),
    ("stripe-new-payment", "stripe-new-payment New Payment. Emit new event on each new payment."),
    ("http-new-requests", "http-new-requests New Requests. Get a URL and emit the full HTTP event on every request."),
]  # fmt: skip


@pytest.fixture(scope="module")
def index() -> TextIndex:
    return TextIndex(DOCS)


def keys(results: list[tuple[str, float]]) -> list[str]:
    return [key for key, _ in results]


def test_tokenizer_splits_lowercases_stems_and_drops_stop_words() -> None:
    assert tokenize("GitHub-new_issue: the Issues GET created") == ["github", "new", "issu", "issu", "get", "creat"]
    assert tokenize("messages") == tokenize("message")
    assert tokenize("created") == tokenize("create") == tokenize("creating")
    assert tokenize("emitted") == tokenize("emit")
    assert tokenize("string") == ["string"]  # not "str": the stem would have no vowel


def test_new_issue_in_github_ranks_github_new_issue_first(index: TextIndex) -> None:
    results = index.search("new issue in github")
    assert results[0][0] == "github-new-issue"
    assert set(keys(results[:4])) >= {"github-create-issue", "gitlab-new-issue"}
    assert "stripe-new-payment" not in keys(results[:4])


def test_plural_and_tense_still_match(index: TextIndex) -> None:
    assert index.search("messages posted in slack channels")[0][0] == "slack-new-message-in-channels"
    assert index.search("when rows get added to google sheets")[0][0] == "google_sheets-new-row-added"


def test_scores_are_cosine_similarities_best_first(index: TextIndex) -> None:
    results = index.search("send a slack message")
    scores = [score for _, score in results]
    assert scores == sorted(scores, reverse=True)
    assert all(0.0 < score <= 1.0 for score in scores)
    assert results[0][0] == "slack-send-message"


def test_identical_text_scores_one() -> None:
    only = TextIndex([("a", "Create Issue"), ("b", "Send message")])
    assert only.search("create issue") == [("a", pytest.approx(1.0))]


def test_threshold_filters_and_limit_caps(index: TextIndex) -> None:
    everything = index.search("new issue in github")
    cut = everything[2][1]
    assert index.search("new issue in github", threshold=cut) == [r for r in everything if r[1] >= cut]
    assert index.search("new issue in github", threshold=1.0) == []
    assert index.search("new issue in github", limit=2) == everything[:2]


def test_documents_sharing_no_term_are_left_out(index: TextIndex) -> None:
    assert "stripe-new-payment" not in keys(index.search("github issue"))
    assert index.search("kubernetes pods") == []


def test_unknown_query_words_lower_the_score(index: TextIndex) -> None:
    focused = dict(index.search("payment"))["stripe-new-payment"]
    diluted = dict(index.search("payment refund dispute"))["stripe-new-payment"]
    assert diluted < focused


@pytest.mark.parametrize("query", ["", "   ", "the and of to", "!!! ---"])
def test_empty_or_stop_word_only_query_returns_nothing(index: TextIndex, query: str) -> None:
    assert index.search(query) == []


def test_ties_are_broken_by_key() -> None:
    tied = TextIndex([("zeta", "new issue"), ("alpha", "new issue"), ("mid", "new issue")])
    assert keys(tied.search("issue")) == ["alpha", "mid", "zeta"]


def test_empty_index_and_empty_documents() -> None:
    assert TextIndex([]).search("anything") == []
    assert TextIndex([("blank", ""), ("a", "issue")]).search("issue") == [("a", pytest.approx(1.0))]


def test_docs_can_be_any_iterable() -> None:
    generated = TextIndex((key, text) for key, text in DOCS)
    assert generated.search("new issue in github") == TextIndex(DOCS).search("new issue in github")


@given(query=st.text(max_size=40))
def test_any_query_gives_ranked_scores_in_range(query: str) -> None:
    results = TextIndex(DOCS).search(query)
    assert all(0.0 < score <= 1.0 for _, score in results)
    assert results == sorted(results, key=lambda item: (-item[1], item[0]))
