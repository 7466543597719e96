// RUN: triton-spirv-opt %s --triton-func-to-kernel-abi --triton-structured-memory -verify-diagnostics -split-input-file

// A matmul operand gathered through loaded indices is not a strided block:
// it stays element-wise, without the whole-block version, and a remark
// says so. The other operand, a strided block, gets none.
tt.func public @gathered_operand(%a: !tt.ptr<f16>, %idx: !tt.ptr<i32>, %b: !tt.ptr<f16>, %out: !tt.ptr<f32>) {
  %acc = arith.constant dense<0.0> : tensor<16x16xf32>
  %range = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %idx_base = tt.splat %idx : !tt.ptr<i32> -> tensor<16x!tt.ptr<i32>>
  %idx_ptrs = tt.addptr %idx_base, %range : tensor<16x!tt.ptr<i32>>, tensor<16xi32>
  %rows = tt.load %idx_ptrs : tensor<16x!tt.ptr<i32>>
  %rows2 = tt.expand_dims %rows {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %c16 = arith.constant dense<16> : tensor<16x1xi32>
  %row_offs = arith.muli %rows2, %c16 : tensor<16x1xi32>
  %cols = tt.expand_dims %range {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
  %rb = tt.broadcast %row_offs : tensor<16x1xi32> -> tensor<16x16xi32>
  %cb = tt.broadcast %cols : tensor<1x16xi32> -> tensor<16x16xi32>
  %offs = arith.addi %rb, %cb : tensor<16x16xi32>
  %a_base = tt.splat %a : !tt.ptr<f16> -> tensor<16x16x!tt.ptr<f16>>
  %a_ptrs = tt.addptr %a_base, %offs : tensor<16x16x!tt.ptr<f16>>, tensor<16x16xi32>
  // expected-remark @below {{this matmul operand is loaded element by element}}
  %x = tt.load %a_ptrs : tensor<16x16x!tt.ptr<f16>>
  %range2 = tt.expand_dims %range {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %b_rows = arith.muli %range2, %c16 : tensor<16x1xi32>
  %b_rb = tt.broadcast %b_rows : tensor<16x1xi32> -> tensor<16x16xi32>
  %b_offs = arith.addi %b_rb, %cb : tensor<16x16xi32>
  %b_base = tt.splat %b : !tt.ptr<f16> -> tensor<16x16x!tt.ptr<f16>>
  %b_ptrs = tt.addptr %b_base, %b_offs : tensor<16x16x!tt.ptr<f16>>, tensor<16x16xi32>
  %y = tt.load %b_ptrs : tensor<16x16x!tt.ptr<f16>>
  %d = tt.dot %x, %y, %acc : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  %out_base = tt.splat %out : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
  %out_ptrs = tt.addptr %out_base, %b_offs : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
  tt.store %out_ptrs, %d : tensor<16x16x!tt.ptr<f32>>
  tt.return
}
