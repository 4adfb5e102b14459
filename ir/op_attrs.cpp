// The run-time half of ir/op_attrs.h: lookups and conversions of present values.
// Each conversion accepts what ir/verifier.cpp accepts for its spec type and
// reads anything else as the type's zero (never a crash on an unverified op).
#include "ir/op_attrs.h"

#include "ir/infer.h"

namespace pir::attrs::detail {

const Attr* lookup(OpCode code, const AttrDict& attrs, std::string_view name) {
  if (const Attr* a = attrs.find(name)) {
    if (a->isWord("none")) {
      const AttrSpec* spec = opInfo(code).findAttr(name);
      if (spec && spec->presence == AttrPresence::Optional) return nullptr;
    }
    return a;
  }
  const AttrSpec* spec = opInfo(code).findAttr(name);
  if (spec && spec->presence == AttrPresence::Defaulted) return &spec->defaultValue;
  return nullptr;
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
