# The command line is checked before anything runs (exit status 2, naming the
# option): a --feed file that cannot be read, a --save, --json or --timeline
# target in a folder that does not exist. A --save that names nothing in the
# program fails before the first run (exit status 1: the program has no such
# name), so no output of the run appears.
# RUN: %python %S/Inputs/status.py 2 %pir run %s --feed x=%t.missing.npy
# RUN: not %pir run %s --feed x=%t.missing.npy 2>&1 | FileCheck %s --check-prefix=FEED
# FEED: pir: error: --feed x={{.*}}missing.npy: cannot read {{.*}}missing.npy: No such file or directory
# FEED-NEXT: usage: pir run FILE
# RUN: %python %S/Inputs/status.py 2 %pir run %s --save y=%t.nodir/y.npy
# RUN: not %pir run %s --save y=%t.nodir/y.npy 2>&1 | FileCheck %s --check-prefix=SAVEDIR
# SAVEDIR: pir: error: --save y={{.*}}nodir/y.npy: cannot write into {{.*}}nodir: No such file or directory
# RUN: %python %S/Inputs/status.py 2 %pir run %s --profile --json=%t.nodir/p.json
# RUN: %python %S/Inputs/status.py 2 %pir profile %s --timeline=%t.nodir/p.json
# RUN: %python %S/Inputs/status.py 1 %pir run %s --save nope=%t.nope.npy
# RUN: not %pir run %s --save nope=%t.nope.npy > %t.out 2> %t.err
# RUN: FileCheck %s --check-prefix=SAVENAME < %t.err
# RUN: count 0 < %t.out
# SAVENAME: pir: error: --save nope={{.*}}: no stream $nope and no main-graph value %nope
#
# `pir profile` takes --feed and --save as run does; `run --profile` takes
# --json and --timeline as profile does.
# RUN: %pir profile %s --feed x=%S/Inputs/batch2.npy --save y=%t.y.npy | FileCheck %s --check-prefix=PROFILE
# PROFILE: $y: f32[2] = [1.5, -3]
# PROFILE: cycles per run:
# RUN: %python -c "import struct, sys; d = open(sys.argv[1], 'rb').read(); print(struct.unpack('<2f', d[-8:]))" %t.y.npy | FileCheck %s --check-prefix=RAW
# RAW: (1.5, -3.0)
# RUN: %pir run %s --profile --json=%t.json --timeline=%t.trace.json > %t.run.out 2> %t.run.err
# RUN: FileCheck %s --check-prefix=ERR < %t.run.err
# ERR: cycles per run:
# RUN: %python -c "import json, sys; print(json.load(open(sys.argv[1]))['schema'], 'traceEvents' in json.load(open(sys.argv[2])))" %t.json %t.trace.json | FileCheck %s --check-prefix=JSON
# JSON: {{.+}} True
#
# A run that shows nothing says how to see values.
# RUN: %pir run %S/Inputs/no_output.pir 2>&1 | FileCheck %s --check-prefix=QUIET
# QUIET: pir: note: the run printed nothing: add `print %NAME` or `print $STREAM` after `run`, or pass
# QUIET-NEXT: --save NAME=OUT.npy
# RUN: %pir run %S/Inputs/no_output.pir --save b=%t.b.npy 2>&1 | count 0
h2d $x : f32[2]
d2h $y : f32[2]
main {
  %x = host_load $x
  %y = mul %x, 3
  host_store $y, %y
}
feed $x = [1, 1]
run
print $y
