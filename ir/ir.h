// The IR of one .pir program (PopXL's popxl.Ir): options, streams, remote
// buffers, graphs, values and ops. Changed through ir/rewriter.h.
//
// Ownership: Module owns Resources and Graphs; a Graph owns its Values and Ops.
// Raw pointers between items are non-owning and stay valid until the item is
// erased (ir/rewriter.h), rolled back (Module::rollback) or its owner destroyed.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "ir/attr.h"
#include "ir/compact_list.h"
#include "ir/dtype.h"
#include "ir/host_memory.h"
#include "ir/literal.h"
#include "ir/op_info.h"
#include "ir/rare_list.h"
#include "ir/result_list.h"
#include "ir/shared_type.h"
#include "ir/small_name.h"
#include "ir/value_scope.h"
#include "ir/source.h"

namespace pir {

struct Graph;
struct Op;

// A process-wide serial number: never reused, so holders of derived state
// (the VM's variables and last-run values) can recognise a value or op across
// recompiles and module clones without the ABA risk of comparing addresses.
uint64_t nextUid();

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
  SourceLoc valueLocs[7];  // where each key's value was written, in irOptionKeys() order
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

// The host memory an IR object holds, charged to the host-memory budget
// (ir/host_memory.h) when the object is made (a copy too) and given back when it
// is destroyed, so an input or a transform that makes more IR than fits is an
// error, not an exhausted machine. Counted, not measured: the object plus its
// share of the tables that index it. One atomic update per object. A graph's
// values are charged through one (Graph::valueCharge); an op keeps the same
// account in less room (Op::chargeUses).
class IrHostCharge {
 public:
  // Charged to the budget of the context in effect when made, and given back to
  // that same budget wherever it is destroyed (as a tensor's block is).
  explicit IrHostCharge(uint64_t bytes) : budget_(&hostMemoryBudget()), bytes_(bytes) { budget_->charge(bytes_); }
  IrHostCharge(const IrHostCharge& o) : budget_(&hostMemoryBudget()), bytes_(o.bytes_) { budget_->charge(bytes_); }
  IrHostCharge& operator=(const IrHostCharge&) { return *this; }  // both sides stay charged for themselves
  ~IrHostCharge() { budget_->release(bytes_); }
  // Charges `more` bytes on top (e.g. an op's operands once they are known).
  void add(uint64_t more) {
    budget_->charge(more);
    bytes_ += more;
  }
  // Gives back `fewer` of the bytes charged (at most all of them).
  void remove(uint64_t fewer) {
    if (fewer > bytes_) fewer = bytes_;
    budget_->release(fewer);
    bytes_ -= fewer;
  }

 private:
  HostMemoryBudget* budget_;
  uint64_t bytes_;
};

struct Value;
struct Operand;
// What one value (a result, parameter, var or const) is charged: the object, its
// scope slots and its entry in Graph::values, plus typical name and shape storage.
// Values are charged to their graph's account (Graph::valueCharge), not each
// to itself: a graph owns its values for their whole life.
uint64_t valueHostBytes();
// What one op is charged, without its operands; and per operand (a use).
uint64_t opHostBytes();
uint64_t operandHostBytes();

// Members are ordered so that none is padded: a program holds one Value per
// result, and 80 bytes is an allocator size class. Its host-memory charge is
// its graph's (Graph::valueCharge), so a value carries none. Its type is shared
// (SharedType): a result typed as one of its op's operands holds that
// operand's type object (createResults).
struct Value {
  enum class Kind : uint8_t { Param, Var, Const, Result };
  Kind kind = Kind::Result;
  bool generatedName = false;  // the source left it unnamed
  bool byRef = false;      // Param: `&` in the parameter list
  unsigned resultIndex = 0;
  SmallName name;  // without '%'
  SharedType type;
  Op* def = nullptr;       // Var/Const/Result: the defining op
  Graph* graph = nullptr;
  uint64_t uid = nextUid();  // identity across Module::clone (a copy keeps it)
  SourceLoc loc;           // where the name was written (or the op, if generated)
  unsigned id = 0;         // index in Graph::values: dense, for VM slot maps
};
static_assert(sizeof(Value) == 80, "Value is sized to an allocator size class");

// What a non-value operand refers to, kept out of line: most operands name a
// value at a location that fits in one word, and such an operand is 16 bytes
// (two of them a 32-byte block) instead of 80.
struct OperandPayload {
  Resource* resource = nullptr;      // Kind::Resource
  std::shared_ptr<Literal> literal;  // Kind::Literal (shared: literals are immutable once built)
  TensorType literalType;            // Kind::Literal: resolved by the verifier (language.md §5)
  Value* value = nullptr;            // Kind::Value, when the location is out of line
  SourceLoc loc;                     // when the location is out of line
};

// One operand of an op: a value, a `$` resource or a literal. Graph-call
// arguments are ordinary operands too (see CalleeRef), so every use of a value
// is an Operand of some op or a graph return. 16 bytes: one word that is the
// value (Kind::Value) or the OperandPayload holding the resource or literal
// (made when one is first set; copies of the operand copy it), and one word
// holding the kind and the location, packed (file, line and column below
// 2^15, 2^24 and 2^22). A location beyond that moves into the payload (a value
// operand then gets one too), so every location is kept exactly. So both words
// are reached only through accessors: value() is nullptr unless the kind is Value.
struct Operand {
  enum class Kind : uint8_t { Value, Resource, Literal };

  Operand() = default;
  Operand(const Operand& o) : word_(o.copyOfWord()), bits_(o.bits_) {}
  Operand(Operand&& o) noexcept : word_(o.word_), bits_(o.bits_) { o.forgetWord(); }
  Operand& operator=(const Operand& o) {
    if (this != &o) {
      void* word = o.copyOfWord();
      dropPayload();
      word_ = word;
      bits_ = o.bits_;
    }
    return *this;
  }
  Operand& operator=(Operand&& o) noexcept {
    if (this != &o) {
      dropPayload();
      word_ = o.word_;
      bits_ = o.bits_;
      o.forgetWord();
    }
    return *this;
  }
  ~Operand() { dropPayload(); }

  Kind kind() const { return static_cast<Kind>(bits_ & kKindMask); }
  // Changes the kind. Value <-> Resource/Literal drops what the word held (the
  // value, or the payload's resource and literal); Resource <-> Literal keeps
  // the payload. The location stays.
  void setKind(Kind k) {
    if ((k == Kind::Value) != (kind() == Kind::Value)) {
      if (locOutOfLine()) {
        OperandPayload& p = *payloadWord();
        p.resource = nullptr;
        p.literal.reset();
        p.literalType = TensorType{};
        p.value = nullptr;
      } else {
        dropPayload();
        word_ = nullptr;
      }
    }
    bits_ = (bits_ & ~kKindMask) | static_cast<uint64_t>(k);
  }
  // nullptr unless the kind is Value (and a value was set).
  Value* value() const {
    if (kind() != Kind::Value) return nullptr;
    return locOutOfLine() ? payloadWord()->value : static_cast<Value*>(word_);
  }
  // Makes this a value operand of `v` (a payload's resource or literal is dropped).
  void setValue(Value* v) {
    setKind(Kind::Value);
    if (locOutOfLine()) payloadWord()->value = v;
    else word_ = v;
  }

  // Where the operand was written.
  SourceLoc loc() const {
    if (locOutOfLine()) return payloadWord()->loc;
    return SourceLoc{static_cast<uint32_t>((bits_ >> kFileShift) & kFileMax),
                     static_cast<uint32_t>((bits_ >> kLineShift) & kLineMax),
                     static_cast<uint32_t>(bits_ >> kColShift)};
  }
  void setLoc(SourceLoc at) {
    if (at.file <= kFileMax && at.line <= kLineMax && at.col <= kColMax) {
      if (locOutOfLine()) locInline();
      bits_ = (bits_ & kKindMask) | (uint64_t{at.file} << kFileShift) | (uint64_t{at.line} << kLineShift) |
              (uint64_t{at.col} << kColShift);
    } else {
      locOutOfLineMake().loc = at;
    }
  }

  // nullptr unless a resource was set.
  Resource* resource() const { return payloadIfAny() ? payloadIfAny()->resource : nullptr; }
  // Sets the resource (a value operand becomes a resource operand).
  void setResource(Resource* r) { payload(Kind::Resource).resource = r; }
  // nullptr unless a literal was set.
  const Literal* literal() const { return payloadIfAny() ? payloadIfAny()->literal.get() : nullptr; }
  // Sets the literal (a value operand becomes a literal operand).
  void setLiteral(std::shared_ptr<Literal> lit) { payload(Kind::Literal).literal = std::move(lit); }
  // Empty (f32, rank 0) until set.
  const TensorType& literalType() const;
  void setLiteralType(TensorType t) { payload(Kind::Literal).literalType = std::move(t); }

  // The type this operand supplies (Value or Literal). Undefined for Resource.
  const TensorType& type() const { return kind() == Kind::Value ? value()->type.get() : literalType(); }
  bool isTensor() const { return kind() != Kind::Resource; }

  static Operand of(Value* v, SourceLoc at = {}) {
    Operand o;
    o.word_ = v;
    o.setLoc(at);
    return o;
  }

 private:
  // bits_: the kind, whether the location is in the payload, then the packed location.
  static constexpr uint64_t kKindMask = 3;
  static constexpr uint64_t kLocOutOfLineBit = 4;
  static constexpr int kFileShift = 3, kLineShift = 18, kColShift = 42;
  static constexpr uint64_t kFileMax = (uint64_t{1} << (kLineShift - kFileShift)) - 1;
  static constexpr uint64_t kLineMax = (uint64_t{1} << (kColShift - kLineShift)) - 1;
  static constexpr uint64_t kColMax = (uint64_t{1} << (64 - kColShift)) - 1;

  bool locOutOfLine() const { return bits_ & kLocOutOfLineBit; }
  // The word is an owned payload (or nullptr: none yet).
  bool wordIsPayload() const { return kind() != Kind::Value || locOutOfLine(); }
  OperandPayload* payloadWord() const { return static_cast<OperandPayload*>(word_); }
  const OperandPayload* payloadIfAny() const { return kind() == Kind::Value ? nullptr : payloadWord(); }
  void* copyOfWord() const {
    if (!wordIsPayload() || !word_) return word_;
    return new OperandPayload(*payloadWord());
  }
  void dropPayload() {
    if (wordIsPayload()) delete payloadWord();
  }
  // After the word moved to another operand: no payload, no value, no location.
  void forgetWord() {
    word_ = nullptr;
    bits_ &= kKindMask;
  }
  // The payload, made if there is none; a value operand becomes `ifValue`.
  OperandPayload& payload(Kind ifValue) {
    if (kind() == Kind::Value) setKind(ifValue);
    if (!word_) word_ = new OperandPayload();
    return *payloadWord();
  }
  // Moves the location into the payload (made for it if there is none) and returns the payload.
  OperandPayload& locOutOfLineMake() {
    if (!locOutOfLine()) {
      if (kind() == Kind::Value) {
        auto* p = new OperandPayload();
        p->value = static_cast<Value*>(word_);
        word_ = p;
      } else if (!word_) {
        word_ = new OperandPayload();
      }
      bits_ = (bits_ & kKindMask) | kLocOutOfLineBit;
    }
    return *payloadWord();
  }
  // Ends an out-of-line location: a value operand's payload goes, the value back into the word.
  void locInline() {
    if (kind() == Kind::Value) {
      Value* v = payloadWord()->value;
      delete payloadWord();
      word_ = v;
    }
    bits_ &= kKindMask;
  }

  void* word_ = nullptr;  // see wordIsPayload(): the Value*, or the owned OperandPayload* (nullptr: none yet)
  uint64_t bits_ = 0;     // Kind::Value, location {0, 0, 0}
};
static_assert(sizeof(Operand) == 16, "two operands are a 32-byte block");

// A callee of a control-flow op, `@g(ARGS)`: its arguments are the op's
// operands [firstOperand, firstOperand + numArgs). call and repeat have one
// callee whose arguments are all operands; conditional's operand 0 is the
// condition, then the arguments of @then, then those of @else.
struct CalleeRef {
  Graph* graph = nullptr;
  uint32_t firstOperand = 0;
  uint32_t numArgs = 0;
  SourceLoc loc;  // of '@'
};

// The label of a call (`as LABEL`), front-end only: most ops have none, so
// the text lives on the heap only when there is one.
class CallLabel {
 public:
  CallLabel() = default;
  CallLabel(const CallLabel& o) : text_(o.text_ ? std::make_unique<std::string>(*o.text_) : nullptr) {}
  CallLabel(CallLabel&&) noexcept = default;
  CallLabel& operator=(const CallLabel& o) {
    if (this != &o) text_ = o.text_ ? std::make_unique<std::string>(*o.text_) : nullptr;
    return *this;
  }
  CallLabel& operator=(CallLabel&&) noexcept = default;
  CallLabel& operator=(std::string text) {
    text_ = text.empty() ? nullptr : std::make_unique<std::string>(std::move(text));
    return *this;
  }
  bool empty() const { return !text_; }
  const std::string& str() const;
  operator const std::string&() const { return str(); }
  bool operator==(std::string_view other) const { return std::string_view(str()) == other; }

 private:
  std::unique_ptr<std::string> text_;  // nullptr: no label
};

// Members are ordered so that code and the charged use count fill loc's
// padding: 80 bytes, an allocator size class. What few ops have (callees,
// attributes, an exchange block's body, a var's data, a call's label, the
// exchange block holding the op) is out of line, one pointer each or shared,
// and the shared part holds the op's budget when there is one.
struct Op {
  // Charges opHostBytes() to the budget of the context in effect (throws
  // HostMemoryExhausted, making nothing, when over); the destructor gives it
  // back, with the uses charged, to that same budget wherever the op goes.
  Op();
  ~Op();
  Op(const Op&) = delete;
  Op& operator=(const Op&) = delete;
  // A new op (charged as one) that takes `o`'s members, and the charge of its uses with its operands.
  Op(Op&& o);

  CompactList<Operand> operands;
  ResultList results;  // in-place ops: empty when the alias result is unbound
  AttrDict attrs;
  RareList<CalleeRef> callees;                // call/repeat: 1, conditional: 2, others: none
  Graph* parent = nullptr;
  uint64_t uid = nextUid(); // identity across Module::clone (a copy keeps it)
  SourceLoc loc;            // of the op name (or `var`/`const`/`exchange` keyword)
  OpCode code;

  // Charges operandHostBytes() for each of `count` uses (an op's operands are
  // charged when it joins a graph); throws HostMemoryExhausted, charging
  // nothing, when over the budget.
  void chargeUses(uint64_t count);
  // The uses charged so far.
  uint64_t chargedUses() const { return smallChargedUses_ == kUsesOutOfLine ? extrasIfAny()->chargedUses : smallChargedUses_; }

  // var / const: DATA or INIT (nullptr: none).
  const std::shared_ptr<Literal>& init() const;
  void setInit(std::shared_ptr<Literal> lit);
  // `as LABEL` on a call (front-end only: `using` finds it; never printed).
  const CallLabel& label() const;
  void setLabel(std::string text);
  void setLabel(const CallLabel& label) { setLabel(label.str()); }
  // The exchange block holding this op, if any (nullptr: the op is in its graph's list).
  Op* enclosing() const { return extrasIfAny() ? extrasIfAny()->enclosing : nullptr; }
  void setEnclosing(Op* block);
  // An exchange block's body (empty for every other op). Read through
  // region(); mutableRegion() makes the out-of-line part if there is none, so
  // only what adds or takes ops calls it.
  const RareList<std::unique_ptr<Op>>& region() const;
  RareList<std::unique_ptr<Op>>& mutableRegion() { return extras().region; }

  const OpInfo& info() const { return opInfo(code); }
  // The arguments of callee k: operands [first, first + numArgs).
  std::span<Operand> args(size_t k) { return {operands.data() + callees[k].firstOperand, callees[k].numArgs}; }
  std::span<const Operand> args(size_t k) const {
    return {operands.data() + callees[k].firstOperand, callees[k].numArgs};
  }
  // The callee whose argument list holds operand i, or -1 (e.g. a condition).
  int calleeOfOperand(size_t i) const {
    for (size_t k = 0; k < callees.size(); ++k)
      if (i >= callees[k].firstOperand && i < callees[k].firstOperand + callees[k].numArgs) return static_cast<int>(k);
    return -1;
  }

 private:
  static constexpr uint16_t kUsesOutOfLine = UINT16_MAX;
  // The uses charged, when fewer than kUsesOutOfLine (nearly every op);
  // kUsesOutOfLine: Extras::chargedUses holds the count. In loc's padding.
  uint16_t smallChargedUses_ = 0;

  // Only var/const ops have an init, only labelled calls a label, only
  // exchange blocks a body, only the ops of a body an enclosing op and only
  // ops of 65535 uses or more a large use count: made when one is set, and
  // then holding the op's budget too.
  struct Extras {
    HostMemoryBudget* budget = nullptr;  // charged opHostBytes() and the uses
    std::shared_ptr<Literal> init;
    CallLabel label;
    RareList<std::unique_ptr<Op>> region;
    Op* enclosing = nullptr;
    uint64_t chargedUses = 0;
  };
  static_assert(alignof(HostMemoryBudget) >= 2 && alignof(Extras) >= 2, "the lowest bit of their addresses is free");
  // The budget charged, or (lowest bit set) the address of the op's Extras,
  // which holds it: one word for both, since few ops have Extras.
  uintptr_t budgetOrExtras_;
  Extras* extrasIfAny() const {
    return budgetOrExtras_ & 1 ? reinterpret_cast<Extras*>(budgetOrExtras_ & ~uintptr_t(1)) : nullptr;
  }
  HostMemoryBudget* budget() const {
    const Extras* e = extrasIfAny();
    return e ? e->budget : reinterpret_cast<HostMemoryBudget*>(budgetOrExtras_);
  }
  Extras& extras();
};
static_assert(sizeof(Op) == 80, "Op is sized to an allocator size class");

struct Graph {
  Graph() = default;
  // Not copied or moved: the scope refers to the value list by address.
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;

  std::string name;  // without '@'; "main" for the main graph
  bool isMain = false;
  std::vector<Value*> params;
  std::vector<TensorType> outputTypes;
  bool outputsWritten = false;  // `-> (...)` was given in the source
  std::vector<std::unique_ptr<Op>> ops;
  std::vector<Operand> returns;
  bool hasReturn = false;
  SourceLoc returnLoc;
  AttrDict attrs;  // `attributes {...}` other than grad_of / activations
  // Written by autodiff (language.md §9), printed as `attributes {grad_of =
  // @f, activations = [%a, ...]}`: the forward graph, and the forward values
  // (of gradOf) that this graph's activation inputs stand for, in order.
  Graph* gradOf = nullptr;
  std::vector<Value*> activations;
  SourceLoc loc;   // of the name
  unsigned index = 0;  // position among Module::graphs (main: UINT_MAX); kept dense by the mutation API

  // The host memory of the graph's values: valueHostBytes() for each entry of
  // `values` (whoever appends to or truncates `values` adds or removes it), given
  // back when the graph goes. Declared before `values`, which it outlives.
  IrHostCharge valueCharge{0};
  // All values ever created in this graph, by id (ids are dense and stable;
  // a value whose op was erased stays here, detached: `def == nullptr` and not
  // in scope, so VM slot maps can size by values.size()).
  std::vector<std::unique_ptr<Value>> values;
  ValueScope scope{values};

  uint64_t nextGeneratedName = 0;  // a hint: generated `%N` names are tried from here up
  // A hint per wanted name: `name.K` is tried from K here up (inlining a chain D
  // deep asks for the same names D times; probing from .1 each time was O(D^2)).
  std::unordered_map<std::string, uint64_t> nextNameSuffix;

  Value* lookup(std::string_view n) const { return scope.find(n); }
  // Drops the values from id `count` on (the undo of appends at the end): each
  // leaves the scope if it is there, is destroyed, and its charge is given back.
  void truncateValues(size_t count);
};

// Session commands (language.md §11). They are not part of the program: the
// front end collects them into a Script (frontend/script.h) that a session runs
// after the parse, each command against the program as defined up to the point
// it was read at.
struct SessionCommand {
  enum class Kind : uint8_t { Feed, Run, Print, Write, Save };
  Kind kind;
  std::string target;                // Feed/Write: name without sigil
  std::vector<std::string> names;    // Print/Save: names WITH sigil ("$y", "%W")
  std::vector<SourceLoc> nameLocs;
  std::shared_ptr<Literal> data;     // Feed/Write
  int64_t count = 1;                 // Run N
  std::string path, resolvedPath;    // Save
  SourceLoc loc;
};

// How much of a program was defined when a session command was read
// (language.md §11: a command runs the program as defined up to that point).
// The main graph grows only at its end, so its first `mainOps` ops and
// `mainValues` values are that program's main graph; `generation` tells a point
// taken at the module's current state from an earlier one.
struct ProgramPoint {
  size_t mainOps = 0, mainValues = 0;
  uint64_t generation = 0;
  bool operator==(const ProgramPoint&) const = default;
};

// The program: options, resources and graphs. Nothing else (no script, no
// derived facts). Every change made through the mutation API (ir/rewriter.h)
// or the front-end builder bumps `generation`, so a consumer that caches
// something derived (the VM's bytecode) can tell that it is stale.
class Module {
 public:
  Module();
  ~Module();
  IrOptions options;
  std::vector<std::unique_ptr<Resource>> resources;  // declaration order
  std::vector<std::unique_ptr<Graph>> graphs;        // subgraphs, definition order (callees before callers)
  std::unique_ptr<Graph> main;
  bool anyItemSeen = false;  // `ir {}` must come first
  uint64_t generation = 0;   // bumped by every mutation
  void touch() { ++generation; }
  // The point this module is at now (ProgramPoint).
  ProgramPoint point() const;

  Resource* findResource(const std::string& n) const;
  // The host buffer of stream `r`: [nht] + [R] + S, each leading dim only when
  // it is > 1 (runtime.md §2). Feeds must have exactly this shape.
  TensorType hostBufferType(const Resource& r) const;
  Graph* findGraph(const std::string& n) const;  // subgraphs only ("main" is not callable)

  // A deep copy (graphs, values, ops, resources), pointers remapped; not journaling.
  std::unique_ptr<Module> clone() const;

  // Undo (REPL inputs and `:undo`, language.md §3: an input is all or nothing).
  // From the first checkpoint on, the module journals: appends at the end of
  // the module (new resources, graphs, main ops and values, as the front end
  // makes them) are undone by truncation, and every other change (through
  // ir/rewriter.h) records its inverse. rollback runs the inverses newest
  // first, then truncates, which restores the module exactly.
  struct Checkpoint {
    size_t resources = 0, graphs = 0, mainOps = 0, mainValues = 0, journal = 0;
    IrOptions options;
    bool anyItemSeen = false;
  };
  Checkpoint checkpoint();
  void rollback(const Checkpoint& cp);
  bool journaling() const { return journaling_; }
  // Records how to undo a change; a no-op unless journaling (then the undo
  // is not even wrapped in a std::function: the builder makes millions of values).
  template <class F>
  void journal(F&& undo) {
    if (journaling_) undo_.emplace_back(std::forward<F>(undo));
  }
  // The same for a change to graph `g`, recorded only when the module owns `g`.
  // A graph still being built outside the module (the builder's header) did not
  // exist at the checkpoint: it goes whole with its builder, and an inverse would
  // outlive it when a failed check destroys it.
  template <class F>
  void journal(const Graph& g, F&& undo) {
    if (journaling_ && owns(g)) undo_.emplace_back(std::forward<F>(undo));
  }
  // `g` is main or one of `graphs` (Graph::index is its position there).
  bool owns(const Graph& g) const;

  std::unordered_map<std::string, Resource*> resourceScope;
  std::unordered_map<std::string, Graph*> graphScope;

 private:
  bool journaling_ = false;
  std::vector<std::function<void()>> undo_;
};

}  // namespace pir
