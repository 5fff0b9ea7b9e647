"""A child's stderr on a pseudo-terminal, read as it comes (progress lines appear only on a tty)."""
import os
import pty
import select
import time


class PtyStderr:
    def __init__(self):
        self.master, self.slave = pty.openpty()
        self.chunks = []

    def child_started(self):
        """Closes our copy of the child's end, so reads end when the child does."""
        os.close(self.slave)

    def drain(self, timeout):
        """Reads what the child wrote within timeout seconds (keeps it in chunks)."""
        r, _, _ = select.select([self.master], [], [], timeout)
        if r:
            try:
                self.chunks.append(os.read(self.master, 65536).decode(errors="replace"))
            except OSError:  # the child has gone: the pty reports EIO
                time.sleep(timeout)

    def text(self):
        return "".join(self.chunks)

    def close(self):
        os.close(self.master)
