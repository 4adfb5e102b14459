#include "ir/ir.h"

#include <climits>

namespace pir {

Module::Module() : main(std::make_unique<Graph>()) {
  main->name = "main";
  main->isMain = true;
  main->index = UINT_MAX;
}

Resource* Module::findResource(const std::string& n) const {
  auto it = resourceScope.find(n);
  return it == resourceScope.end() ? nullptr : it->second;
}

Graph* Module::findGraph(const std::string& n) const {
  auto it = graphScope.find(n);
  return it == graphScope.end() ? nullptr : it->second;
}

Module::Checkpoint Module::checkpoint() const {
  return {resources.size(), graphs.size(),    main->ops.size(), main->values.size(),
          autodiffs.size(), commands.size(), options,          anyItemSeen};
}

void Module::rollback(const Checkpoint& cp) {
  while (resources.size() > cp.resources) {
    resourceScope.erase(resources.back()->name);
    resources.pop_back();
  }
  while (graphs.size() > cp.graphs) {
    graphScope.erase(graphs.back()->name);
    graphs.pop_back();
  }
  Graph& g = *main;
  while (g.ops.size() > cp.mainOps) {
    Op* op = g.ops.back().get();
    if (!op->label.empty()) {
      auto it = g.labels.find(op->label);
      if (it != g.labels.end() && it->second == op) g.labels.erase(it);
    }
    g.ops.pop_back();
  }
  while (g.values.size() > cp.mainValues) {
    auto it = g.scope.find(g.values.back()->name);
    if (it != g.scope.end() && it->second == g.values.back().get()) g.scope.erase(it);
    g.values.pop_back();
  }
  autodiffs.resize(cp.autodiffs);
  commands.resize(cp.commands);
  options = cp.options;
  anyItemSeen = cp.anyItemSeen;
}

}  // namespace pir
