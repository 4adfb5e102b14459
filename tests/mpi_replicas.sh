#!/bin/sh
# Runs every replica golden (tests/lit/replicas, replicated samples and tutorial steps) under `mpirun -np P` for each P
# given and compares stdout, the exit status and the first diagnostic line byte
# for byte with the single-process run (runtime.md §5: identical output), and
# the NPY files the program saves.
# Files whose replica count P does not divide are skipped for that P.
# usage: mpi_replicas.sh PIR MPIRUN SOURCE_DIR P...
set -u
pir=$1 mpirun=$2 src=$3
shift 3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# mpirun refuses root unless told twice (flag and environment); the user's
# own command needs neither when not root.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
python3 "$src/tests/lit/replicas/Inputs/call_chain.py" 2000 > "$work/call_chain.pir"
failures=0 compared=0
# Plus every replicated sample and tutorial step: among them data-parallel
# training with autodiff (samples/train_mlp_data_parallel.pir), one process
# against one per replica.
replicated_programs=$(grep -l 'replication *= *[0-9]' "$src"/samples/*.pir "$src"/docs/tutorial/*.pir)
for file in "$src"/tests/lit/replicas/*.pir "$src/tests/lit/session/replicas.pir" "$work/call_chain.pir" $replicated_programs; do
  replicas=$(sed -n 's/.*replication *= *\([0-9][0-9]*\).*/\1/p' "$file" | head -n 1)
  replicas=${replicas:-1}
  # Each run works on its own copy: files a program saves land in $work, and
  # diagnostics name the same path in both runs.
  name=$(basename "$file")
  [ "$file" = "$work/$name" ] || cp "$file" "$work/$name"
  file="$work/$name"
  rm -f "$work"/*.npy
  (cd "$work" && "$pir" run "$file" > single.out 2> single.err; echo $? > single.rc)
  [ -n "$(ls "$work"/*.npy 2> /dev/null)" ] && cat "$work"/*.npy > "$work/single.saved" || : > "$work/single.saved"
  for p in "$@"; do
    [ $((replicas % p)) -eq 0 ] && [ "$replicas" -ge "$p" ] || continue
    rm -f "$work"/*.npy
    (cd "$work" && "$mpirun" --allow-run-as-root --oversubscribe -np "$p" "$pir" run "$file" > mpi.out 2> mpi.err
     echo $? > mpi.rc)
    [ -n "$(ls "$work"/*.npy 2> /dev/null)" ] && cat "$work"/*.npy > "$work/mpi.saved" || : > "$work/mpi.saved"
    compared=$((compared + 1))
    label="$name -np $p"
    if ! cmp -s "$work/single.out" "$work/mpi.out"; then
      echo "FAIL $label: stdout differs"; diff "$work/single.out" "$work/mpi.out" | head -n 10; failures=$((failures + 1))
    elif ! cmp -s "$work/single.saved" "$work/mpi.saved"; then
      echo "FAIL $label: saved files differ"; failures=$((failures + 1))
    elif [ "$(cat "$work/single.rc")" = 0 ] && [ "$(cat "$work/mpi.rc")" != 0 ]; then
      echo "FAIL $label: exit status $(cat "$work/mpi.rc")"; head -n 5 "$work/mpi.err"; failures=$((failures + 1))
    elif [ "$(cat "$work/single.rc")" != 0 ] && [ "$(head -n 1 "$work/single.err")" != "$(head -n 1 "$work/mpi.err")" ]; then
      echo "FAIL $label: diagnostic differs"; head -n 1 "$work/single.err"; head -n 3 "$work/mpi.err"
      failures=$((failures + 1))
    else
      echo "ok   $label"
    fi
  done
done
echo "$compared comparisons, $failures failures"
[ "$compared" -gt 0 ] && [ "$failures" -eq 0 ]
