# A carriage return inside a string prints as \r: a raw CR in the source is a
# line end (a lone CR reads as LF), so printing it raw would change the value.
# The input below holds a raw CR LF pair inside the title, and a \r escape.
# RUN: %python -c "import sys; sys.stdout.buffer.write(b'main {\n  const %%x : f32[] = 1\n  %%p = print_tensor %%x {title = \"a\r\nb\"}\n  %%q = print_tensor %%x {title = \"c\\\\rd\"}\n}\n')" > %t.pir
# RUN: %pir opt %t.pir > %t1 && %pir opt %t1 > %t2 && diff %t1 %t2
# RUN: FileCheck %s < %t1
# CHECK: %p = print_tensor %x {title = "a\r\nb"} : f32[]
# CHECK: %q = print_tensor %x {title = "c\rd"} : f32[]
