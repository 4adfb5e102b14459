"""Runs `pir repl` on one generated input line of SIZE bytes and checks its peak
resident memory: `peak_rss.py PIR LIMIT_MIB KIND SIZE`. Prints the outcome and
exits 1 when the peak is over LIMIT_MIB. Peak memory, not time, is asserted."""
import resource
import subprocess
import sys

pir, limit_mib, kind, size = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
line = {
    "brackets": "[" * size,                               # an input that never closes
    "brackets_after_op": "%x = add " + "[" * size,        # a statement that does
    "closers": "]" * size,                                # closes too much at once
    "commas": "print " + "," * size,                      # punctuation after a command
    "string": 'print "' + "(" * size,                     # a string that never ends
}[kind]
proc = subprocess.run([pir, "repl"], input=(line + "\n").encode(), stdout=subprocess.DEVNULL,
                      stderr=subprocess.PIPE)
peak_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
# The diagnostic, if any, is located: its first line names <repl>:LINE:COL.
first = proc.stderr.decode(errors="replace").splitlines()[:1]
print("diagnostic:", first[0][:60] if first else "none")
if peak_kib > limit_mib * 1024:
    print("peak RSS %d KiB is over %d MiB" % (peak_kib, limit_mib))
    sys.exit(1)
print("peak RSS within %d MiB" % limit_mib)
