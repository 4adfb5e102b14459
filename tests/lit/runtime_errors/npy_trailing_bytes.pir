# An NPY file is read header first, and only the bytes its shape needs: extra
# bytes after the data are an error, found without reading them (3 GB here,
# a sparse file, so the test costs nothing).
# RUN: rm -rf %t && mkdir -p %t
# RUN: %python -c "import struct,sys; h=\"{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }\"; h=h+' '*((64-(10+len(h)+1)%64)%64)+'\n'; open(sys.argv[1],'wb').write(b'\x93NUMPY\x01\x00'+struct.pack('<H',len(h))+h.encode()+struct.pack('<2f',1,2))" %t/a.npy
# RUN: cp %t/a.npy %t/big.npy && truncate -s 3G %t/big.npy
# RUN: cp %s %t/test.pir && not %pir run %t/test.pir 2>&1 | FileCheck %s
var %a : f32[2] = load("a.npy")
var %b : f32[2] = load("big.npy")
main {}
print %a
# CHECK: test.pir:9:{{[0-9]+}}: error: {{.*}}big.npy: file has 3221225336 bytes after the data (shape [2] needs 8)
