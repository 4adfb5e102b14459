"""Drives `pir repl` on a pseudo-terminal and presses Ctrl-C during an endless
run (tools.md §5): the run stops with a located error, the variables are as
before it and the session goes on. Prints the transcript for FileCheck.
Usage: ctrl_c.py PIR. The timeouts only keep a broken build from hanging."""
import os
import pty
import select
import sys
import tempfile
import time

PROGRAM = """h2d $s : f32[]
graph @b(%x: f32[]) -> (f32[]) {
  %y = add %x, 1
  return %y
}
var %v : f32[] = 5
main {
  %s = host_load $s
  %r = repeat @b(%s) {count = 4611686018427387904}
  copy_var_update_ %v, %r
}
feed $s = 1
write %v = 7
"""

transcript = b""


def read_until(fd, needle, start=0, limit=60.0):
    global transcript
    end = time.monotonic() + limit
    while needle not in transcript[start:]:
        left = end - time.monotonic()
        if left <= 0:
            sys.stdout.write(transcript.decode(errors="replace"))
            sys.exit("timed out waiting for %r" % needle)
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                break
            if not chunk:
                break
            transcript += chunk


def main():
    pir = sys.argv[1]
    home = tempfile.mkdtemp()
    pid, fd = pty.fork()
    if pid == 0:
        os.environ["HOME"] = home  # history goes there
        os.execv(pir, [pir, "repl"])
    read_until(fd, b"pir> ")
    for line in PROGRAM.splitlines():
        os.write(fd, line.encode() + b"\n")
    os.write(fd, b"print %v\n")
    read_until(fd, b"%v: f32[] = 7")
    os.write(fd, b"run\n")
    time.sleep(0.3)  # let the run start; an earlier Ctrl-C abandons the line instead
    os.write(fd, b"\x03")  # Ctrl-C: the terminal sends SIGINT
    read_until(fd, b"interrupted")
    after = len(transcript)
    os.write(fd, b"print %v\n")
    read_until(fd, b"%v: f32[] = 7", after)
    os.write(fd, b":quit\n")
    _, status = os.waitpid(pid, 0)
    sys.stdout.write(transcript.decode(errors="replace").replace("\r\n", "\n"))
    print("exit status", os.waitstatus_to_exitcode(status))


main()
