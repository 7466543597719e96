#version 450
// C = A B for fp16 A (M x K) and B (K x N), row-major, fp32 accumulation,
// fp16 C: one BM x BN tile per workgroup, accumulated in one
// workgroup-scope cooperative matrix, its operands loaded straight from
// global memory by tensor-addressed loads (VK_NV_cooperative_matrix2): the
// driver stages them, not the shader.
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_KHR_cooperative_matrix : require
#extension GL_NV_cooperative_matrix2 : require

layout(local_size_x = WG) in;
layout(set = 0, binding = 0) readonly buffer ABuffer { float16_t a[]; };
layout(set = 0, binding = 1) readonly buffer BBuffer { float16_t b[]; };
layout(set = 0, binding = 2) writeonly buffer CBuffer { float16_t c[]; };
// M, N, K, then the first workgroup's id, which the runtime writes.
layout(push_constant) uniform Sizes { uint m, n, k, first_group; } sizes;

void main() {
  uint group = gl_WorkGroupID.x + sizes.first_group;
  uint tiles_n = sizes.n / BN;
  uint row = (group / tiles_n) * BM, col = (group % tiles_n) * BN;
  tensorLayoutNV<2> la = createTensorLayoutNV(2);
  la = setTensorLayoutDimensionNV(la, sizes.m, sizes.k);
  tensorLayoutNV<2> lb = createTensorLayoutNV(2);
  lb = setTensorLayoutDimensionNV(lb, sizes.k, sizes.n);
  tensorLayoutNV<2> lc = createTensorLayoutNV(2);
  lc = setTensorLayoutDimensionNV(lc, sizes.m, sizes.n);
  coopmat<float, gl_ScopeWorkgroup, BM, BN, gl_MatrixUseAccumulator> acc =
      coopmat<float, gl_ScopeWorkgroup, BM, BN, gl_MatrixUseAccumulator>(0.0);
  coopmat<float16_t, gl_ScopeWorkgroup, BM, BK, gl_MatrixUseA> ma;
  coopmat<float16_t, gl_ScopeWorkgroup, BK, BN, gl_MatrixUseB> mb;
#ifdef AHEAD
  // Each step's operands are loaded during the step before it.
  coopMatLoadTensorNV(ma, a, 0, sliceTensorLayoutNV(la, row, BM, 0, BK));
  coopMatLoadTensorNV(mb, b, 0, sliceTensorLayoutNV(lb, 0, BK, col, BN));
  for (uint k = 0; k < sizes.k; k += BK) {
    coopmat<float16_t, gl_ScopeWorkgroup, BM, BK, gl_MatrixUseA> next_a = ma;
    coopmat<float16_t, gl_ScopeWorkgroup, BK, BN, gl_MatrixUseB> next_b = mb;
    if (k + BK < sizes.k) {
      coopMatLoadTensorNV(next_a, a, 0, sliceTensorLayoutNV(la, row, BM, k + BK, BK));
      coopMatLoadTensorNV(next_b, b, 0, sliceTensorLayoutNV(lb, k + BK, BK, col, BN));
    }
    acc = coopMatMulAdd(ma, mb, acc);
    ma = next_a;
    mb = next_b;
  }
#else
  for (uint k = 0; k < sizes.k; k += BK) {
    coopMatLoadTensorNV(ma, a, 0, sliceTensorLayoutNV(la, row, BM, k, BK));
    coopMatLoadTensorNV(mb, b, 0, sliceTensorLayoutNV(lb, k, BK, col, BN));
    acc = coopMatMulAdd(ma, mb, acc);
  }
#endif
  coopmat<float16_t, gl_ScopeWorkgroup, BM, BN, gl_MatrixUseAccumulator> result =
      coopmat<float16_t, gl_ScopeWorkgroup, BM, BN, gl_MatrixUseAccumulator>(acc);
  coopMatStoreTensorNV(result, c, 0, sliceTensorLayoutNV(lc, row, BM, col, BN));
}
