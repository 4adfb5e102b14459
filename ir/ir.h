// The IR of one .pir program (PopXL's popxl.Ir): options, streams, remote
// buffers, graphs, values, ops, autodiff directives and session commands.
//
// Ownership: Module owns Resources and Graphs; a Graph owns its Values and Ops.
// Raw pointers between items are non-owning and stay valid until the owner
// truncates (Module::rollback) or is destroyed.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "ir/attr.h"
#include "ir/dtype.h"
#include "ir/literal.h"
#include "ir/op_info.h"
#include "ir/source.h"

namespace pir {

struct Graph;
struct Op;

// runtime.md §1. `set` records which keys were written, for the printer.
struct IrOptions {
  int64_t replication = 1;
  int64_t numHostTransfers = 1;
  int64_t ipus = 1;
  int64_t tilesPerIpu = 1472;
  int64_t tileMemory = 638976;
  int64_t ioTiles = 0;
  int64_t seed = 0;
  bool present = false;  // an `ir {...}` item was read
  SourceLoc loc;
};

// A host stream or remote buffer: the `$` namespace.
struct Resource {
  enum class Kind : uint8_t { H2D, D2H, RemoteBuffer };
  Kind kind;
  std::string name;  // without '$'
  TensorType type;
  int64_t entries = 1;  // remote buffers
  bool downcast = false;
  SourceLoc loc;       // of the name
  unsigned index = 0;  // position among Module::resources
};

struct Value {
  enum class Kind : uint8_t { Param, Var, Const, Result };
  Kind kind = Kind::Result;
  std::string name;  // without '%'
  bool generatedName = false;  // the source left it unnamed
  TensorType type;
  bool byRef = false;      // Param: `&` in the parameter list
  Op* def = nullptr;       // Var/Const/Result: the defining op
  unsigned resultIndex = 0;
  Graph* graph = nullptr;
  unsigned id = 0;         // index in Graph::values: dense, for VM slot maps
  SourceLoc loc;           // where the name was written (or the op, if generated)
};

// A graph call operand `@g(args)` of call / repeat / conditional.
struct Operand;
struct GraphCall {
  Graph* graph = nullptr;
  std::vector<Operand> args;
  SourceLoc loc;  // of '@'
};

struct Operand {
  enum class Kind : uint8_t { Value, Resource, Literal, Call };
  Kind kind = Kind::Value;
  Value* value = nullptr;
  Resource* resource = nullptr;
  std::shared_ptr<Literal> literal;  // Kind::Literal
  TensorType literalType;            // Kind::Literal: resolved by the verifier (language.md §5)
  std::shared_ptr<GraphCall> call;   // Kind::Call
  SourceLoc loc;

  // The type this operand supplies (Value or Literal). Undefined for others.
  const TensorType& type() const { return kind == Kind::Value ? value->type : literalType; }
};

struct Op {
  OpCode code;
  std::vector<Operand> operands;
  std::vector<Value*> results;  // in-place ops: empty when the alias result is unbound
  AttrDict attrs;
  std::vector<std::unique_ptr<Op>> region;  // exchange block body
  std::shared_ptr<Literal> init;            // var / const: DATA or INIT
  std::string label;                        // `as LABEL` on a call, kept for `using`
  Graph* parent = nullptr;
  SourceLoc loc;      // of the op name (or `var`/`const`/`exchange` keyword)
  unsigned index = 0; // position in the parent's op list (or region)

  const OpInfo& info() const { return opInfo(code); }
};

// The `%` namespace of one graph: name -> Value. Open addressing with linear
// probing and backward-shift deletion; the key is the Value's own name, so a
// slot is 16 bytes and a lookup usually touches one cache line (the builder
// resolves every operand through it, and parse + verify must reach 1M ops/s).
class ValueScope {
 public:
  Value* find(std::string_view name) const;
  bool contains(std::string_view name) const { return find(name) != nullptr; }
  // Adds `v` under v->name; an existing entry of that name is replaced.
  void insert(Value* v);
  // Removes the entry for v->name if it is `v`.
  void erase(const Value* v);
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  void reserve(size_t n);
  void clear() { slots_.clear(); size_ = 0; }
  // Calls f(Value*) for every entry, in no particular order (completion, dumps).
  template <class F> void forEach(F&& f) const {
    for (auto& s : slots_)
      if (s.value) f(s.value);
  }

 private:
  struct Slot {
    uint64_t hash = 0;
    Value* value = nullptr;  // nullptr: empty slot
  };
  size_t findSlot(std::string_view name, uint64_t hash) const;  // the slot of `name`, or the empty slot ending its probe
  void grow();
  std::vector<Slot> slots_;  // size 0 or a power of two
  size_t size_ = 0;
};

struct Graph {
  std::string name;  // without '@'; "main" for the main graph
  bool isMain = false;
  std::vector<Value*> params;
  std::vector<TensorType> outputTypes;
  bool outputsWritten = false;  // `-> (...)` was given in the source
  std::vector<std::unique_ptr<Op>> ops;
  std::vector<Operand> returns;
  bool hasReturn = false;
  SourceLoc returnLoc;
  AttrDict attrs;  // `attributes {...}`: grad_of, activations, ...
  // Per parameter: the body (or a callee, through a by-reference argument)
  // writes it in place. Set by the builder; binding a constant to such a
  // by-reference input is an error (language.md §7).
  std::vector<bool> paramWrittenInPlace;
  SourceLoc loc;   // of the name
  unsigned index = 0;  // position among Module::graphs (main: UINT_MAX)

  std::vector<std::unique_ptr<Value>> values;  // all values, by id
  ValueScope scope;
  std::unordered_map<std::string, Op*> labels;  // `as LABEL` call sites

  Value* lookup(std::string_view n) const { return scope.find(n); }
};

struct AutodiffDirective {
  std::string fwd, grad;  // graph names without '@'
  AttrDict attrs;
  SourceLoc loc;
};

// Session commands (language.md §11), in source order.
struct SessionCommand {
  enum class Kind : uint8_t { Feed, Run, Print, Write, Save };
  Kind kind;
  std::string target;                // Feed/Write: name without sigil
  std::vector<std::string> names;    // Print/Save: names WITH sigil ("$y", "%W")
  std::vector<SourceLoc> nameLocs;
  std::shared_ptr<Literal> data;     // Feed/Write
  int64_t count = 1;                 // Run N
  std::string path, resolvedPath;    // Save
  size_t mainOpCount = 0;            // main-graph ops defined when the command was read
  SourceLoc loc;
};

class Module {
 public:
  Module();
  IrOptions options;
  std::vector<std::unique_ptr<Resource>> resources;  // declaration order
  std::vector<std::unique_ptr<Graph>> graphs;        // subgraphs, definition order
  std::unique_ptr<Graph> main;
  std::vector<AutodiffDirective> autodiffs;
  std::vector<SessionCommand> commands;
  bool anyItemSeen = false;  // `ir {}` must come first

  Resource* findResource(const std::string& n) const;
  // The host buffer of stream `r`: [nht] + [R] + S, each leading dim only when
  // it is > 1 (runtime.md §2). Feeds must have exactly this shape.
  TensorType hostBufferType(const Resource& r) const;
  Graph* findGraph(const std::string& n) const;  // subgraphs only ("main" is not callable)

  // Snapshot sizes so that a failed input can be undone (REPL, language.md §3).
  struct Checkpoint {
    size_t resources, graphs, mainOps, mainValues, autodiffs, commands;
    IrOptions options;
    bool anyItemSeen;
  };
  Checkpoint checkpoint() const;
  void rollback(const Checkpoint& cp);

  std::unordered_map<std::string, Resource*> resourceScope;
  std::unordered_map<std::string, Graph*> graphScope;
};

}  // namespace pir
