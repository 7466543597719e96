//===- TritonAttrs.td - Attributes of the tt dialect -------*- tablegen -*-===//

#ifndef TRITON_SPIRV_DIALECT_TRITON_IR_TRITONATTRS_TD
#define TRITON_SPIRV_DIALECT_TRITON_IR_TRITONATTRS_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "triton-spirv/Dialect/Triton/IR/TritonDialect.td"
include "triton-spirv/Dialect/Triton/IR/TritonEnums.td"

// Triton 3.9 prints a load's or store's cache modifier and eviction policy
// as one `cachePolicy` attribute of this type (3.6 prints `cache` and
// `evict`). Kept, like those, as a hint code generation does not use.
def TT_CachePolicyAttr : AttrDef<Triton_Dialect, "CachePolicy"> {
  let mnemonic = "cache_policy";
  let summary = "a memory access's cache modifier and eviction policy";
  let parameters = (ins
    EnumParameter<TT_CacheModifierAttr>:$cacheModifier,
    EnumParameter<TT_EvictionPolicyAttr>:$evictionPolicy);
  let assemblyFormat = [{
    `<` `cache_modifier` `=` $cacheModifier `,`
        `eviction_policy` `=` $evictionPolicy `>`
  }];
}

#endif // TRITON_SPIRV_DIALECT_TRITON_IR_TRITONATTRS_TD
