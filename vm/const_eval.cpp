#include "vm/const_eval.h"

#include "vm/kernels.h"
#include "vm/tensor.h"

namespace pir::vm {

bool KernelEvaluator::evaluate(const Op& op, std::span<const ConstTensor> inputs,
                               std::vector<ConstTensor>& results) const {
  if (!hasKernel(op.code) || !op.callees.empty()) return false;
  std::vector<TensorType> inTypes, outTypes;
  for (const ConstTensor& in : inputs) inTypes.push_back(in.type);
  for (const Value* r : op.results) outTypes.push_back(r->type);
  try {
    PreparedKernel kernel = prepareKernel(op, inTypes, outTypes);
    std::vector<HostTensor> ins, outs;
    ins.reserve(inputs.size());
    for (const ConstTensor& in : inputs) {
      HostTensor& t = ins.emplace_back(in.type);
      for (size_t i = 0; i < in.values.size(); ++i) t.set(static_cast<int64_t>(i), in.values[i]);
    }
    outs.reserve(outTypes.size());
    for (const TensorType& t : outTypes) outs.emplace_back(t);
    std::vector<TensorRef> inRefs, outRefs;
    for (size_t i = 0; i < ins.size(); ++i) inRefs.push_back({ins[i].data(), &inTypes[i]});
    for (size_t i = 0; i < outs.size(); ++i) outRefs.push_back({outs[i].data(), &outTypes[i]});
    KernelContext ctx;  // replica 0 of 1: folded ops are replica-independent
    kernel(inRefs.data(), outRefs.data(), ctx);
    results.clear();
    for (const HostTensor& t : outs) {
      ConstTensor& c = results.emplace_back();
      c.type = t.type;
      c.values.resize(static_cast<size_t>(t.numElements()));
      for (size_t i = 0; i < c.values.size(); ++i) c.values[i] = t.get(static_cast<int64_t>(i));
    }
    return true;
  } catch (const std::exception&) {
    return false;  // KernelError (a run-time error) or an op the kernels do not take
  }
}

}  // namespace pir::vm
