#include "ir/lint.h"

#include <algorithm>
#include <unordered_map>

#include "ir/infer.h"
#include "ir/op_attrs.h"
#include "ir/rewriter.h"

namespace pir {

namespace {

// The operand indices `op` writes in place: its in-place operand, and for a
// call or repeat the arguments bound to by-reference parameters the callee writes.
std::vector<size_t> writtenOperands(const Op& op) {
  std::vector<size_t> out;
  int w = inplaceOperandIndex(op.code);
  if (w >= 0 && static_cast<size_t>(w) < op.operands.size()) out.push_back(static_cast<size_t>(w));
  if ((op.code == OpCode::Call || op.code == OpCode::Repeat) && op.callees.size() == 1 && op.callees[0].graph) {
    const Graph& callee = *op.callees[0].graph;
    bool anyRef = false;
    for (const Value* p : callee.params) anyRef = anyRef || p->byRef;
    if (!anyRef) return out;
    const std::vector<bool> written = paramsWrittenInPlace(callee);
    for (size_t k = 0; k < op.callees[0].numArgs && k < written.size() && k < callee.params.size(); ++k)
      if (written[k] && callee.params[k]->byRef) out.push_back(op.callees[0].firstOperand + k);
  }
  return out;
}

}  // namespace

void warnUnobservedInplaceWrites(const Graph& g, DiagnosticEngine& diags) {
  if (g.isMain) return;
  std::vector<const Op*> ops;
  forEachOp(g, [&](const Op& op) { ops.push_back(&op); });
  // The last position at which each alias root is read (ops.size(): returned).
  std::unordered_map<const Value*, size_t> lastRead;
  auto read = [&](const Operand& o, size_t at) {
    if (o.kind() != Operand::Kind::Value || !o.value()) return;
    size_t& last = lastRead[aliasRoot(o.value())];
    last = std::max(last, at + 1);  // stored +1: 0 means never read
  };
  for (size_t i = 0; i < ops.size(); ++i)
    for (const Operand& o : ops[i]->operands) read(o, i);
  for (const Operand& o : g.returns) read(o, ops.size());
  for (size_t i = 0; i < ops.size(); ++i) {
    const Op& op = *ops[i];
    for (size_t k : writtenOperands(op)) {
      const Operand& o = op.operands[k];
      if (o.kind() != Operand::Kind::Value || !o.value()) continue;
      const Value* root = aliasRoot(o.value());
      if (root->kind != Value::Kind::Result && !(root->kind == Value::Kind::Param && !root->byRef)) continue;
      auto it = lastRead.find(root);
      if (it != lastRead.end() && it->second > i + 1) continue;  // read after the write
      const std::string name = std::string(op.info().name);
      const SourceLoc at = o.loc().valid() ? o.loc() : op.loc;
      const std::string how = op.callees.empty() ? ": writes %" + root->name + " in place"
                                                 : ": lets @" + op.callees[0].graph->name + " write %" + root->name + " in place";
      if (root->kind == Value::Kind::Param) {
        std::vector<Note> notes;
        if (root->loc.valid())
          notes.push_back({root->loc, "%" + root->name + " is declared here: write `%" + root->name + ": &" +
                                          root->type->str() + "` to pass it by reference"});
        diags.warning(at, name + how + ", but %" + root->name + " is a by-value parameter of @" + g.name +
                              " and is not read afterwards: the caller's tensor does not change",
                      std::move(notes));
      } else {
        diags.warning(at, name + how + ", but nothing reads %" + root->name + " afterwards: the write has no effect");
      }
    }
  }
}

void warnOpMistakes(const Op& op, DiagnosticEngine& diags) {
  if (op.code != OpCode::AdamUpdater) return;
  const attrs::AdamUpdater a{op};
  std::optional<SourceLoc> zeroAt;
  if (op.operands.size() > 2) {
    const Operand& s = op.operands[2];
    if (s.kind() == Operand::Kind::Literal && s.literal() && s.literal()->kind == Literal::Kind::Data &&
        !s.literal()->values.empty() &&
        std::all_of(s.literal()->values.begin(), s.literal()->values.end(), [](double v) { return v == 0; }))
      zeroAt = s.loc().valid() ? s.loc() : op.loc;
  } else if (std::optional<double> step = a.step(); step && *step == 0) {
    zeroAt = a.stepLoc();
  }
  if (zeroAt)
    diags.warning(*zeroAt, "adam_updater: step 0 divides by 1 - beta^0 = 0 (the update is NaN): steps count from 1, "
                           "the number of updates including this one");
}

namespace {

constexpr int64_t kUnknown = -1;
constexpr int64_t kCountCap = int64_t(1) << 40;  // counts saturate here (only "fewer than nht" matters)

using StoreCounts = std::unordered_map<const Resource*, int64_t>;

void addCount(StoreCounts& into, const Resource* r, int64_t n) {
  int64_t& c = into[r];
  c = c == kUnknown || n == kUnknown ? kUnknown : std::min(kCountCap, c + n);
}

int64_t scaled(int64_t n, int64_t factor) {
  if (n == kUnknown || factor == kUnknown) return kUnknown;
  if (n == 0 || factor == 0) return 0;
  return n > kCountCap / factor ? kCountCap : n * factor;
}

// host_stores one execution of `op` performs, per stream.
const StoreCounts& storesOfGraph(const Graph& g, std::unordered_map<const Graph*, StoreCounts>& memo);

void addStoresOfOp(const Op& op, StoreCounts& into, std::unordered_map<const Graph*, StoreCounts>& memo) {
  if (op.code == OpCode::HostStore && !op.operands.empty() && op.operands[0].kind() == Operand::Kind::Resource)
    addCount(into, op.operands[0].resource(), 1);
  for (const auto& inner : op.region()) addStoresOfOp(*inner, into, memo);
  // call: once; repeat: `count` times; conditional (two callees): unknown.
  const int64_t factor = op.callees.size() != 1 ? kUnknown
                         : op.code == OpCode::Repeat ? std::max<int64_t>(0, attrs::Repeat{op}.count())
                                                     : 1;
  for (const CalleeRef& c : op.callees)
    if (c.graph)
      for (const auto& [r, n] : storesOfGraph(*c.graph, memo)) addCount(into, r, scaled(n, factor));
}

const StoreCounts& storesOfGraph(const Graph& g, std::unordered_map<const Graph*, StoreCounts>& memo) {
  if (auto it = memo.find(&g); it != memo.end()) return it->second;
  memo[&g];  // a cycle (rejected by the verifier) reads as no stores
  StoreCounts counts;
  for (const auto& op : g.ops) addStoresOfOp(*op, counts, memo);
  return memo[&g] = std::move(counts);
}

}  // namespace

void warnUnwrittenStreamSlots(const Module& m, DiagnosticEngine& diags) {
  const int64_t nht = m.options.numHostTransfers;
  if (nht <= 1) return;
  std::unordered_map<const Graph*, StoreCounts> memo;
  StoreCounts total;
  std::unordered_map<const Resource*, const Op*> firstStore;  // the main-graph op of a stream's first store
  for (const auto& op : m.main->ops) {
    StoreCounts one;
    addStoresOfOp(*op, one, memo);
    for (const auto& [r, n] : one) {
      addCount(total, r, n);
      if (n != 0) firstStore.emplace(r, op.get());
    }
  }
  for (const auto& res : m.resources) {
    auto it = total.find(res.get());
    if (res->kind != Resource::Kind::D2H || it == total.end() || it->second == kUnknown || it->second == 0 ||
        it->second >= nht)
      continue;
    const int64_t n = it->second;
    const Op* at = firstStore.at(res.get());
    const std::string slots = n + 1 == nht ? "slot " + std::to_string(n) + " keeps"
                                           : "slots " + std::to_string(n) + ".." + std::to_string(nht - 1) + " keep";
    std::vector<Note> notes;
    if (res->loc.valid()) notes.push_back({res->loc, "$" + res->name + " is declared here"});
    diags.warning(at->loc, std::string(at->info().name) + ": a run writes " + std::to_string(n) + " of the " +
                               std::to_string(nht) + " slots of d2h stream $" + res->name +
                               " (num_host_transfers = " + std::to_string(nht) + "); " + slots +
                               " the previous run's values (zero before the first)",
                  std::move(notes));
  }
}

}  // namespace pir
