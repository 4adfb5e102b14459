// The IR mutation API: what passes (autodiff, inline, dce, ...) and the front
// end use to change a Module. Modelled on MLIR's OpBuilder, IRMapping and
// replaceAllUsesWith.
//
// Invariants every function here keeps:
// - ops of a graph are in program order (language.md §7); an op's operands are
//   defined earlier in the same graph (or are its parameters);
// - Value::def / Value::graph / Op::parent / Op::enclosing / Graph::index are
//   consistent; names are unique per graph (ValueScope);
// - Module::generation is bumped by every change (the VM recompiles on a new
//   generation);
// - while the module journals (Module::checkpoint), every change to something
//   that existed at the checkpoint records its inverse, so Module::rollback
//   restores the module exactly, including in-place edits of existing graphs.
//   A graph the module does not own yet (the builder's, until its header is
//   complete) gets no inverses (Module::journal(g, ...)): it goes whole with its
//   builder, and inverses would outlive it.
//
// Nothing here verifies a whole module: run verifyModule (ir/verifier.h) after
// a transformation (the pass manager does under --verify-each). OpBuilder::create
// does verify the op it creates (signature, literal typing, result types).
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "ir/diagnostics.h"
#include "ir/ir.h"

namespace pir {

namespace build {
template <OpCode Code>
class Attrs;  // ir/op_build.h
}  // namespace build

// A value map for cloning (MLIR IRMapping): source value -> clone.
class IRMapping {
 public:
  void map(const Value* from, Value* to) { values_[from] = to; }
  // The mapped value, or nullptr.
  Value* lookup(const Value* from) const {
    auto it = values_.find(from);
    return it == values_.end() ? nullptr : it->second;
  }
  // The mapped value, or `from` itself (for values defined outside what is cloned).
  Value* lookupOrSelf(Value* from) const {
    Value* v = lookup(from);
    return v ? v : from;
  }

 private:
  std::unordered_map<const Value*, Value*> values_;
};

// One use of a value: operand `index` of `op`, or (op == nullptr) return
// operand `index` of the graph.
struct Use {
  Op* op = nullptr;
  unsigned index = 0;
};

// Def-use information of one graph, computed on demand in one walk (ops,
// exchange-block bodies, returns). Stale after any change to the graph.
class UseMap {
 public:
  explicit UseMap(Graph& g);
  const std::vector<Use>& uses(const Value* v) const;
  bool hasUses(const Value* v) const { return !uses(v).empty(); }

 private:
  std::unordered_map<const Value*, std::vector<Use>> uses_;
};

// Visits every op of `g` in program order, the ops of an exchange block right
// after the block itself.
void forEachOp(Graph& g, const std::function<void(Op&)>& f);
void forEachOp(const Graph& g, const std::function<void(const Op&)>& f);

// Replaces every use of `from` (operands and returns of its graph, and
// activation references of gradient graphs) by `to`. `to` must have the same
// type and be defined before every use. Returns the number of uses replaced.
size_t replaceAllUsesWith(Module& m, Value* from, Value* to);
// Sets operand `index` of `op` (journaled).
void setOperand(Module& m, Op& op, size_t index, Operand o);
// Sets each attribute of `attrs` on `op` (replacing one of the same name, else
// appended), journaled. The caller keeps the op valid (a typed dictionary from
// ir/op_build.h names only attributes of the row).
void setAttributes(Module& m, Op& op, const AttrDict& attrs);
// Sets return `index` of `g` to `v` (same type).
void setReturnValue(Module& m, Graph& g, size_t index, Value* v);
// Sets activation `index` of gradient graph `g` to `v`.
void setActivation(Module& m, Graph& g, size_t index, Value* v);
// Points callee `index` of `op` at `callee`.
void setCallee(Module& m, Op& op, size_t index, Graph& callee);
// Appends a result to an op already in its graph (autodiff's stitching of a
// call to a forward graph that gained outputs): a fresh generated name.
Value* appendResult(Module& m, Op& op, TensorType type);
// Turns `op` into `const` with data `init` and attributes `attrs`, where it
// stands: its one result keeps its identity, name and uses.
void turnIntoConstant(Module& m, Op& op, std::shared_ptr<Literal> init, AttrDict attrs);
// Detaches result `v` of an op about to go: out of scope, no defining op
// (its id stays).
void detachValue(Module& m, Value* v);
// Rebuilds the op list of `g` as one change: `rebuild` receives the ops taken
// out (in order) and puts each back (g.ops.push_back) or moves it into
// `dropped`, which keeps it for undo; ops it creates with an OpBuilder in
// between are journaled by it.
void rebuildOps(Module& m, Graph& g,
                const std::function<void(std::vector<std::unique_ptr<Op>>& old,
                                         std::vector<std::unique_ptr<Op>>& dropped)>& rebuild);

// Where new ops go: before `before` in its list, or at the end of the graph
// (before == nullptr). The list is the graph's top-level ops (exchange blocks
// are built by the front end and by merge-exchange through moveIntoExchange).
struct InsertionPoint {
  Graph* graph = nullptr;
  Op* before = nullptr;
};

class OpBuilder {
 public:
  // Inserts at the end of `g`. Failures (an op that does not verify) are
  // reported through `diags` and thrown as CompileError.
  OpBuilder(Module& m, Graph& g, DiagnosticEngine& diags);

  Module& module() { return m_; }
  Graph& graph() { return *ip_.graph; }
  void setInsertionPoint(Op* before) { ip_ = {before->parent, before}; }
  // After `op` (a top-level op of its graph).
  void setInsertionPointAfter(Op* op);
  // The location given to created ops (default: none).
  void setLoc(SourceLoc loc) { loc_ = loc; }

  // Creates `code` with `operands` (no callees) and `attrs`, verifies it and
  // infers its result types, names the results (`names[i]` when given and
  // free in the graph, else a fresh generated name) and inserts it. An in-place
  // op binds its alias result only when a name is given.
  Op* create(OpCode code, std::vector<Operand> operands, AttrDict attrs = {}, std::vector<std::string> names = {});
  // The single result of a one-result op.
  Value* create1(OpCode code, std::vector<Operand> operands, AttrDict attrs = {}, std::string name = {});
  Value* create1(OpCode code, std::initializer_list<Value*> operands, AttrDict attrs = {}, std::string name = {});
  // The same with typed attributes (ir/op_build.h): b.create1({x}, build::Sum{}.axis(0)).
  template <OpCode Code>
  Op* create(std::vector<Operand> operands, build::Attrs<Code> attrs, std::vector<std::string> names = {}) {
    return create(Code, std::move(operands), std::move(attrs).dict(), std::move(names));
  }
  template <OpCode Code>
  Value* create1(std::vector<Operand> operands, build::Attrs<Code> attrs, std::string name = {}) {
    return create1(Code, std::move(operands), std::move(attrs).dict(), std::move(name));
  }
  template <OpCode Code>
  Value* create1(std::initializer_list<Value*> operands, build::Attrs<Code> attrs, std::string name = {}) {
    return create1(Code, operands, std::move(attrs).dict(), std::move(name));
  }
  // call / repeat of `callee` with `args`; conditional: `cond` then two callees.
  Op* createCall(Graph& callee, std::vector<Operand> args, std::vector<std::string> names = {});
  Op* createRepeat(Graph& body, std::vector<Operand> args, int64_t count, std::vector<std::string> names = {});
  Op* createConditional(Operand cond, Graph& thenGraph, std::vector<Operand> thenArgs, Graph& elseGraph,
                        std::vector<Operand> elseArgs, std::vector<std::string> names = {});
  // `const %name : type = DATA` with `values` row-major (size 1: a scalar broadcast).
  Value* constant(const TensorType& type, std::vector<double> values, std::string name = {});
  Value* scalarConstant(DType dtype, double value, std::string name = {}) {
    return constant(TensorType{dtype, {}}, {value}, std::move(name));
  }

  // Inserts a fully formed op (operands resolved, results already created in
  // the insertion graph with newValue). No verification. Returns it.
  Op* insert(std::unique_ptr<Op> op);
  // Clones `op` (from any graph) with operands mapped through `map` (values
  // not in the map must belong to the insertion graph), results named like the
  // source's when free, else fresh; maps source results to the clones'.
  Op* clone(const Op& op, IRMapping& map);

 private:
  // Verifies `op`, creates and names its results, inserts it.
  Op* finish(std::unique_ptr<Op> op, std::vector<std::string> names);

  Module& m_;
  DiagnosticEngine& diags_;
  InsertionPoint ip_;
  SourceLoc loc_;
  std::vector<TensorType> types_;
};

// Cuts the main graph of `m` back to what it was at `point`, taken earlier on
// the module `m` is a clone of: later main ops and values go, and results that
// a later directive appended to an earlier op (autodiff's stitching) are dropped.
// Subgraphs and resources stay (nothing in the kept main graph refers to what
// came later; an uncalled graph runs nothing). For the session's view of a
// script's program at a command (language.md §11). Not journaled: a clone
// made for the purpose is never rolled back.
void truncateMainTo(Module& m, const ProgramPoint& point);

// ---- values and names ----------------------------------------------------

// A fresh generated name (`%N`, the smallest free from the graph's hint).
std::string freshName(Graph& g);
// `preferred` when free in `g`, else `preferred.1`, `preferred.2`, ... (or a
// generated name when `preferred` is empty).
std::string uniqueName(Graph& g, const std::string& preferred);
// Creates a value owned by `g`, in scope under `name` (which must be free).
Value* newValue(Module& m, Graph& g, Value::Kind kind, std::string name, bool generated, TensorType type, SourceLoc loc);
// Renames `v` (the new name must be free in its graph); `generated`: the new
// name is one the tools made up (`%N`), which a user's name may take later.
void renameValue(Module& m, Value& v, std::string name, bool generated = false);
// Creates and names the results of `op`, an op not yet in `g`, from the types
// its verification inferred: `names[i]` (text and location) when given (made
// unique with a suffix if taken), else a generated name at the op's location.
// An in-place op has only the results that are named.
void createResults(Module& m, Graph& g, Op& op, std::vector<TensorType>& types,
                   const std::vector<std::pair<std::string, SourceLoc>>& names);

// ---- appends at the end (the front end) ---------------------------------------
// Undone by Module::rollback's truncation where they append to the main graph
// or the module; journaled where they append to an existing subgraph.

// Appends a built op (results created) to the end of `g`, or of the exchange
// block `region` (which goes, and is undone, whole with its block).
Op* appendOp(Module& m, Graph& g, std::unique_ptr<Op> op, Op* region = nullptr);
// Appends a subgraph whose header was checked.
Graph* appendGraph(Module& m, std::unique_ptr<Graph> g);
// Drops `g`, the last subgraph, abandoned by an error while its body was read.
void dropLastGraph(Module& m, Graph& g);

// ---- graphs --------------------------------------------------------------

// A new empty subgraph named `name` (made unique with a suffix if taken),
// appended to Module::graphs (so it follows every graph that exists).
Graph* createGraph(Module& m, const std::string& name, SourceLoc loc = {});
// Adds a parameter at the end of `g`'s inputs.
Value* addParam(Module& m, Graph& g, std::string name, TensorType type, bool byRef = false);
// Sets `g`'s returns and output types (from the operands' types).
void setReturns(Module& m, Graph& g, std::vector<Operand> returns);
// Appends one output to `g` (autodiff's activation stitching).
void addReturn(Module& m, Graph& g, Operand o);
// Sets the autodiff attributes of a gradient graph.
void setGradOf(Module& m, Graph& g, Graph* fwd, std::vector<Value*> activations);
// Replaces the module's IR options (a program built through the API sets them
// after its items; the text's `ir {...}` comes first). The caller checks them.
void setOptions(Module& m, const IrOptions& options);
// Erases a subgraph that no op calls and no gradient graph refers to.
void eraseGraph(Module& m, Graph& g);
// Erases several such subgraphs at once, in time linear in the module's graphs
// (one eraseGraph per graph is quadratic when most graphs go, as after inlining a
// deep call chain). Undone as one change: each graph returns to its position.
void eraseGraphs(Module& m, const std::unordered_set<const Graph*>& graphs);
// Moves `g` to position `index` among Module::graphs (keeps callees first).
void moveGraph(Module& m, Graph& g, size_t index);
// Puts Module::graphs in the order `order`, a permutation of them (std::logic_error
// otherwise): one change, linear, where a moveGraph per graph renumbers each time.
void reorderGraphs(Module& m, const std::vector<Graph*>& order);
// A copy of `src` named `name` (unique), appended to the module, with its
// values named as in `src`. `map` (optional) receives src -> clone values.
Graph* cloneGraph(Module& m, const Graph& src, const std::string& name, IRMapping* map = nullptr);

// ---- ops -----------------------------------------------------------------

// Removes `op` from its list and destroys it (or hands it to the journal).
// Its results must have no uses (checked: an assertion failure is a pass bug,
// reported through std::logic_error).
void eraseOp(Module& m, Op& op);
// Moves the top-level ops [first, last] of one graph (consecutive, IO ops) into
// a new exchange block inserted where `first` was. Returns the block.
Op* wrapInExchange(Module& m, Op& first, Op& last, AttrDict attrs = {});
// The ops of an exchange block moved back into its graph in its place; the block is erased.
void unwrapExchange(Module& m, Op& block);

// ---- queries -------------------------------------------------------------

// The position of a top-level op in its graph's list (O(n)); -1 if not found.
ptrdiff_t positionOf(const Op& op);
// Per parameter of `g`: the body (directly, through a view/alias, or through a
// callee's by-reference input) writes it in place. Computed on demand.
std::vector<bool> paramsWrittenInPlace(const Graph& g);
// The graphs `g` calls (directly), in first-call order.
std::vector<Graph*> calleesOf(const Graph& g);

}  // namespace pir
