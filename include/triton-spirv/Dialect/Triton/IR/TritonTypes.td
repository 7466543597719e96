//===- TritonTypes.td - Types of the tt dialect ------------*- tablegen -*-===//

#ifndef TRITON_SPIRV_DIALECT_TRITON_IR_TRITONTYPES_TD
#define TRITON_SPIRV_DIALECT_TRITON_IR_TRITONTYPES_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"
include "triton-spirv/Dialect/Triton/IR/TritonDialect.td"

class TT_TypeDef<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<Triton_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def TT_PointerType : TT_TypeDef<"Pointer", "ptr"> {
  let summary = "pointer into global memory";
  let description = [{
    `!tt.ptr<f32>` points to one element; `!tt.ptr<tensor<8x8xf16>>` is a
    block pointer. The address space is printed only when it is not 1 (global).
    A pointer the kernel only reads (`tl.const`) is `!tt.ptr<f32, "constant">`
    from Triton 3.9 on (`constant`): global memory all the same here.
  }];
  let parameters = (ins "::mlir::Type":$pointeeType, "int":$addressSpace,
                        DefaultValuedParameter<"bool", "false">:$constant);
  let builders = [
    TypeBuilderWithInferredContext<(ins "::mlir::Type":$pointeeType,
                                        "int":$addressSpace,
                                        CArg<"bool", "false">:$constant), [{
      return $_get(pointeeType.getContext(), pointeeType, addressSpace,
                   constant);
    }]>
  ];
  let hasCustomAssemblyFormat = 1;
  let skipDefaultBuilders = 1;
}

def TT_TensorDescType : TT_TypeDef<"TensorDesc", "tensordesc"> {
  let summary = "descriptor of a tiled view of a global tensor";
  let parameters = (ins "::mlir::RankedTensorType":$blockType);
  let assemblyFormat = "`<` $blockType `>`";
}

//===----------------------------------------------------------------------===//
// Type constraints used by the ops.
//===----------------------------------------------------------------------===//

def TT_Float : AnyTypeOf<[F8E4M3FN, F8E4M3FNUZ, F8E5M2, F8E5M2FNUZ,
                          F8E4M3B11FNUZ, F16, BF16, F32, F64], "float">;
def TT_FloatTensor : RankedTensorOf<[TT_Float]>;
def TT_FloatLike : AnyTypeOf<[TT_Float, TT_FloatTensor]>;

def TT_Int : AnyTypeOf<[I1, I<4>, I8, I16, I32, I64], "integer">;
def TT_IntTensor : RankedTensorOf<[TT_Int]>;
def TT_IntLike : AnyTypeOf<[TT_Int, TT_IntTensor]>;

def TT_BoolTensor : RankedTensorOf<[I1]>;
def TT_BoolLike : AnyTypeOf<[I1, TT_BoolTensor]>;

def TT_I64Like : AnyTypeOf<[I64, RankedTensorOf<[I64]>]>;

def TT_Ptr : Type<And<[CPred<"::llvm::isa<::mlir::triton::PointerType>($_self)">,
                       CPred<"!::llvm::isa<::mlir::RankedTensorType>("
                             "::llvm::cast<::mlir::triton::PointerType>($_self)"
                             ".getPointeeType())">]>,
                  "pointer to a scalar", "::mlir::triton::PointerType">;
def TT_PtrTensor : RankedTensorOf<[TT_Ptr]>;
def TT_PtrLike : AnyTypeOf<[TT_Ptr, TT_PtrTensor]>;

def TT_TensorPtr : Type<And<[CPred<"::llvm::isa<::mlir::triton::PointerType>($_self)">,
                             CPred<"::llvm::isa<::mlir::RankedTensorType>("
                                   "::llvm::cast<::mlir::triton::PointerType>($_self)"
                                   ".getPointeeType())">]>,
                        "block pointer", "::mlir::triton::PointerType">;

def TT_FpIntTensor : RankedTensorOf<[TT_Float, TT_Int]>;
def TT_Tensor : RankedTensorOf<[TT_Float, TT_Int, TT_Ptr]>;
def TT_Type : AnyTypeOf<[TT_FloatLike, TT_IntLike, TT_PtrLike, TT_TensorPtr]>;

#endif // TRITON_SPIRV_DIALECT_TRITON_IR_TRITONTYPES_TD
