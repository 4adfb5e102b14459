# status.py EXPECTED CMD ARGS...: runs CMD and fails unless it exits with EXPECTED.
import subprocess
import sys

expected = int(sys.argv[1])
status = subprocess.run(sys.argv[2:], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                        stderr=subprocess.DEVNULL).returncode
if status != expected:
    print(f"exit status {status}, expected {expected}: {' '.join(sys.argv[2:])}", file=sys.stderr)
    sys.exit(1)
