"""Tokens and winnowing: what a renamer changes is normalised away, the library calls and
the structure stay, and any long enough match is guaranteed a shared fingerprint."""

from __future__ import annotations

import random

from grader.similarity.winnow import Fingerprint, Token, fingerprints, kgrams, normalise, winnow

ORIGINAL = '''
def attention(q, k, v, mask=None):
    """Scaled dot-product attention."""
    d_k = q.size(-1)
    scores = q @ k.transpose(-2, -1) / math.sqrt(d_k)  # (B, h, S, S)
    if mask is not None:
        scores = scores.masked_fill(mask, float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    return weights @ v, weights
'''

RENAMED = '''
def attn(query, key, value, m=None):
    """My own docstring, nothing like the other."""
    # a comment that was not there before
    dim = query.size(-1)
    s = query @ key.transpose(-2, -1) / math.sqrt(dim)
    if m is not None:
        s = s.masked_fill(m, float("-inf"))   # blocked
    probs = torch.softmax(s, dim=-1)
    return probs @ value, probs
'''

OTHER_API = ORIGINAL.replace("masked_fill", "where").replace("torch.softmax", "F.softmax")


def texts(source: str) -> list[str]:
    return [t.text for t in normalise(source)]


def test_renaming_comments_and_docstrings_change_no_token() -> None:
    assert texts(ORIGINAL) == texts(RENAMED)
    assert {f.hash for f in fingerprints(ORIGINAL, 10, 5)} == {
        f.hash for f in fingerprints(RENAMED, 10, 5)}


def test_library_calls_and_literals_normalised_as_documented() -> None:
    tokens = texts(ORIGINAL)
    assert "masked_fill" in tokens and "softmax" in tokens and "transpose" in tokens
    assert "scores" not in tokens and "d_k" not in tokens  # the student's names
    assert "S" in tokens and "0" in tokens and "None" in tokens and "float" in tokens
    assert texts(OTHER_API) != tokens  # another library call is another approach


def test_self_attributes_are_the_students_names() -> None:
    a = texts("self.d_k = d_model // h\nout = x.view(B, S, self.d_k)\n")
    b = texts("self.head_dim = d_model // h\nout = x.view(B, S, self.head_dim)\n")
    assert a == b and "view" in a


def test_a_cell_that_does_not_tokenize_keeps_its_first_lines() -> None:
    tokens = texts("x = torch.zeros(3)\n!pip install foo\ny = (1,\n")
    assert tokens[:6] == ["N", "=", "N", ".", "zeros", "("]


def test_winnowing_guarantee_any_match_of_k_plus_w_minus_1_tokens() -> None:
    """Schleimer et al.'s guarantee, checked on random streams: a run of k + w - 1 shared
    tokens always leaves one fingerprint in both documents."""
    rng = random.Random(3)
    k, w = 6, 4
    for _ in range(200):
        shared = [f"t{rng.randrange(30)}" for _ in range(k + w - 1)]
        a = [f"a{rng.randrange(30)}" for _ in range(rng.randrange(40))]
        b = [f"b{rng.randrange(30)}" for _ in range(rng.randrange(40))]
        doc_a = [Token(t, 1) for t in a + shared + a]
        doc_b = [Token(t, 1) for t in b + shared]
        fa = {f.hash for f in winnow(kgrams(doc_a, k), w)}
        fb = {f.hash for f in winnow(kgrams(doc_b, k), w)}
        assert fa & fb
        unrelated = [Token(f"c{rng.randrange(1000)}", 1) for _ in range(40)]
        assert not fa & {f.hash for f in winnow(kgrams(unrelated, k), w)}


def test_winnow_keeps_about_two_in_w_plus_one_and_knows_its_lines() -> None:
    source = "\n".join(f"x{i} = y{i} + {i} * z" for i in range(200))
    grams = kgrams(normalise(source), 5)
    kept = winnow(grams, 4)
    assert len(kept) < len(grams)
    assert all(1 <= f.first <= f.last <= 200 for f in kept)
    rng = random.Random(1)
    hashes = [rng.getrandbits(64) for _ in range(2000)]
    density = len(winnow([Fingerprint(h, 1, 1) for h in hashes], 4)) / len(hashes)
    assert 0.3 < density < 0.5  # 2 / (w + 1) = 0.4 for random hashes
