"""Device work runs without the GIL (issue 28: a worker thread's gvf() froze the main thread,
as it would napari's or any Qt GUI's)."""
import threading

import gvflab


def test_main_thread_runs_while_a_worker_solves():
    """The worker's progress callback is a builtin (list.append), so while gvf() runs the
    worker executes no Python bytecode at all between its first and last report: with the GIL
    held the main thread could never observe 1 <= len(seen) < total; released, it spins freely
    there. Counted, not timed; a few attempts absorb a machine too loaded to schedule us."""
    image = gvflab.phantom("blob", 128)
    gvflab.gvf(image, iterations=2)  # the context and its kernels exist before we count
    total = 40
    for _ in range(5):
        seen = []
        worker = threading.Thread(target=gvflab.gvf, args=(image,), kwargs=dict(
            iterations=total * 25, solver="euler", progress=seen.append, progress_every=25))
        ticks = 0
        worker.start()
        while worker.is_alive():
            if 1 <= len(seen) < total:
                ticks += 1
        worker.join()
        assert len(seen) == total  # the worker finished its run
        if ticks >= 1000:
            break
    assert ticks >= 1000, f"the main thread ran {ticks} times during the device work"


def test_threads_on_one_device_take_turns():
    image = gvflab.phantom("u", 48)
    expected, _ = gvflab.gvf(image, iterations=100)
    results = [None] * 4

    def run(i):
        results[i] = gvflab.gvf(image, iterations=100)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for field, report in results:
        assert (field == expected).all() and report.iterations == 100
