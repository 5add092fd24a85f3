"""The desktop app driven through `lodestone --remote` (app/desktop/remote_control.hpp), one line at a time, as a
script or a person at a terminal would: used by scripts/remote_random.py and tests/desktop/remote_requests.py.

Answers are read on a thread of their own, so that a missing answer is a timeout, never a hang of the caller.
"""
import os
import queue
import re
import shutil
import subprocess
import sys
import threading
import time

# Lines the app prints on its own, not as the answer to the command just sent: a run that stopped on a failed check,
# and the late answer of a step estimated to take over a minute (answered "running: ..." at once).
STEP_ANSWER = re.compile(r"^(ok (step|advance) \d+ now \d+|stopped: (step \d+|advance \S+ s) (at step \d+ after \d+ "
                         r"steps|not begun) \(.*\)|refused: (step|advance)\b.*failed check)$")


def is_step_answer(line):
    return bool(STEP_ANSWER.match(line))


class RemoteApp:
    def __init__(self, app, arguments, cwd=None):
        self.process = subprocess.Popen([app, "--remote"] + list(arguments), stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1,
                                        cwd=cwd, errors="replace")
        self.lines = queue.Queue()
        self.errors = []
        self.detached = False  # a step answered "running: ..." whose own answer is still to come
        threading.Thread(target=self._read, args=(self.process.stdout, self.lines), daemon=True).start()
        threading.Thread(target=self._read_errors, daemon=True).start()

    @staticmethod
    def _read(stream, lines):
        for line in stream:
            lines.put((time.monotonic(), line.rstrip("\n")))
        lines.put((time.monotonic(), None))  # the app closed its output

    def _read_errors(self):
        for line in self.process.stderr:
            self.errors.append(line.rstrip("\n"))

    def send(self, line):
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def line(self, timeout):
        """The next line the app prints, as (arrival time, text); (None, None) after `timeout` seconds, (t, None) when
        the app closed its output."""
        try:
            return self.lines.get(timeout=timeout)
        except queue.Empty:
            return None, None

    def answer(self, timeout, notes=None):
        """The next answer: lines the app prints on its own (a failed check, a long step's late answer) are skipped
        and appended to `notes`. Returns (arrival time, text), or (None, None) after `timeout` seconds."""
        end = time.monotonic() + timeout
        while True:
            arrived, text = self.line(max(0.0, end - time.monotonic()))
            if text is None:
                return arrived, text
            if text.startswith("stopped: ") and not is_step_answer(text):
                notes is not None and notes.append(text)
                continue
            if self.detached and is_step_answer(text):
                self.detached = False
                notes is not None and notes.append(text)
                continue
            if text.startswith("running: "):
                self.detached = True
            return arrived, text

    def ask(self, command, timeout=30.0, notes=None):
        self.send(command)
        return self.answer(timeout, notes)[1]

    def close(self, timeout=30.0):
        """Sends `quit` (if the app still runs) and returns its exit code, killing it after `timeout` seconds."""
        if self.process.poll() is None:
            try:
                self.send("quit")
            except BrokenPipeError:
                pass
        try:
            return self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            return None


def run_under_xvfb_without_display(name):
    """Without $DISPLAY, runs this script again under xvfb-run (never returns then); with one, returns at once."""
    if os.environ.get("DISPLAY"):
        return
    if not shutil.which("xvfb-run"):
        raise SystemExit(f"{name}: no DISPLAY and no xvfb-run")
    os.execvp("xvfb-run", ["xvfb-run", "-a", "-s", "-screen 0 1280x800x24 -nolisten tcp -noreset", sys.executable] + sys.argv)


def display_environment():
    """The environment with a display: $DISPLAY when set; otherwise the caller should run under xvfb-run."""
    env = dict(os.environ)
    if not env.get("DISPLAY"):
        raise SystemExit("no DISPLAY: run under xvfb-run -a -s '-screen 0 1280x800x24 -noreset'")
    return env
