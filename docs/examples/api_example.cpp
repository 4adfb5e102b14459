// Builds a small program through pir's public C++ API alone (include/pir/pir.h,
// docs/api.md), runs it and prints results. The test `api_example` runs it and
// compares its output with api_example.expected.
//
// The program, as text:
//   h2d $x : f32[2]
//   graph @scale(%v: f32[2]) -> (f32[2]) { %r = mul %v, 2 \n return %r }
//   var %w : f32[2] = [1, 2]
//   %x = host_load $x
//   %s = add %w, %x
//   %d = call @scale(%s)
//   scaled_add_ %w, %d {a = 1, b = 1}
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "pir/pir.h"

namespace {

template <class T>
T check(pir::api::Result<T> r) {
  if (!r) {
    std::cerr << r.error();
    std::exit(1);
  }
  return std::move(r.value());
}

void check(const pir::api::Status& s) {
  if (!s) {
    std::cerr << s.error();
    std::exit(1);
  }
}

}  // namespace

int main() {
  using namespace pir::api;
  Context context;
  Module m = Module::create(context);
  const Type vec{DType::F32, {2}};

  check(m.declareStream("x", StreamDirection::HostToDevice, vec));
  std::vector<Ref> params = check(m.beginGraph("scale", {{"v", vec}}));
  Ref r = check(m.op1(OpCode::Mul, {params[0], 2.0}, {}, "r"));
  check(m.endGraph({r}));

  Ref w = check(m.variable("w", vec, Tensor::fromDoubles(DType::F32, {2}, {1, 2})));
  Ref x = check(m.op1(OpCode::HostLoad, {Ref{"$x"}}, {}, "x"));
  Ref s = check(m.op1(OpCode::Add, {w, x}, {}, "s"));
  Ref d = check(m.call("scale", {s}, {"d"})).front();
  check(m.op(OpCode::ScaledAddInplace, {w, d}, {{"a", 1.0}, {"b", 1.0}}));
  check(m.verify());
  std::cout << m.print();

  Session session = check(Session::create(context, m));
  check(session.feed("x", Tensor::fromDoubles(DType::F32, {2}, {10, 20})));
  check(session.run(2));
  std::cout << check(session.read("%d")).format("%d") << "\n";
  std::cout << check(session.read("%w")).format("%w") << "\n";

  // A mistake comes back as pir's located diagnostic, and changes nothing.
  Result<Ref> bad = m.op1(OpCode::Add, {w, Ref{"%nope"}});
  std::cout << bad.error();
  return 0;
}
