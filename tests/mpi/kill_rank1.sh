#!/bin/sh
# Started by mpirun: rank 1 is killed (SIGKILL) one second after it starts.
# usage: kill_rank1.sh CMD...
if [ "${OMPI_COMM_WORLD_RANK:-0}" = 1 ]; then (sleep 1; kill -9 $$) & fi
exec "$@"
