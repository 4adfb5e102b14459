#include "api/preview.h"

#include <algorithm>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "ir/interrupt.h"
#include "vm/compiler.h"
#include "vm/host_memory.h"
#include "vm/interpreter.h"

namespace pir {

namespace {

// True if running `g` could read a stream or remote buffer, or needs other replicas.
bool touchesDevice(const Graph& g, std::set<const Graph*>& seen) {
  if (!seen.insert(&g).second) return false;
  std::vector<const Op*> stack;
  for (auto& op : g.ops) stack.push_back(op.get());
  while (!stack.empty()) {
    const Op* op = stack.back();
    stack.pop_back();
    for (auto& inner : op->region()) stack.push_back(inner.get());
    const OpInfo& info = op->info();
    if (info.has(F_IO) || info.has(F_COLLECTIVE)) return true;
    for (const CalleeRef& c : op->callees)
      if (touchesDevice(*c.graph, seen)) return true;
  }
  return false;
}

bool opTouchesDevice(const Op& op) {
  if (op.info().has(F_IO) || op.info().has(F_COLLECTIVE) || op.info().has(F_REGION)) return true;
  std::set<const Graph*> seen;
  for (const CalleeRef& c : op.callees)
    if (touchesDevice(*c.graph, seen)) return true;
  return false;
}

}  // namespace

// What earlier previews computed, and what the cache's validity rests on.
// Invariant: a cached value was cached when its op was the last of main, and
// no op added since writes storage in place; so its content is that of the
// value at any later point of main (an in-place writer clears the cache).
struct Previewer::Cache {
  std::unordered_map<uint64_t, Preview> values;  // by Value::uid; without a value: not previewable
  uint64_t bytes = 0;
  size_t scannedOps = 0;        // main ops [0, scannedOps) were looked at by scan()
  uint64_t lastScannedUid = 0;  // uid of main.ops[scannedOps - 1]
  std::unordered_map<const Value*, const Value*> root;  // in-place results -> the storage they share

  void clearValues() {
    values.clear();
    bytes = 0;
  }
  void clearAll() {
    clearValues();
    root.clear();
    scannedOps = 0;
    lastScannedUid = 0;
  }
  const Value* rootOf(const Value* x) const {
    auto it = root.find(x);
    return it == root.end() ? x : it->second;
  }
  // Looks at the main ops added since the last call (all of them when main
  // changed otherwise): in-place results join the root map; any op that
  // writes storage in place drops the cached values.
  void scan(const Graph& main) {
    if (scannedOps > main.ops.size() || (scannedOps > 0 && main.ops[scannedOps - 1]->uid != lastScannedUid))
      clearAll();
    for (; scannedOps < main.ops.size(); ++scannedOps) {
      const Op& op = *main.ops[scannedOps];
      bool writes = op.info().has(F_REGION);
      const int t = vm::inplaceTarget(op);
      if (t >= 0) {
        writes = true;
        if (t < static_cast<int>(op.operands.size()) && op.operands[t].kind() == Operand::Kind::Value &&
            !op.results.empty() && op.results[0])
          root[op.results[0]] = rootOf(op.operands[t].value());
      }
      for (size_t k = 0; k < op.callees.size() && !writes; ++k)
        for (const Value* param : op.callees[k].graph->params)
          if (param->byRef) writes = true;
      if (writes) clearValues();
    }
    lastScannedUid = main.ops.empty() ? 0 : main.ops.back()->uid;
  }
  void remember(const Value& v, const Preview& t) {
    const uint64_t b = t.value ? t.value->bytes.size() : 0;
    if (b > kCacheBytes) return;
    if (bytes + b > kCacheBytes) clearValues();  // bounded memory; the chain goes on from here
    values[v.uid] = t;
    bytes += b;
  }
  // As remember, for a value computed on the way (a sibling result), only while
  // there is room: it must not evict what the echo already holds.
  bool rememberIfRoom(const Value& v, const vm::HostTensor& t) {
    if (bytes + t.bytes.size() > kCacheBytes) return false;
    values[v.uid] = Preview{t, {}};
    bytes += t.bytes.size();
    return true;
  }
};

Previewer::Previewer(vm::Session& session, DiagnosticEngine& diags, PreviewBudget budget)
    : session_(session), diags_(diags), budget_(budget), cache_(std::make_unique<Cache>()) {}
Previewer::~Previewer() = default;

void Previewer::forget() { cache_->clearAll(); }

Preview Previewer::preview(const Value& v) {
  if (!v.graph || !v.graph->isMain || !v.def) return {};
  const Module& module = session_.module();
  const Graph& main = *module.main;
  if (session_.stateVersion() != stateVersion_) {
    cache_->clearAll();
    stateVersion_ = session_.stateVersion();
  }
  Cache& cache = *cache_;
  cache.scan(main);
  if (auto hit = cache.values.find(v.uid); hit != cache.values.end()) return hit->second;

  const Op* top = v.def->enclosing() ? v.def->enclosing() : v.def;
  size_t defIndex = main.ops.size();
  for (size_t k = main.ops.size(); k-- > 0;) {
    ++counters_.opsVisited;
    if (main.ops[k].get() == top) {
      defIndex = k;
      break;
    }
  }
  if (defIndex >= main.ops.size()) return {};
  // Only a value whose op is the last of main is cached: nothing after it has
  // written its storage (see PreviewCache).
  const bool cacheable = defIndex + 1 == main.ops.size();
  auto finish = [&](Preview result) {
    if (cacheable) cache.remember(v, result);
    return result;
  };
  // What stops one result's preview (a device op upstream, a fault, the step or
  // memory budget) stops its siblings' too: they are not tried again, one by one.
  auto notPreviewable = [&](std::string why = {}) -> Preview {
    Preview skipped{std::nullopt, std::move(why)};
    if (cacheable)
      for (const Value* r : v.def->results)
        if (r && !cache.values.count(r->uid)) cache.remember(*r, skipped);
    return skipped;
  };

  // The upstream cone, backwards: an op is needed if it defines or writes
  // needed storage. Cached values are inputs (givens), not recomputed; the
  // walk stops once every needed storage has passed its definition.
  std::unordered_set<const Value*> needed;  // storage roots
  size_t undefined = 0;                     // needed roots whose definition the walk has not reached
  auto need = [&](const Value* x) {
    if (needed.insert(cache.rootOf(x)).second) ++undefined;
  };
  need(&v);
  std::vector<std::pair<const Value*, const vm::HostTensor*>> givens;
  std::unordered_set<const Value*> given;
  std::vector<size_t> include;  // positions, descending until reversed below
  bool callsSubgraphs = false;
  for (size_t k = defIndex + 1; k-- > 0 && undefined > 0;) {
    ++counters_.opsVisited;
    const Op& op = *main.ops[k];
    bool in = false;
    for (const Value* r : op.results) {
      if (!r || !needed.count(cache.rootOf(r))) continue;
      in = true;
      if (cache.rootOf(r) == r) --undefined;  // storage defined here: nothing before touches it
    }
    const int t = vm::inplaceTarget(op);
    if (t >= 0 && t < static_cast<int>(op.operands.size()) && op.operands[t].kind() == Operand::Kind::Value &&
        needed.count(cache.rootOf(op.operands[t].value())))
      in = true;
    for (size_t k2 = 0; k2 < op.callees.size(); ++k2) {  // a by-reference argument may be written by the callee
      const Graph& callee = *op.callees[k2].graph;
      auto args = op.args(k2);
      for (size_t i = 0; i < args.size() && i < callee.params.size(); ++i)
        if (args[i].kind() == Operand::Kind::Value && callee.params[i]->byRef &&
            needed.count(cache.rootOf(args[i].value())))
          in = true;
    }
    if (!in) continue;
    if (opTouchesDevice(op)) return notPreviewable();
    include.push_back(k);
    if (!op.callees.empty()) callsSubgraphs = true;
    for (const Operand& o : op.operands) {
      if (o.kind() != Operand::Kind::Value) continue;
      auto hit = cache.values.find(o.value()->uid);
      if (hit == cache.values.end()) {
        need(o.value());
      } else if (!hit->second.value) {
        // Upstream of a value that is not previewable: for the same reason.
        return notPreviewable(hit->second.skipped.empty() ? std::string() : "%" + o.value()->name + " was not previewed");
      } else if (given.insert(o.value()).second) {
        givens.emplace_back(o.value(), &*hit->second.value);
      }
    }
  }

  // Subgraph bytecode comes from the compiled program; a cone of main-only
  // ops needs none of it (nor the rest of main compiled).
  static const vm::Program kNoProgram;
  // A program that does not compile fails the input (reported already): the
  // previewer is a parse listener, which stops the parse by throwing (frontend/ast.h).
  auto stopTheInput = [&] { throw CompileError(diags_.all().back()); };
  const vm::Program* compiled = session_.compiledProgram();
  if (callsSubgraphs) {
    FailureOr<const vm::Program*> program = session_.program();
    if (program.failed()) stopTheInput();
    compiled = *program;
  }
  const vm::Program& program = compiled ? *compiled : kNoProgram;
  std::reverse(include.begin(), include.end());
  counters_.opsCompiled += include.size();
  // The preview's memory budget: the host-memory limit lowered, for its duration,
  // to what the session holds plus budget_.maxBytes.
  struct PreviewMemoryLimit {
    uint64_t saved = vm::hostMemoryLimit();
    explicit PreviewMemoryLimit(uint64_t extra) {
      const uint64_t inUse = vm::hostMemoryInUse();
      vm::setHostMemoryLimit(std::min(saved, inUse + std::min(extra, UINT64_MAX - inUse)));
    }
    ~PreviewMemoryLimit() { vm::setHostMemoryLimit(saved); }
  };
  try {
    PreviewMemoryLimit memoryLimit(budget_.maxBytes);
    std::vector<const Value*> variables;
    FailureOr<std::unique_ptr<vm::CompiledGraph>> compiledSub =
        vm::compileMainSubset(module, program, include, diags_, givens, &variables,
                              vm::CompileOptions{.fuseElementwise = session_.options().fuseElementwise});
    if (compiledSub.failed()) stopTheInput();
    std::unique_ptr<vm::CompiledGraph> sub = std::move(*compiledSub);
    vm::DeviceState tmp;  // shares the variables (copy-on-write): the subset unshares what it writes
    tmp.vars.emplace_back();
    for (const Value* var : variables) {
      FailureOr<vm::HostTensor> now = session_.variableNow(*var);
      if (now.failed()) stopTheInput();
      tmp.vars[0].push_back(std::move(*now));
    }
    tmp.remote.emplace_back(module.resources.size());
    tmp.streams.resize(module.resources.size());
    tmp.mainValues.resize(1);
    vm::Interpreter interp(module, program, tmp, 0, nullptr, &diags_.sources());
    interp.setStepBudget(budget_.maxSteps);
    vm::AlignedBytes arena;
    try {
      const std::vector<std::byte*>& ptrs = interp.runDetached(*sub, arena);
      auto valueOf = [&](const Value& r) -> std::optional<vm::HostTensor> {
        uint32_t slot = r.id < sub->valueSlot.size() ? sub->valueSlot[r.id] : vm::kNoSlot;
        if (slot == vm::kNoSlot) return std::nullopt;
        // A variable's value is shared with the state (copy-on-write), not copied.
        if (sub->slots[slot].kind == vm::SlotInfo::Kind::Var) return tmp.vars[0][sub->slots[slot].index];
        vm::HostTensor out(r.type);
        vm::copyBytes(out.data(), ptrs[slot], vm::HostTensor::byteSize(r.type));
        return out;
      };
      Preview result = finish(Preview{valueOf(v), {}});
      // The echo previews an op's results one by one, and each preview runs the
      // whole op: the later results are kept now, or n results cost n^2.
      if (cacheable)
        for (const Value* r : v.def->results)
          if (r && r->resultIndex > v.resultIndex && !cache.values.count(r->uid))
            if (std::optional<vm::HostTensor> t = valueOf(*r); !t || !cache.rememberIfRoom(*r, *t)) break;
      return result;
    } catch (const vm::RuntimeFault& f) {
      // Ctrl-C stops the preview, not the input: the interrupt is consumed here.
      if (interruptRequested()) {
        clearInterrupt();
        return notPreviewable("interrupted");
      }
      if (interp.budgetSpent())
        return notPreviewable("it takes more than " + std::to_string(budget_.maxSteps) + " steps");
      return notPreviewable(f.what());  // `run` reports it, located
    }
  } catch (const vm::HostMemoryExhausted&) {
    return notPreviewable("it needs more than " + std::to_string(budget_.maxBytes >> 20) + " MiB of host memory");
  } catch (const std::bad_alloc&) {
    return notPreviewable("out of memory");  // a preview is optional: not an error of the input
  }
}

}  // namespace pir
