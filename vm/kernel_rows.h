// ops.def's Kernel column, bound at compile time.
//
// A row names its kernel as `Family` or `Family(Fn)`: the family is a preparer
// (vm/kernel_util.h: prepare##Family) or a VM instruction (an emit rule in
// vm/compiler.cpp: emit##Family); Fn is the family's element function or
// variant (the unary function, the binary function, the reduction, the update
// rule, the distribution, ...). Every family has one line below, which spells
// a row's kernel as
//     PIR_KERNEL(Family, Fn)        a compute kernel
//     PIR_INSTRUCTION(Family, Fn)   a VM instruction (or storage: Decl)
// for the including file to define (a family whose rows name no function
// passes its own name as Fn, never read). A row whose family has no line here,
// no preparer or no emit rule does not compile.
//
// RowKernel<OpCode::X> is the row as C++: its family's name, whether it is an
// instruction, and Fn<Functions>, the row's element function looked up among
// the members of a family's `Functions` struct (only when asked, so every row
// has it). bindRows<Family>() makes a family's table by OpCode from it.
#pragma once
#include <array>
#include <cstddef>
#include <string_view>
#include <utility>

#include "ir/op_info.h"

// ---- the families ------------------------------------------------------------
// compute kernels (vm/kernels_*.cpp)
#define PIR_KERNEL_Unary(fn) PIR_KERNEL(Unary, fn)
#define PIR_KERNEL_Cast PIR_KERNEL(Cast, Cast)
#define PIR_KERNEL_Copy PIR_KERNEL(Copy, Copy)
#define PIR_KERNEL_Binary(fn) PIR_KERNEL(Binary, fn)
#define PIR_KERNEL_Where PIR_KERNEL(Where, Where)
#define PIR_KERNEL_ScaledAdd PIR_KERNEL(ScaledAdd, ScaledAdd)
#define PIR_KERNEL_Reduce(fn) PIR_KERNEL(Reduce, fn)
#define PIR_KERNEL_ArgReduce(fn) PIR_KERNEL(ArgReduce, fn)
#define PIR_KERNEL_CumSum PIR_KERNEL(CumSum, CumSum)
#define PIR_KERNEL_TopK PIR_KERNEL(TopK, TopK)
#define PIR_KERNEL_Softmax(fn) PIR_KERNEL(Softmax, fn)
#define PIR_KERNEL_SoftmaxGrad(fn) PIR_KERNEL(SoftmaxGrad, fn)
#define PIR_KERNEL_NllLoss PIR_KERNEL(NllLoss, NllLoss)
#define PIR_KERNEL_Norm(fn) PIR_KERNEL(Norm, fn)
#define PIR_KERNEL_LayerNormGrad PIR_KERNEL(LayerNormGrad, LayerNormGrad)
#define PIR_KERNEL_GroupNormGrad PIR_KERNEL(GroupNormGrad, GroupNormGrad)
#define PIR_KERNEL_MatMul PIR_KERNEL(MatMul, MatMul)
#define PIR_KERNEL_MatMulScaledAdd PIR_KERNEL(MatMulScaledAdd, MatMulScaledAdd)
#define PIR_KERNEL_Conv PIR_KERNEL(Conv, Conv)
#define PIR_KERNEL_ConvBias(fn) PIR_KERNEL(ConvBias, fn)
#define PIR_KERNEL_Pool(fn) PIR_KERNEL(Pool, fn)
#define PIR_KERNEL_ConvGradInput PIR_KERNEL(ConvGradInput, ConvGradInput)
#define PIR_KERNEL_ConvGradWeight PIR_KERNEL(ConvGradWeight, ConvGradWeight)
#define PIR_KERNEL_MaxPoolGrad PIR_KERNEL(MaxPoolGrad, MaxPoolGrad)
#define PIR_KERNEL_AveragePoolGrad PIR_KERNEL(AveragePoolGrad, AveragePoolGrad)
#define PIR_KERNEL_Transpose PIR_KERNEL(Transpose, Transpose)
#define PIR_KERNEL_Broadcast PIR_KERNEL(Broadcast, Broadcast)
#define PIR_KERNEL_Concat PIR_KERNEL(Concat, Concat)
#define PIR_KERNEL_Split PIR_KERNEL(Split, Split)
#define PIR_KERNEL_Slice PIR_KERNEL(Slice, Slice)
#define PIR_KERNEL_Subsample PIR_KERNEL(Subsample, Subsample)
#define PIR_KERNEL_DynamicSlice PIR_KERNEL(DynamicSlice, DynamicSlice)
#define PIR_KERNEL_DynamicUpdate PIR_KERNEL(DynamicUpdate, DynamicUpdate)
#define PIR_KERNEL_Gather PIR_KERNEL(Gather, Gather)
#define PIR_KERNEL_GatherGrad PIR_KERNEL(GatherGrad, GatherGrad)
#define PIR_KERNEL_Scatter PIR_KERNEL(Scatter, Scatter)
#define PIR_KERNEL_OneHot PIR_KERNEL(OneHot, OneHot)
#define PIR_KERNEL_Pad PIR_KERNEL(Pad, Pad)
#define PIR_KERNEL_PadGrad PIR_KERNEL(PadGrad, PadGrad)
#define PIR_KERNEL_Tile PIR_KERNEL(Tile, Tile)
#define PIR_KERNEL_Trilu PIR_KERNEL(Trilu, Trilu)
#define PIR_KERNEL_Hardmax PIR_KERNEL(Hardmax, Hardmax)
#define PIR_KERNEL_GatherElements PIR_KERNEL(GatherElements, GatherElements)
#define PIR_KERNEL_ScatterElements PIR_KERNEL(ScatterElements, ScatterElements)
#define PIR_KERNEL_Range PIR_KERNEL(Range, Range)
#define PIR_KERNEL_Resize PIR_KERNEL(Resize, Resize)
#define PIR_KERNEL_ResizeGrad PIR_KERNEL(ResizeGrad, ResizeGrad)
#define PIR_KERNEL_Lrn PIR_KERNEL(Lrn, Lrn)
#define PIR_KERNEL_LrnGrad PIR_KERNEL(LrnGrad, LrnGrad)
#define PIR_KERNEL_Einsum PIR_KERNEL(Einsum, Einsum)
#define PIR_KERNEL_Init PIR_KERNEL(Init, Init)
#define PIR_KERNEL_Random(fn) PIR_KERNEL(Random, fn)
#define PIR_KERNEL_VarUpdate(fn) PIR_KERNEL(VarUpdate, fn)
// VM instructions (vm/bytecode.def), or no code (Decl: storage; Exchange: its body)
#define PIR_KERNEL_Decl PIR_INSTRUCTION(Decl, Decl)
#define PIR_KERNEL_Exchange PIR_INSTRUCTION(Exchange, Exchange)
#define PIR_KERNEL_PrintTensor PIR_INSTRUCTION(PrintTensor, PrintTensor)
#define PIR_KERNEL_Call PIR_INSTRUCTION(Call, Call)
#define PIR_KERNEL_Repeat PIR_INSTRUCTION(Repeat, Repeat)
#define PIR_KERNEL_Conditional PIR_INSTRUCTION(Conditional, Conditional)
#define PIR_KERNEL_Collective(fn) PIR_INSTRUCTION(Collective, fn)
#define PIR_KERNEL_HostLoad PIR_INSTRUCTION(HostLoad, HostLoad)
#define PIR_KERNEL_HostStore PIR_INSTRUCTION(HostStore, HostStore)
#define PIR_KERNEL_Remote PIR_INSTRUCTION(Remote, Remote)

// A row's Kernel column through the lines above (`kernel` is ops.def's token).
#define PIR_ROW_KERNEL(kernel) PIR_KERNEL_##kernel

namespace pir::vm {

template <OpCode C> struct RowKernel;

#define PIR_ROW_KERNEL_TRAITS(family, fn, instruction)                 \
  static constexpr std::string_view family_name = #family;               \
  static constexpr bool isInstruction = instruction;                     \
  template <class Functions> using Fn = typename Functions::fn;
#define PIR_KERNEL(family, fn) PIR_ROW_KERNEL_TRAITS(family, fn, false)
#define PIR_INSTRUCTION(family, fn) PIR_ROW_KERNEL_TRAITS(family, fn, true)
#define PIR_OP(id, text, mn, mx, attrs, infer, grad, flags, kernel, operands, cost) \
  template <> struct RowKernel<OpCode::id> { PIR_ROW_KERNEL(kernel) };
#include "ir/ops.def"
#undef PIR_OP
#undef PIR_KERNEL
#undef PIR_INSTRUCTION
#undef PIR_ROW_KERNEL_TRAITS

// A family's table by OpCode: Family::template bind<Fn>() for each row of the
// family (`Family::name` its Kernel column name, Fn the row's element function
// among `Family::Functions`), `Family::kNone` for every other row.
template <class Family, OpCode C> constexpr auto bindRow() {
  if constexpr (RowKernel<C>::family_name == Family::name)
    return Family::template bind<typename RowKernel<C>::template Fn<typename Family::Functions>>();
  else
    return Family::kNone;
}
template <class Family> constexpr auto bindRows() {
  return []<size_t... I>(std::index_sequence<I...>) {
    return std::array{bindRow<Family, static_cast<OpCode>(I)>()...};
  }(std::make_index_sequence<static_cast<size_t>(kNumOpCodes)>{});
}

}  // namespace pir::vm
