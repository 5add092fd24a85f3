#!/usr/bin/python3
"""Every request ends with an answer (issue 43): the real app under Xvfb, driven through `lodestone --remote`.

  - `step 99999999` (hours of work) is answered at once with its estimate ("running: ..."); `pause` ends it with one
    answer ("stopped: step 99999999 at step S after D steps (paused)") before its "ok pause", and the next `status`
    is answered within 1 s at step S;
  - the same step ended by the space key pressed in the window (the `key` verb sends it as the keyboard would);
  - a `pause` sent while a step of seconds runs (one answered when done) is read and acted on at once, the step gets
    exactly one answer;
  - `advance 1e9s` answered with its estimate; `quit` while it runs exits 0, and `quit` sent right behind a long step
    (before it was answered) too.

    tests/desktop/remote_requests.py APP SCENE    (with $DISPLAY; ctest runs it under xvfb-run)
"""
import os
import re
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
from remote_app import RemoteApp, display_environment, is_step_answer  # noqa: E402

failures = []


def check(condition, what):
    print(("ok    " if condition else "FAIL  ") + what)
    if not condition:
        failures.append(what)


def start(app, scene):
    remote = RemoteApp(app, ["--paused", "--size", "640x400", "--preset", scene])
    check(remote.ask("sync", timeout=60) == "ok sync", "the app starts and answers sync")
    return remote


def status(remote):
    """`status` answered within 1 s: its fields as a dict."""
    sent = time.monotonic()
    remote.send("status")
    arrived, text = remote.answer(5.0)
    check(text is not None and text.startswith("status ") and arrived - sent < 1.0,
          f"status answered within 1 s ({text!r} after {(arrived or sent) - sent:.3f} s)")
    return dict(word.split("=", 1) for word in (text or "").split()[1:] if "=" in word)


def long_step_then(remote, stop_command, stop_answer):
    """Sends a step of hours, then `stop_command` once its estimate came; returns the step's one final answer."""
    running = remote.ask("step 99999999")
    check(running is not None and running.startswith("running: step 99999999: about "),
          f"a step of hours is answered at once with its estimate ({running!r})")
    time.sleep(0.5)
    notes = []
    remote.send(stop_command)
    answers = []
    end = time.monotonic() + 10.0
    while time.monotonic() < end and (len(answers) < 1 or not notes):
        arrived, text = remote.answer(max(0.0, end - time.monotonic()), notes)
        if text is None:
            break
        answers.append(text)
    check(answers[:1] == [stop_answer], f"{stop_command!r} answered {stop_answer!r} ({answers!r})")
    finals = [n for n in notes if is_step_answer(n)]
    check(len(finals) == 1, f"the step got exactly one answer ({finals!r})")
    return finals[0] if finals else ""


def stopped_at(answer):
    m = re.match(r"stopped: step 99999999 at step (\d+) after (\d+) steps \(paused\)$", answer)
    check(m is not None, f"the step says where it stopped and why ({answer!r})")
    return int(m.group(1)) if m else -1


def main(app, scene):
    display_environment()

    # A pause sent on the remote.
    remote = start(app, scene)
    step = stopped_at(long_step_then(remote, "pause", "ok pause"))
    fields = status(remote)
    check(fields.get("step") == str(step) and fields.get("running") == "0" and "stepping" not in fields,
          f"paused at the step the answer named ({fields!r})")
    check(remote.ask("step 10") == f"ok step 10 now {step + 10}", "the next step goes on from there")

    # The space key pressed in the window.
    step = stopped_at(long_step_then(remote, "key space", "ok key space"))
    fields = status(remote)
    check(fields.get("step") == str(step) and fields.get("running") == "0", f"the space key paused it ({fields!r})")

    # A pause sent while a step of seconds runs (answered when done, not at once): read and acted on at once.
    notes = []
    remote.send("step 100000")
    time.sleep(0.5)
    remote.send("pause")
    answers = []
    end = time.monotonic() + 10.0
    while time.monotonic() < end and "ok pause" not in answers:
        arrived, text = remote.answer(max(0.0, end - time.monotonic()), notes)
        if text is None:
            break
        answers.append(text)
    finals = [a for a in answers + notes if is_step_answer(a)]
    check(len(finals) == 1 and finals[0].startswith("stopped: step 100000 at step "),
          f"a pause during a step of seconds: one answer for the step ({answers!r}, {notes!r})")
    check(answers[-1:] == ["ok pause"], "then the pause's")
    status(remote)

    # advance 1e9s: the estimate, then quit while it runs.
    running = remote.ask("advance 1e9s")
    check(running is not None and running.startswith("running: advance 1e9s: about ") and "years left" in running,
          f"advance 1e9s is answered with its estimate ({running!r})")
    status(remote)
    start_quit = time.monotonic()
    code = remote.close(timeout=20)
    check(code == 0, f"quit during a long advance exits 0 ({code!r}, {time.monotonic() - start_quit:.2f} s)")

    # quit right behind a long step, before its answer.
    remote = start(app, scene)
    remote.send("step 99999999\nquit")
    start_quit = time.monotonic()
    try:
        code = remote.process.wait(timeout=20)
    except Exception:
        remote.process.kill()
        code = None
    check(code == 0, f"quit sent behind a long step exits 0 ({code!r}, {time.monotonic() - start_quit:.2f} s)")

    print(f"{len(failures)} failed" if failures else "all passed")
    return 1 if failures else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2]))
