// The run-time half of ir/op_attrs.h: lookups and conversions of present values.
// Each conversion accepts what ir/verifier.cpp accepts for its spec type and
// reads anything else as the type's zero (never a crash on an unverified op).
#include "ir/op_attrs.h"

#include "ir/infer.h"

namespace pir::attrs::detail {

const Attr* lookup(const Op& op, std::string_view name) { return findAttrOrDefault(op, name); }

SourceLoc locationOf(const Op& op, std::string_view name) {
  const Attr* a = op.attrs.find(name);
  return a && a->loc.valid() ? a->loc : op.loc;
}

int64_t asInt(const Attr& a) { return a.isNumber() ? a.toInt() : 0; }

double asFloat(const Attr& a) { return a.isNumber() ? a.number() : 0; }

bool asBool(const Attr& a) { return a.kind == Attr::Kind::Bool && a.b; }

std::string_view asWord(const Attr& a) {
  return a.kind == Attr::Kind::Word || a.kind == Attr::Kind::String || a.kind == Attr::Kind::Resource
             ? std::string_view(a.s)
             : std::string_view();
}

DType asDType(const Attr& a) {
  auto d = parseDType(asWord(a));
  return d ? d->dtype : DType::F32;
}

std::vector<int64_t> asInts(const Attr& a) {
  std::vector<int64_t> v;
  if (!attrInts(a, v)) v.clear();
  return v;
}

std::vector<double> asFloats(const Attr& a) {
  std::vector<double> v;
  if (a.isNumber()) v.push_back(a.number());
  else
    for (const Attr& item : a.items) v.push_back(item.isNumber() ? item.number() : 0);
  return v;
}

AxesValue asAxes(const Attr& a) {
  AxesValue v;
  if (a.isWord("all")) return v;
  v.all = false;
  v.axes = asInts(a);
  return v;
}

}  // namespace pir::attrs::detail
