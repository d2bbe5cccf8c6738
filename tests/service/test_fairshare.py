"""The fair line of the self-check queue, as bookkeeping: quota, round robin, the share.

The line decides from counts and states alone; these tests give it jobs and clock
values and read its choices (the real server's flood test is test_fairness.py).
"""

from __future__ import annotations

from pathlib import Path

from grader.service.fairshare import FairLine
from grader.service.selfcheck import Job


def _job(name: str, client: str) -> Job:
    return Job(name, "stat8021-a3", f"{name}.ipynb", Path(f"/nowhere/{name}"), client=client)


def _admit(line: FairLine, job: Job, now: float = 0.0) -> None:
    assert line.refusal(job.client, now) is None
    line.add(job)


def test_a_client_has_one_job_running_and_one_waiting_and_no_more() -> None:
    line = FairLine(8, share_s=30, timeout_s=300)
    a1, a2 = _job("a1", "10.0.0.1"), _job("a2", "10.0.0.1")
    _admit(line, a1)
    refused = line.refusal("10.0.0.1", 0.0)  # a1 waits: a second waiting job is refused
    assert refused is not None and refused.status == 429 and refused.code == "too_many_jobs"
    assert line.take(0.0) is a1
    a1.checking_since = 0.0
    _admit(line, a2)  # one running, one waiting
    refused = line.refusal("10.0.0.1", 100.0)
    assert refused is not None and refused.status == 429
    assert refused.retry_after_s == 200  # when a1's 300 s limit is up
    assert "one of each" in refused.message
    assert line.refusal("10.0.0.2", 100.0) is None  # another client is not affected
    assert line.take(1.0) is None  # a2 may not start while a1 runs, even with a free worker
    line.finished(a1)
    assert line.take(2.0) is a2


def test_a_free_worker_takes_the_client_served_longest_ago() -> None:
    line = FairLine(8)
    a1, a2, b1 = _job("a1", "A"), _job("a2", "A"), _job("b1", "B")
    _admit(line, a1)
    assert line.take(0.0) is a1
    _admit(line, a2)  # A's second job comes before B's first ...
    _admit(line, b1)
    assert line.position(b1) == 1 and line.position(a2) == 2
    line.finished(a1)
    assert line.take(1.0) is b1  # ... and B, never served, starts first
    assert line.take(1.0) is a2  # a second worker: A runs nothing now, so a2 may start
    assert line.position(a2) is None


def test_the_global_bound_still_holds_across_clients() -> None:
    line = FairLine(2)
    _admit(line, _job("a", "A"))
    _admit(line, _job("b", "B"))
    refused = line.refusal("C", 0.0)
    assert refused is not None and (refused.status, refused.code) == (503, "queue_full")


def test_a_job_past_its_share_is_stopped_only_for_another_client_waiting() -> None:
    line = FairLine(8, share_s=30)
    a1, a2, b1 = _job("a1", "A"), _job("a2", "A"), _job("b1", "B")
    _admit(line, a1)
    assert line.take(0.0) is a1
    a1.checking_since = 0.0
    _admit(line, a2)
    assert line.to_stop(1000.0, workers=1) is None  # only A's own job waits: A keeps going
    _admit(line, b1)
    assert line.to_stop(29.0, workers=1) is None  # not past its share yet
    assert line.to_stop(29.0, workers=2) is None  # a free worker takes b1 anyway
    assert line.to_stop(30.0, workers=1) is a1
    a1.preempted = True
    assert line.to_stop(31.0, workers=1) is None  # one stop is enough for one waiting job
    line.finished(a1)
    assert line.to_stop(31.0, workers=1) is None  # nothing runs: its thread takes b1 next
    assert line.take(32.0) is b1  # B before A's second job
    b1.checking_since = 32.0
    # A has been served and waits again: it never stops the job that took its place
    assert line.to_stop(1000.0, workers=1) is None
    c1 = _job("c1", "C")
    _admit(line, c1)
    assert line.to_stop(61.0, workers=1) is None  # a newcomer: b1 has 30 s first
    assert line.to_stop(62.0, workers=1) is b1


def test_off_per_client_every_upload_is_its_own_client_first_come_first_served() -> None:
    line = FairLine(8, per_client=False, share_s=30)
    jobs = [_job(f"a{i}", "A") for i in range(3)]
    for job in jobs:
        _admit(line, job)
    assert [line.take(0.0), line.take(0.0)] == jobs[:2]
    jobs[0].checking_since = 0.0
    assert line.to_stop(1000.0, workers=1) is None  # no share without the quota
