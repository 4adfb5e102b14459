# Deterministic profile figures of the samples (the same on every machine).
# repeat_batches by hand: the body is host_load (f32[2], 8 bytes: 2000 + 1),
# mul and add on tile 0 (50 + ceil(2/6) * 6 = 56 each), host_store (2001),
# one sync each: 2151 + 206 + 206 + 2151 = 4714 per iteration, 3 iterations.
# RUN: %pir profile %S/../../../samples/repeat_batches.pir | FileCheck %s --check-prefix=REPEAT
# RUN: %pir profile %S/../../../samples/linear.pir | FileCheck %s --check-prefix=LINEAR
# RUN: %pir profile %S/../../../samples/training_loop.pir | FileCheck %s --check-prefix=TRAIN
# RUN: %pir profile %S/../../../samples/linear.pir --json=%t.json > /dev/null && %python -c "import json,sys; d=json.load(open(sys.argv[1])); print(d['schema'], d['cycles']['elapsed'], d['cycles']['syncs'], d['memory']['max_peak_bytes'], [(o['op'], o['executions'], o['total']) for o in d['ops']])" %t.json | FileCheck %s --check-prefix=JSON
# REPEAT: memory: 1 tile holds data; the fullest (peak 2228 of 638976 bytes, 0.35%):
# REPEAT: cycles per run: 14142 (10.633 us)
# REPEAT: sync{{ +}}1800 {{.*}}(12 syncs)
# REPEAT:       6453      3         0         0      450      6003  %x = host_load in @step
# REPEAT:        618      3       168         0      450         0  %sx = mul in @step
# LINEAR: cycles per run: 4714 (3.544 us)
# LINEAR: sync{{ +}}600 {{.*}}(4 syncs)
# TRAIN: cycles per run: 15790 (11.872 us)
# TRAIN: sync{{ +}}3000 {{.*}}(20 syncs)
# JSON: pir-profile/1 4714 4 2296 [('host_load', 1, 2152), ('call', 1, 0), ('matmul', 1, 205), ('add', 1, 206), ('host_store', 1, 2151)]
