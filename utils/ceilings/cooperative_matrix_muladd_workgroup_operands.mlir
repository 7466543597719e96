// The device's cooperative-matrix fp16 -> fp32 multiply-add throughput with
// the operands loaded from workgroup memory at every step, as matmuls load
// them: cooperative_matrix_muladd.mlir, except that each subgroup stores its
// two A and four B fragments to workgroup memory once (its own 6 tiles of
// 16x16 fp16) and loads all six again in every iteration, before the
// iteration's eight multiply-adds (0.75 fragment loads per multiply-add).
// Bindings, push constants and sums as there.
module {
  spirv.module Logical GLSL450 requires #spirv.vce<v1.6, [Shader, Float16, StorageBuffer16BitAccess, CooperativeMatrixKHR, GroupNonUniform], [SPV_KHR_storage_buffer_storage_class, SPV_KHR_16bit_storage, SPV_KHR_cooperative_matrix]> attributes {triton_spirv.abi = {entry_point = "cooperative_matrix_muladd_workgroup_operands", workgroup_size = [128, 1, 1], push_constant_bytes = 16 : i64}} {
    spirv.GlobalVariable @tiles bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f16, stride=2> [0])>, StorageBuffer>
    spirv.GlobalVariable @sums bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    // The iterations, then the first workgroup's id, which the runtime writes.
    spirv.GlobalVariable @constants : !spirv.ptr<!spirv.struct<(i32 [0], i32 [4], i32 [8], i32 [12])>, PushConstant>
    spirv.GlobalVariable @workgroup_id built_in("WorkgroupId") : !spirv.ptr<vector<3xi32>, Input>
    spirv.GlobalVariable @subgroup_id built_in("SubgroupId") : !spirv.ptr<i32, Input>
    // Each subgroup's six operand tiles.
    spirv.GlobalVariable @operands : !spirv.ptr<!spirv.struct<(!spirv.array<6144 x f16>)>, Workgroup>
    spirv.func @cooperative_matrix_muladd_workgroup_operands() "None" {
      // The accumulators: Function variables, which the driver keeps in
      // registers.
      %acc0 = spirv.Variable : !spirv.ptr<!spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>, Function>
      %acc1 = spirv.Variable : !spirv.ptr<!spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>, Function>
      %acc2 = spirv.Variable : !spirv.ptr<!spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>, Function>
      %acc3 = spirv.Variable : !spirv.ptr<!spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>, Function>
      %acc4 = spirv.Variable : !spirv.ptr<!spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>, Function>
      %acc5 = spirv.Variable : !spirv.ptr<!spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>, Function>
      %acc6 = spirv.Variable : !spirv.ptr<!spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>, Function>
      %acc7 = spirv.Variable : !spirv.ptr<!spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>, Function>
      %c0 = spirv.Constant 0 : i32
      %c1 = spirv.Constant 1 : i32
      %c16 = spirv.Constant 16 : i32
      %zero = spirv.Constant 0.0 : f32
      %tiles = spirv.mlir.addressof @tiles : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f16, stride=2> [0])>, StorageBuffer>
      %sums = spirv.mlir.addressof @sums : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      %constants = spirv.mlir.addressof @constants : !spirv.ptr<!spirv.struct<(i32 [0], i32 [4], i32 [8], i32 [12])>, PushConstant>
      %iterations_ptr = spirv.AccessChain %constants[%c0] : !spirv.ptr<!spirv.struct<(i32 [0], i32 [4], i32 [8], i32 [12])>, PushConstant>, i32 -> !spirv.ptr<i32, PushConstant>
      %iterations = spirv.Load "PushConstant" %iterations_ptr : i32
      %offset_a0 = spirv.Constant 0 : i32
      %ptr_a0 = spirv.AccessChain %tiles[%c0, %offset_a0] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f16, stride=2> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f16, StorageBuffer>
      %a0 = spirv.KHR.CooperativeMatrixLoad %ptr_a0, %c16, <RowMajor> : !spirv.ptr<f16, StorageBuffer>, i32 -> !spirv.coopmatrix<16x16xf16, Subgroup, MatrixA>
      %offset_a1 = spirv.Constant 256 : i32
      %ptr_a1 = spirv.AccessChain %tiles[%c0, %offset_a1] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f16, stride=2> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f16, StorageBuffer>
      %a1 = spirv.KHR.CooperativeMatrixLoad %ptr_a1, %c16, <RowMajor> : !spirv.ptr<f16, StorageBuffer>, i32 -> !spirv.coopmatrix<16x16xf16, Subgroup, MatrixA>
      %offset_b0 = spirv.Constant 512 : i32
      %ptr_b0 = spirv.AccessChain %tiles[%c0, %offset_b0] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f16, stride=2> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f16, StorageBuffer>
      %b0 = spirv.KHR.CooperativeMatrixLoad %ptr_b0, %c16, <RowMajor> : !spirv.ptr<f16, StorageBuffer>, i32 -> !spirv.coopmatrix<16x16xf16, Subgroup, MatrixB>
      %offset_b1 = spirv.Constant 768 : i32
      %ptr_b1 = spirv.AccessChain %tiles[%c0, %offset_b1] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f16, stride=2> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f16, StorageBuffer>
      %b1 = spirv.KHR.CooperativeMatrixLoad %ptr_b1, %c16, <RowMajor> : !spirv.ptr<f16, StorageBuffer>, i32 -> !spirv.coopmatrix<16x16xf16, Subgroup, MatrixB>
      %offset_b2 = spirv.Constant 1024 : i32
      %ptr_b2 = spirv.AccessChain %tiles[%c0, %offset_b2] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f16, stride=2> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f16, StorageBuffer>
      %b2 = spirv.KHR.CooperativeMatrixLoad %ptr_b2, %c16, <RowMajor> : !spirv.ptr<f16, StorageBuffer>, i32 -> !spirv.coopmatrix<16x16xf16, Subgroup, MatrixB>
      %offset_b3 = spirv.Constant 1280 : i32
      %ptr_b3 = spirv.AccessChain %tiles[%c0, %offset_b3] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f16, stride=2> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f16, StorageBuffer>
      %b3 = spirv.KHR.CooperativeMatrixLoad %ptr_b3, %c16, <RowMajor> : !spirv.ptr<f16, StorageBuffer>, i32 -> !spirv.coopmatrix<16x16xf16, Subgroup, MatrixB>
      %subgroup_id_ptr = spirv.mlir.addressof @subgroup_id : !spirv.ptr<i32, Input>
      %subgroup = spirv.Load "Input" %subgroup_id_ptr : i32
      %operands = spirv.mlir.addressof @operands : !spirv.ptr<!spirv.struct<(!spirv.array<6144 x f16>)>, Workgroup>
      %c1536 = spirv.Constant 1536 : i32
      %own = spirv.IMul %subgroup, %c1536 : i32
      %staged_offset_a0 = spirv.Constant 0 : i32
      %staged_at_a0 = spirv.IAdd %own, %staged_offset_a0 : i32
      %staged_ptr_a0 = spirv.AccessChain %operands[%c0, %staged_at_a0] : !spirv.ptr<!spirv.struct<(!spirv.array<6144 x f16>)>, Workgroup>, i32, i32 -> !spirv.ptr<f16, Workgroup>
      spirv.KHR.CooperativeMatrixStore %staged_ptr_a0, %a0, %c16, <RowMajor> : !spirv.ptr<f16, Workgroup>, !spirv.coopmatrix<16x16xf16, Subgroup, MatrixA>, i32
      %staged_offset_a1 = spirv.Constant 256 : i32
      %staged_at_a1 = spirv.IAdd %own, %staged_offset_a1 : i32
      %staged_ptr_a1 = spirv.AccessChain %operands[%c0, %staged_at_a1] : !spirv.ptr<!spirv.struct<(!spirv.array<6144 x f16>)>, Workgroup>, i32, i32 -> !spirv.ptr<f16, Workgroup>
      spirv.KHR.CooperativeMatrixStore %staged_ptr_a1, %a1, %c16, <RowMajor> : !spirv.ptr<f16, Workgroup>, !spirv.coopmatrix<16x16xf16, Subgroup, MatrixA>, i32
      %staged_offset_b0 = spirv.Constant 512 : i32
      %staged_at_b0 = spirv.IAdd %own, %staged_offset_b0 : i32
      %staged_ptr_b0 = spirv.AccessChain %operands[%c0, %staged_at_b0] : !spirv.ptr<!spirv.struct<(!spirv.array<6144 x f16>)>, Workgroup>, i32, i32 -> !spirv.ptr<f16, Workgroup>
      spirv.KHR.CooperativeMatrixStore %staged_ptr_b0, %b0, %c16, <RowMajor> : !spirv.ptr<f16, Workgroup>, !spirv.coopmatrix<16x16xf16, Subgroup, MatrixB>, i32
      %staged_offset_b1 = spirv.Constant 768 : i32
      %staged_at_b1 = spirv.IAdd %own, %staged_offset_b1 : i32
      %staged_ptr_b1 = spirv.AccessChain %operands[%c0, %staged_at_b1] : !spirv.ptr<!spirv.struct<(!spirv.array<6144 x f16>)>, Workgroup>, i32, i32 -> !spirv.ptr<f16, Workgroup>
      spirv.KHR.CooperativeMatrixStore %staged_ptr_b1, %b1, %c16, <RowMajor> : !spirv.ptr<f16, Workgroup>, !spirv.coopmatrix<16x16xf16, Subgroup, MatrixB>, i32
      %staged_offset_b2 = spirv.Constant 1024 : i32
      %staged_at_b2 = spirv.IAdd %own, %staged_offset_b2 : i32
      %staged_ptr_b2 = spirv.AccessChain %operands[%c0, %staged_at_b2] : !spirv.ptr<!spirv.struct<(!spirv.array<6144 x f16>)>, Workgroup>, i32, i32 -> !spirv.ptr<f16, Workgroup>
      spirv.KHR.CooperativeMatrixStore %staged_ptr_b2, %b2, %c16, <RowMajor> : !spirv.ptr<f16, Workgroup>, !spirv.coopmatrix<16x16xf16, Subgroup, MatrixB>, i32
      %staged_offset_b3 = spirv.Constant 1280 : i32
      %staged_at_b3 = spirv.IAdd %own, %staged_offset_b3 : i32
      %staged_ptr_b3 = spirv.AccessChain %operands[%c0, %staged_at_b3] : !spirv.ptr<!spirv.struct<(!spirv.array<6144 x f16>)>, Workgroup>, i32, i32 -> !spirv.ptr<f16, Workgroup>
      spirv.KHR.CooperativeMatrixStore %staged_ptr_b3, %b3, %c16, <RowMajor> : !spirv.ptr<f16, Workgroup>, !spirv.coopmatrix<16x16xf16, Subgroup, MatrixB>, i32
      spirv.ControlBarrier <Workgroup>, <Workgroup>, <AcquireRelease|WorkgroupMemory>
      %init = spirv.CompositeConstruct %zero : (f32) -> !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>
      spirv.Store "Function" %acc0, %init : !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>
      spirv.Store "Function" %acc1, %init : !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>
      spirv.Store "Function" %acc2, %init : !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>
      spirv.Store "Function" %acc3, %init : !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>
      spirv.Store "Function" %acc4, %init : !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>
      spirv.Store "Function" %acc5, %init : !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>
      spirv.Store "Function" %acc6, %init : !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>
      spirv.Store "Function" %acc7, %init : !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>
      spirv.mlir.loop {
        spirv.Branch ^header(%c0 : i32)
      ^header(%i: i32):
        %more = spirv.SLessThan %i, %iterations : i32
        spirv.BranchConditional %more, ^body, ^merge
      ^body:
        %a0_step = spirv.KHR.CooperativeMatrixLoad %staged_ptr_a0, %c16, <RowMajor> : !spirv.ptr<f16, Workgroup>, i32 -> !spirv.coopmatrix<16x16xf16, Subgroup, MatrixA>
        %a1_step = spirv.KHR.CooperativeMatrixLoad %staged_ptr_a1, %c16, <RowMajor> : !spirv.ptr<f16, Workgroup>, i32 -> !spirv.coopmatrix<16x16xf16, Subgroup, MatrixA>
        %b0_step = spirv.KHR.CooperativeMatrixLoad %staged_ptr_b0, %c16, <RowMajor> : !spirv.ptr<f16, Workgroup>, i32 -> !spirv.coopmatrix<16x16xf16, Subgroup, MatrixB>
        %b1_step = spirv.KHR.CooperativeMatrixLoad %staged_ptr_b1, %c16, <RowMajor> : !spirv.ptr<f16, Workgroup>, i32 -> !spirv.coopmatrix<16x16xf16, Subgroup, MatrixB>
        %b2_step = spirv.KHR.CooperativeMatrixLoad %staged_ptr_b2, %c16, <RowMajor> : !spirv.ptr<f16, Workgroup>, i32 -> !spirv.coopmatrix<16x16xf16, Subgroup, MatrixB>
        %b3_step = spirv.KHR.CooperativeMatrixLoad %staged_ptr_b3, %c16, <RowMajor> : !spirv.ptr<f16, Workgroup>, i32 -> !spirv.coopmatrix<16x16xf16, Subgroup, MatrixB>
        %acc0_in = spirv.Load "Function" %acc0 : !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>
        %acc0_out = spirv.KHR.CooperativeMatrixMulAdd %a0_step, %b0_step, %acc0_in : !spirv.coopmatrix<16x16xf16, Subgroup, MatrixA>, !spirv.coopmatrix<16x16xf16, Subgroup, MatrixB> -> !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>
        spirv.Store "Function" %acc0, %acc0_out : !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>
        %acc1_in = spirv.Load "Function" %acc1 : !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>
        %acc1_out = spirv.KHR.CooperativeMatrixMulAdd %a0_step, %b1_step, %acc1_in : !spirv.coopmatrix<16x16xf16, Subgroup, MatrixA>, !spirv.coopmatrix<16x16xf16, Subgroup, MatrixB> -> !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>
        spirv.Store "Function" %acc1, %acc1_out : !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>
        %acc2_in = spirv.Load "Function" %acc2 : !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>
        %acc2_out = spirv.KHR.CooperativeMatrixMulAdd %a0_step, %b2_step, %acc2_in : !spirv.coopmatrix<16x16xf16, Subgroup, MatrixA>, !spirv.coopmatrix<16x16xf16, Subgroup, MatrixB> -> !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>
        spirv.Store "Function" %acc2, %acc2_out : !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>
        %acc3_in = spirv.Load "Function" %acc3 : !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>
        %acc3_out = spirv.KHR.CooperativeMatrixMulAdd %a0_step, %b3_step, %acc3_in : !spirv.coopmatrix<16x16xf16, Subgroup, MatrixA>, !spirv.coopmatrix<16x16xf16, Subgroup, MatrixB> -> !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>
        spirv.Store "Function" %acc3, %acc3_out : !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>
        %acc4_in = spirv.Load "Function" %acc4 : !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>
        %acc4_out = spirv.KHR.CooperativeMatrixMulAdd %a1_step, %b0_step, %acc4_in : !spirv.coopmatrix<16x16xf16, Subgroup, MatrixA>, !spirv.coopmatrix<16x16xf16, Subgroup, MatrixB> -> !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>
        spirv.Store "Function" %acc4, %acc4_out : !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>
        %acc5_in = spirv.Load "Function" %acc5 : !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>
        %acc5_out = spirv.KHR.CooperativeMatrixMulAdd %a1_step, %b1_step, %acc5_in : !spirv.coopmatrix<16x16xf16, Subgroup, MatrixA>, !spirv.coopmatrix<16x16xf16, Subgroup, MatrixB> -> !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>
        spirv.Store "Function" %acc5, %acc5_out : !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>
        %acc6_in = spirv.Load "Function" %acc6 : !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>
        %acc6_out = spirv.KHR.CooperativeMatrixMulAdd %a1_step, %b2_step, %acc6_in : !spirv.coopmatrix<16x16xf16, Subgroup, MatrixA>, !spirv.coopmatrix<16x16xf16, Subgroup, MatrixB> -> !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>
        spirv.Store "Function" %acc6, %acc6_out : !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>
        %acc7_in = spirv.Load "Function" %acc7 : !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>
        %acc7_out = spirv.KHR.CooperativeMatrixMulAdd %a1_step, %b3_step, %acc7_in : !spirv.coopmatrix<16x16xf16, Subgroup, MatrixA>, !spirv.coopmatrix<16x16xf16, Subgroup, MatrixB> -> !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>
        spirv.Store "Function" %acc7, %acc7_out : !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>
        %next = spirv.IAdd %i, %c1 : i32
        spirv.Branch ^header(%next : i32)
      ^merge:
        spirv.mlir.merge
      }
      %workgroup_id_ptr = spirv.mlir.addressof @workgroup_id : !spirv.ptr<vector<3xi32>, Input>
      %workgroup_ids = spirv.Load "Input" %workgroup_id_ptr : vector<3xi32>
      %workgroup = spirv.CompositeExtract %workgroup_ids[0 : i32] : vector<3xi32>
      %c4 = spirv.Constant 4 : i32
      %c2048 = spirv.Constant 2048 : i32
      %scaled = spirv.IMul %workgroup, %c4 : i32
      %global_subgroup = spirv.IAdd %scaled, %subgroup : i32
      %base = spirv.IMul %global_subgroup, %c2048 : i32
      %out_offset0 = spirv.Constant 0 : i32
      %out_at0 = spirv.IAdd %base, %out_offset0 : i32
      %out_ptr0 = spirv.AccessChain %sums[%c0, %out_at0] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
      %result0 = spirv.Load "Function" %acc0 : !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>
      spirv.KHR.CooperativeMatrixStore %out_ptr0, %result0, %c16, <RowMajor> : !spirv.ptr<f32, StorageBuffer>, !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>, i32
      %out_offset1 = spirv.Constant 256 : i32
      %out_at1 = spirv.IAdd %base, %out_offset1 : i32
      %out_ptr1 = spirv.AccessChain %sums[%c0, %out_at1] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
      %result1 = spirv.Load "Function" %acc1 : !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>
      spirv.KHR.CooperativeMatrixStore %out_ptr1, %result1, %c16, <RowMajor> : !spirv.ptr<f32, StorageBuffer>, !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>, i32
      %out_offset2 = spirv.Constant 512 : i32
      %out_at2 = spirv.IAdd %base, %out_offset2 : i32
      %out_ptr2 = spirv.AccessChain %sums[%c0, %out_at2] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
      %result2 = spirv.Load "Function" %acc2 : !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>
      spirv.KHR.CooperativeMatrixStore %out_ptr2, %result2, %c16, <RowMajor> : !spirv.ptr<f32, StorageBuffer>, !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>, i32
      %out_offset3 = spirv.Constant 768 : i32
      %out_at3 = spirv.IAdd %base, %out_offset3 : i32
      %out_ptr3 = spirv.AccessChain %sums[%c0, %out_at3] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
      %result3 = spirv.Load "Function" %acc3 : !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>
      spirv.KHR.CooperativeMatrixStore %out_ptr3, %result3, %c16, <RowMajor> : !spirv.ptr<f32, StorageBuffer>, !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>, i32
      %out_offset4 = spirv.Constant 1024 : i32
      %out_at4 = spirv.IAdd %base, %out_offset4 : i32
      %out_ptr4 = spirv.AccessChain %sums[%c0, %out_at4] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
      %result4 = spirv.Load "Function" %acc4 : !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>
      spirv.KHR.CooperativeMatrixStore %out_ptr4, %result4, %c16, <RowMajor> : !spirv.ptr<f32, StorageBuffer>, !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>, i32
      %out_offset5 = spirv.Constant 1280 : i32
      %out_at5 = spirv.IAdd %base, %out_offset5 : i32
      %out_ptr5 = spirv.AccessChain %sums[%c0, %out_at5] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
      %result5 = spirv.Load "Function" %acc5 : !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>
      spirv.KHR.CooperativeMatrixStore %out_ptr5, %result5, %c16, <RowMajor> : !spirv.ptr<f32, StorageBuffer>, !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>, i32
      %out_offset6 = spirv.Constant 1536 : i32
      %out_at6 = spirv.IAdd %base, %out_offset6 : i32
      %out_ptr6 = spirv.AccessChain %sums[%c0, %out_at6] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
      %result6 = spirv.Load "Function" %acc6 : !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>
      spirv.KHR.CooperativeMatrixStore %out_ptr6, %result6, %c16, <RowMajor> : !spirv.ptr<f32, StorageBuffer>, !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>, i32
      %out_offset7 = spirv.Constant 1792 : i32
      %out_at7 = spirv.IAdd %base, %out_offset7 : i32
      %out_ptr7 = spirv.AccessChain %sums[%c0, %out_at7] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
      %result7 = spirv.Load "Function" %acc7 : !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>
      spirv.KHR.CooperativeMatrixStore %out_ptr7, %result7, %c16, <RowMajor> : !spirv.ptr<f32, StorageBuffer>, !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>, i32
      spirv.Return
    }
    spirv.EntryPoint "GLCompute" @cooperative_matrix_muladd_workgroup_operands, @tiles, @sums, @constants, @workgroup_id, @subgroup_id, @operands
    spirv.ExecutionMode @cooperative_matrix_muladd_workgroup_operands "LocalSize", 128, 1, 1
  }
}
