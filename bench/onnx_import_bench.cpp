// `pir import` cost against model size: a chain of N elementwise nodes with a
// small initializer every tenth node, imported in memory. Linear import shows
// as a constant time per node from 1,000 to 100,000 nodes (the bound: a
// 10,000-node model in under a second).
#include <benchmark/benchmark.h>
#include <onnx/onnx_pb.h>

#include <filesystem>
#include <string>
#include <unistd.h>

#include "importers/onnx/importer.h"

namespace {

std::string chainModel(int nodes) {
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.add_opset_import()->set_version(13);
  auto* g = m.mutable_graph();
  auto* in = g->add_input();
  in->set_name("x");
  auto* tt = in->mutable_type()->mutable_tensor_type();
  tt->set_elem_type(onnx::TensorProto::FLOAT);
  tt->mutable_shape()->add_dim()->set_dim_value(4);
  std::string prev = "x";
  for (int k = 0; k < nodes; ++k) {
    std::string next = "layer." + std::to_string(k) + ":out";
    auto* n = g->add_node();
    n->add_input(prev);
    n->add_output(next);
    if (k % 10 == 0) {
      std::string w = "w" + std::to_string(k);
      auto* t = g->add_initializer();
      t->set_name(w);
      t->set_data_type(onnx::TensorProto::FLOAT);
      t->add_dims(4);
      for (int j = 0; j < 4; ++j) t->add_float_data(0.5f * j);
      n->set_op_type("Add");
      n->add_input(w);
    } else {
      n->set_op_type(k % 2 ? "Relu" : "Neg");
    }
    prev = next;
  }
  g->add_output()->set_name(prev);
  return m.SerializeAsString();
}

void BM_ImportChain(benchmark::State& state) {
  std::string bytes = chainModel(static_cast<int>(state.range(0)));
  pir::onnx_import::ImportOptions o;
  o.modelPath = "chain.onnx";
  o.outPath = (std::filesystem::temp_directory_path() / ("pir_bench_" + std::to_string(::getpid()) + ".pir")).string();
  for (auto _ : state) benchmark::DoNotOptimize(pir::onnx_import::importOnnx(bytes, o).text.size());
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_ImportChain)->Arg(1000)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
