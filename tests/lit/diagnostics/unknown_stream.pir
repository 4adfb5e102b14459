# Streams are declared before they are used.
# RUN: not %pir check %s 2>&1 | FileCheck %s
# CHECK: {{.*}}unknown_stream.pir:4:16: error: host_load: unknown stream or remote buffer $nope
%x = host_load $nope
