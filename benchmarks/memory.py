"""Peak memory of a process and all its descendants, sampled in a thread, for the benchmarks."""

from __future__ import annotations

import contextlib
import threading
import time

import psutil

SAMPLE_SECONDS = 0.2
# PSS every tenth sample only: reading it walks a process's page tables (40 ms for a 3 GB process),
# so sampling it every 0.2 s took a quarter of this 2-core machine from the build it measured. RSS
# is cheap to read (14 us) and sampled every time.
PSS_EVERY = 10


class MemorySampler:
    """Memory of a process (this one unless `root`, a process id, is given) and all its
    descendants, sampled in a thread: (epoch seconds, RSS bytes, PSS bytes). RSS counts a page
    shared by several processes (the step processes are forked from one server) once per process;
    PSS divides it among them, so its sum is the memory in use."""

    def __init__(self, root: int | None = None, interval: float = SAMPLE_SECONDS) -> None:
        self.interval = interval
        self.samples: list[tuple[float, int, int]] = []
        self._process = psutil.Process(root)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _totals(self, with_pss: bool) -> tuple[int, int]:
        """RSS and PSS of the processes; PSS is 0 unless asked for."""
        rss = pss = 0
        try:
            processes = [self._process, *self._process.children(recursive=True)]
        except psutil.NoSuchProcess:  # the root ended: nothing left to count
            return 0, 0
        for process in processes:
            with contextlib.suppress(psutil.Error):  # the child ended between listing and reading
                if with_pss:
                    memory = process.memory_full_info()
                    pss += memory.pss
                else:
                    memory = process.memory_info()
                rss += memory.rss
        return rss, pss

    def _run(self) -> None:
        count = 0
        while True:
            self.samples.append((time.time(), *self._totals(with_pss=count % PSS_EVERY == 0)))
            count += 1
            if self._stop.wait(self.interval):
                return

    def __enter__(self) -> MemorySampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def peak(self, start: float = 0.0, end: float = float("inf")) -> tuple[int, int]:
        """The highest RSS and PSS samples in [start, end], widened by one interval of each (RSS's
        and PSS's) so that a short step gets one of each."""

        def highest(column: int, margin: float) -> int:
            low, high = start - margin, end + margin
            return max((sample[column] for sample in self.samples if low <= sample[0] <= high), default=0)

        return highest(1, self.interval), highest(2, self.interval * PSS_EVERY)
