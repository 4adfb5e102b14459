#!/bin/sh
# Started by mpirun: rank 1 is killed (SIGKILL) once it has computed for half a
# second of CPU time (so the job is past its start, and the others wait for it).
# usage: kill_rank1.sh CMD...
if [ "${OMPI_COMM_WORLD_RANK:-0}" = 1 ]; then
  pid=$$
  (
    while [ -r "/proc/$pid/stat" ] && [ "$(sed 's/.*) //' "/proc/$pid/stat" | cut -d' ' -f12)" -lt 50 ]; do sleep 0.1; done
    kill -9 "$pid"
  ) &
fi
exec "$@"
