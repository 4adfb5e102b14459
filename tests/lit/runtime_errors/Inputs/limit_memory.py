# Runs a command with its address space capped at argv[1] bytes, so that the
# system refuses allocations (out-of-memory tests).
import os, resource, sys
limit = int(sys.argv[1])
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
os.execv(sys.argv[2], sys.argv[2:])
