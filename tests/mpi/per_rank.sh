#!/bin/sh
# Started by mpirun: runs CMD in directory DIR0 on rank 0 and DIR1 on the
# others, so that each process sees its own files.
# usage: per_rank.sh DIR0 DIR1 CMD...
d0=$1 d1=$2
shift 2
if [ "${OMPI_COMM_WORLD_RANK:-0}" = 0 ]; then cd "$d0"; else cd "$d1"; fi || exit 2
exec "$@"
