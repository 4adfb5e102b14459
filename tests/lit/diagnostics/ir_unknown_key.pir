# Unknown IR options are errors.
# RUN: not %pir check %s 2>&1 | FileCheck %s
# CHECK: {{.*}}ir_unknown_key.pir:4:5: error: ir: unknown option 'replicas' (known: replication, num_host_transfers, ipus, tiles_per_ipu, tile_memory, io_tiles, seed)
ir {replicas = 2}
