"""The background part writer: one write at a time, in order, its errors
raised in the caller's thread; an error in the run lets the write in flight finish."""
import threading
import time

import pytest

from balance.analysis.part_writer import PartWriter
from balance.simcore.errors import BalanceError


def test_writes_run_one_at_a_time_in_order_off_the_callers_thread():
    done, threads, busy = [], set(), threading.Lock()

    def write(k):
        def run():
            assert busy.acquire(blocking=False), "two writes at once"
            time.sleep(0.01)
            threads.add(threading.get_ident())
            done.append(k)
            busy.release()
        return run

    with PartWriter() as w:
        for k in range(5):
            w.submit(write(k))
    assert done == [0, 1, 2, 3, 4] and threading.get_ident() not in threads


def disk_full():
    raise BalanceError("--out: cannot write a part (No space left on device)")


def test_a_failed_write_is_raised_at_the_next_submit_and_the_next_write_is_not_started():
    started = []
    with pytest.raises(BalanceError, match="No space left"), PartWriter() as w:
        w.submit(disk_full)
        w.submit(lambda: started.append(1))
    assert started == []


def test_a_failed_last_write_is_raised_when_the_block_ends():
    with pytest.raises(BalanceError, match="No space left"), PartWriter() as w:
        w.submit(disk_full)


def test_an_error_in_the_run_lets_the_write_in_flight_finish_and_is_the_one_raised():
    done = []

    def slow():
        time.sleep(0.05)
        done.append(1)

    with pytest.raises(KeyError), PartWriter() as w:
        w.submit(slow)
        raise KeyError("invariant broken")
    assert done == [1]
