"""Settings from the environment, and the token buckets behind the rate limit."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.service.ratelimit import TokenBuckets
from grader.service.settings import Settings


def test_environment_then_options_override_the_defaults() -> None:
    env = {"GRADER_SERVICE_PORT": "9001", "GRADER_SERVICE_MAX_UPLOAD_BYTES": "1000",
           "GRADER_SERVICE_COMPUTE_TIMEOUT_S": "2.5", "GRADER_SERVICE_TOKEN": "t0k",
           "GRADER_SERVICE_PACKS_DIR": "/srv/packs", "GRADER_SERVICE_HOST": ""}
    s = Settings.from_env(env, port=9002, host=None)
    assert (s.port, s.max_upload_bytes, s.compute_timeout_s, s.token) == (9002, 1000, 2.5, "t0k")
    assert s.packs_dir == Path("/srv/packs") and s.host == "127.0.0.1"


def test_an_unreadable_variable_is_named() -> None:
    with pytest.raises(ValueError, match="GRADER_SERVICE_PORT: cannot read 'eighty'"):
        Settings.from_env({"GRADER_SERVICE_PORT": "eighty"})


def test_a_bucket_allows_its_burst_then_refills_at_its_rate() -> None:
    buckets = TokenBuckets(per_minute=60, burst=2)  # one token a second
    assert buckets.take("a", now=0.0) == 0 and buckets.take("a", now=0.0) == 0
    assert buckets.take("a", now=0.0) == pytest.approx(1.0)
    assert buckets.take("b", now=0.0) == 0  # clients are counted apart
    assert buckets.take("a", now=1.0) == 0


def test_the_buckets_forget_the_longest_idle_client_when_full() -> None:
    buckets = TokenBuckets(per_minute=60, burst=1, max_clients=2)
    buckets.take("a", now=0.0)
    buckets.take("b", now=1.0)
    buckets.take("c", now=2.0)
    assert set(buckets._buckets) == {"b", "c"}
