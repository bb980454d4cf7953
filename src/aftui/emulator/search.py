"""Natural-language search over registry components (`GET /components/search`).

The service ranks components by cosine similarity of embeddings and filters
them with `similarity_threshold`. The emulator has no embedding model, so it
uses TF-IDF vectors with cosine similarity: scores are still in [0, 1], a
threshold still means "this close or closer", and results are deterministic.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable

__all__ = ["TextIndex", "tokenize"]

# Words too common to tell components apart; kept short so that words with
# meaning in this domain ("new", "every", "all") still count.
_STOP_WORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "by",
        "for",
        "from",
        "i",
        "in",
        "into",
        "is",
        "it",
        "its",
        "me",
        "my",
        "of",
        "on",
        "or",
        "that",
        "the",
        "this",
        "to",
        "was",
        "when",
        "whenever",
        "with",
        "you",
        "your",
    ]
)
_WORD = re.compile(r"[a-z0-9]+")  # so `github-new-issue` and `new_issue` split into words
_VOWEL = re.compile(r"[aeiouy]")
_UNDOUBLE = frozenset("bcdfgkmnprtv")  # "emitted" -> "emit", but "called" stays "call"


def tokenize(text: str) -> list[str]:
    """Lowercased, stemmed words of `text`, without stop words."""
    return [_stem(word) for word in _WORD.findall(text.lower()) if word not in _STOP_WORDS]


def _stem(word: str) -> str:
    """Strip common English suffixes so inflections of one word meet.

    Much lighter than Porter's stemmer, but enough to make "issues"/"issue",
    "messages"/"message" and "created"/"create"/"creating" the same term.
    """
    if word.endswith("ies") and len(word) > 4:
        word = word[:-3] + "y"
    elif word.endswith("sses"):
        word = word[:-2]
    elif word.endswith("s") and not word.endswith(("ss", "us", "is")) and len(word) > 3:
        word = word[:-1]
    for suffix in ("ing", "ed"):
        stem = word[: -len(suffix)]
        # "need" and "string" keep their ending: the stem would be too short, end in "e" or lack a vowel.
        if word.endswith(suffix) and len(stem) >= 3 and not stem.endswith("e") and _VOWEL.search(stem):
            word = stem
            if len(word) >= 4 and word[-1] == word[-2] and word[-1] in _UNDOUBLE:
                word = word[:-1]
            break
    if word.endswith("e") and len(word) > 3:
        word = word[:-1]
    return word


def _tf(terms: list[str]) -> dict[str, float]:
    """Sublinear term frequency, so a word repeated ten times is not ten times as telling."""
    return {term: 1.0 + math.log(count) for term, count in Counter(terms).items()}


def _normalized(vector: dict[str, float]) -> dict[str, float]:
    norm = math.sqrt(sum(weight * weight for weight in vector.values()))
    return {term: weight / norm for term, weight in vector.items()} if norm else {}


class TextIndex:
    """TF-IDF vectors of documents, searched by cosine similarity."""

    def __init__(self, docs: Iterable[tuple[str, str]]) -> None:
        term_counts = {key: _tf(tokenize(text)) for key, text in docs}
        self._doc_count = len(term_counts)
        document_frequency = Counter(term for tf in term_counts.values() for term in tf)
        self._idf = {term: self._smoothed_idf(df) for term, df in document_frequency.items()}
        self._vectors = {
            key: _normalized({term: weight * self._idf[term] for term, weight in tf.items()})
            for key, tf in term_counts.items()
        }
        self._postings: dict[str, list[str]] = {}  # term -> keys of the documents holding it
        for key, vector in self._vectors.items():
            for term in vector:
                self._postings.setdefault(term, []).append(key)

    def _smoothed_idf(self, document_frequency: int) -> float:
        """idf as if one extra document held every term: never zero, never divides by zero."""
        return math.log((1 + self._doc_count) / (1 + document_frequency)) + 1.0

    def search(self, query: str, *, threshold: float = 0.0, limit: int | None = None) -> list[tuple[str, float]]:
        """(key, cosine similarity) of documents sharing a term with `query`, best first.

        Only scores >= threshold are kept; equal scores are ordered by key.
        Query words no document holds still count in the query's length (with
        the idf of an unseen term), so an off-topic query scores lower.
        """
        unseen_idf = self._smoothed_idf(0)
        query_vector = _normalized(
            {term: weight * self._idf.get(term, unseen_idf) for term, weight in _tf(tokenize(query)).items()}
        )
        scores: dict[str, float] = {}
        for term, weight in query_vector.items():
            for key in self._postings.get(term, ()):
                scores[key] = scores.get(key, 0.0) + weight * self._vectors[key][term]
        ranked = sorted(
            ((key, min(score, 1.0)) for key, score in scores.items() if score >= threshold),
            key=lambda item: (-item[1], item[0]),
        )
        return ranked if limit is None else ranked[:limit]
