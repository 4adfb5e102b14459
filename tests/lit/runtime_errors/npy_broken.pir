# Broken or unsupported NPY files are errors that say which problem, located
# at the load(...) that names them.
# RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.pir
# RUN: %python -c "import struct; h=b\"{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }\"; h+=b' '*(118-len(h))+b'\n'; open('%t/data.npy','wb').write(b'\x93NUMPY\x01\x00'+struct.pack('<H',len(h))+h+b'\0'*8)"
# RUN: not %pir run %t/prog.pir 2>&1 | FileCheck %s --check-prefix=BIG
# RUN: %python -c "import struct; h=b\"{'descr': '<f4', 'fortran_order': True, 'shape': (2,), }\"; h+=b' '*(118-len(h))+b'\n'; open('%t/data.npy','wb').write(b'\x93NUMPY\x01\x00'+struct.pack('<H',len(h))+h+b'\0'*8)"
# RUN: not %pir run %t/prog.pir 2>&1 | FileCheck %s --check-prefix=FORTRAN
# RUN: %python -c "import struct; h=b\"{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }\"; h+=b' '*(118-len(h))+b'\n'; open('%t/data.npy','wb').write(b'\x93NUMPY\x01\x00'+struct.pack('<H',len(h))+h+b'\0'*5)"
# RUN: not %pir run %t/prog.pir 2>&1 | FileCheck %s --check-prefix=TRUNC
# RUN: %python -c "open('%t/data.npy','wb').write(b'not an npy file at all')"
# RUN: not %pir run %t/prog.pir 2>&1 | FileCheck %s --check-prefix=MAGIC
var %w : f32[2] = load("data.npy")
run
# BIG: prog.pir:[[@LINE-2]]:{{[0-9]+}}: error: {{.*}}big-endian
# FORTRAN: prog.pir:[[@LINE-3]]:{{[0-9]+}}: error: {{.*}}Fortran
# TRUNC: prog.pir:[[@LINE-4]]:{{[0-9]+}}: error: {{.*}}truncated
# MAGIC: prog.pir:[[@LINE-5]]:{{[0-9]+}}: error: {{.*}}not an NPY file
