// RUN: triton-spirv-opt %s --triton-func-to-kernel-abi --triton-structured-memory --cse -split-input-file | FileCheck %s

// A contiguous block from a pointer argument, masked by `offs < n`: a view
// at the program's offset with unit stride, and a copy of its first
// clamp(n - start, 0, 128) elements into a block filled with `other`. It
// feeds no tt.dot, so it gets no whole-block version.
// CHECK-LABEL: func.func @masked_copy
// CHECK-SAME: (%[[IN:[^:]*]]: memref<?xf32> {{[^%]*}}, %[[IN_OFF:[^:]*]]: index {{[^%]*}}, %[[OUT:[^:]*]]: memref<?xf32> {{[^%]*}}, %[[OUT_OFF:[^:]*]]: index {{[^%]*}}, %[[N:[^:]*]]: i32
// CHECK: %[[START:.*]] = arith.index_cast %{{.*}} : i32 to index
// CHECK: %[[OFFSET:.*]] = arith.addi %[[IN_OFF]], %[[START]] : index
// CHECK: %[[BOUND:.*]] = arith.index_cast %[[N]] : i32 to index
// CHECK: %[[LEFT:.*]] = arith.subi %[[BOUND]], %[[START]] : index
// CHECK: %[[UPTO:.*]] = arith.minsi %[[LEFT]], %{{.*}} : index
// CHECK: %[[KEPT:.*]] = arith.maxsi %[[UPTO]], %{{.*}} : index
// CHECK-NOT: scf.if
// CHECK: %[[VIEW:.*]] = memref.reinterpret_cast %[[IN]] to offset: [%[[OFFSET]]], sizes: [128], strides: [1] : memref<?xf32> to memref<128xf32, strided<[1], offset: ?>>
// CHECK: %[[BLOCK:.*]] = memref.alloc() : memref<128xf32>
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[BLOCK]] : memref<128xf32>)
// CHECK: %[[SRC:.*]] = memref.subview %[[VIEW]][0] [%[[KEPT]]] [1]
// CHECK: %[[DST:.*]] = memref.subview %[[BLOCK]][0] [%[[KEPT]]] [1]
// CHECK: memref.copy %[[SRC]], %[[DST]]
// CHECK: %[[LOADED:.*]] = bufferization.to_tensor %[[BLOCK]] restrict writable : memref<128xf32> to tensor<128xf32>
// CHECK: %[[OUT_VIEW:.*]] = memref.reinterpret_cast %[[OUT]] to offset: [%{{.*}}], sizes: [128], strides: [1]
// CHECK: %[[SLICE:.*]] = tensor.extract_slice %{{.*}}[0] [%[[KEPT]]] [1] : tensor<128xf32> to tensor<?xf32>
// CHECK: %[[OUT_PART:.*]] = memref.subview %[[OUT_VIEW]][0] [%[[KEPT]]] [1]
// CHECK: bufferization.materialize_in_destination %[[SLICE]] in writable %[[OUT_PART]]
// CHECK-NOT: tt.load
// CHECK-NOT: tt.store
tt.func public @masked_copy(%in: !tt.ptr<f32>, %out: !tt.ptr<f32>, %n: i32) {
  %c128 = arith.constant 128 : i32
  %pid = tt.get_program_id x : i32
  %start = arith.muli %pid, %c128 : i32
  %range = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %starts = tt.splat %start : i32 -> tensor<128xi32>
  %offs = arith.addi %starts, %range : tensor<128xi32>
  %bound = tt.splat %n : i32 -> tensor<128xi32>
  %mask = arith.cmpi slt, %offs, %bound : tensor<128xi32>
  %other = arith.constant dense<-1.0> : tensor<128xf32>
  %in_base = tt.splat %in : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
  %in_ptrs = tt.addptr %in_base, %offs : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
  %x = tt.load %in_ptrs, %mask, %other : tensor<128x!tt.ptr<f32>>
  %y = arith.addf %x, %x : tensor<128xf32>
  %out_base = tt.splat %out : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
  %out_ptrs = tt.addptr %out_base, %offs : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
  tt.store %out_ptrs, %y, %mask : tensor<128x!tt.ptr<f32>>
  tt.return
}

// -----

// A 2-D tile: rows strided by a runtime stride (expand_dims + broadcast),
// columns contiguous, masked by (rows < m)[:, None] & (cols < n)[None, :].
// The stride stays dynamic in the view; each dimension gets its extent.
// CHECK-LABEL: func.func @tile
// CHECK: %[[STRIDE:.*]] = arith.index_cast %{{.*}} : i32 to index
// CHECK: memref.reinterpret_cast %{{.*}} to offset: [%{{.*}}], sizes: [16, 32], strides: [%[[STRIDE]], 1] : memref<?xf16> to memref<16x32xf16, strided<[?, 1], offset: ?>>
// CHECK: memref.subview %{{.*}}[0, 0] [%{{.*}}, %{{.*}}] [1, 1]
// CHECK: memref.copy
// CHECK-NOT: tt.load
tt.func public @tile(%a: !tt.ptr<f16>, %stride: i32, %m: i32, %n: i32, %out: !tt.ptr<f16>) {
  %rows = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %cols = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %rows2 = tt.expand_dims %rows {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %strides = tt.splat %stride : i32 -> tensor<16x1xi32>
  %row_offs = arith.muli %rows2, %strides : tensor<16x1xi32>
  %cols2 = tt.expand_dims %cols {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %row_b = tt.broadcast %row_offs : tensor<16x1xi32> -> tensor<16x32xi32>
  %col_b = tt.broadcast %cols2 : tensor<1x32xi32> -> tensor<16x32xi32>
  %offs = arith.addi %row_b, %col_b : tensor<16x32xi32>
  %base = tt.splat %a : !tt.ptr<f16> -> tensor<16x32x!tt.ptr<f16>>
  %ptrs = tt.addptr %base, %offs : tensor<16x32x!tt.ptr<f16>>, tensor<16x32xi32>
  %m_splat = tt.splat %m : i32 -> tensor<16x1xi32>
  %rows_in = arith.cmpi slt, %rows2, %m_splat : tensor<16x1xi32>
  %n_splat = tt.splat %n : i32 -> tensor<1x32xi32>
  %cols_in = arith.cmpi slt, %cols2, %n_splat : tensor<1x32xi32>
  %rows_in_b = tt.broadcast %rows_in : tensor<16x1xi1> -> tensor<16x32xi1>
  %cols_in_b = tt.broadcast %cols_in : tensor<1x32xi1> -> tensor<16x32xi1>
  %mask = arith.andi %rows_in_b, %cols_in_b : tensor<16x32xi1>
  %x = tt.load %ptrs, %mask : tensor<16x32x!tt.ptr<f16>>
  %sum = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%l: f16, %r: f16):
    %s = arith.addf %l, %r : f16
    tt.reduce.return %s : f16
  }) : (tensor<16x32xf16>) -> tensor<32xf16>
  %total = "tt.reduce"(%sum) <{axis = 0 : i32}> ({
  ^bb0(%l: f16, %r: f16):
    %s = arith.addf %l, %r : f16
    tt.reduce.return %s : f16
  }) : (tensor<32xf16>) -> f16
  tt.store %out, %total : !tt.ptr<f16>
  tt.return
}

// -----

// Not provably structured, so left to the element-wise lowering: offsets
// loaded from memory, a wrap-around (remsi), and a mask on every other
// element. (The indices themselves and the result are structured.)
// CHECK-LABEL: func.func @unstructured
// CHECK: bufferization.to_tensor %{{.*}} : memref<8xi32> to tensor<8xi32>
// CHECK-COUNT-3: tt.load %{{.*}} : tensor<8x!tt.ptr<f32>>
// CHECK: bufferization.materialize_in_destination
tt.func public @unstructured(%p: !tt.ptr<f32>, %idx: !tt.ptr<i32>, %n: i32, %out: !tt.ptr<f32>) {
  %range = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
  %idx_base = tt.splat %idx : !tt.ptr<i32> -> tensor<8x!tt.ptr<i32>>
  %idx_ptrs = tt.addptr %idx_base, %range : tensor<8x!tt.ptr<i32>>, tensor<8xi32>
  %gathered = tt.load %idx_ptrs : tensor<8x!tt.ptr<i32>>
  %base = tt.splat %p : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
  %g_ptrs = tt.addptr %base, %gathered : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
  %g = tt.load %g_ptrs : tensor<8x!tt.ptr<f32>>
  %bound = tt.splat %n : i32 -> tensor<8xi32>
  %wrapped = arith.remsi %range, %bound : tensor<8xi32>
  %w_ptrs = tt.addptr %base, %wrapped : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
  %w = tt.load %w_ptrs : tensor<8x!tt.ptr<f32>>
  %two = arith.constant dense<2> : tensor<8xi32>
  %doubled = arith.muli %range, %two : tensor<8xi32>
  %every_other = arith.cmpi slt, %doubled, %bound : tensor<8xi32>
  %r_ptrs = tt.addptr %base, %range : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
  %e = tt.load %r_ptrs, %every_other : tensor<8x!tt.ptr<f32>>
  %gw = arith.addf %g, %w : tensor<8xf32>
  %gwe = arith.addf %gw, %e : tensor<8xf32>
  %out_base = tt.splat %out : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
  %out_ptrs = tt.addptr %out_base, %range : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
  tt.store %out_ptrs, %gwe : tensor<8x!tt.ptr<f32>>
  tt.return
}

// -----

// A block carried by a loop and advanced by a uniform step each iteration
// (`ptrs += 16 * stride`, the step computed inside the loop): the entry
// block moved by ((k - 0) / 1) * step.
// CHECK-LABEL: func.func @carried
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK: %[[DONE:.*]] = arith.index_cast %[[K]] : i32 to index
// CHECK: %[[MOVED:.*]] = arith.muli %[[DONE]], %{{.*}} : index
// CHECK: %[[OFFSET:.*]] = arith.addi %{{.*}}, %[[MOVED]] : index
// CHECK: memref.reinterpret_cast %{{.*}} to offset: [%[[OFFSET]]], sizes: [16], strides: [%{{.*}}]
// CHECK-NOT: tt.load
tt.func public @carried(%p: !tt.ptr<f32>, %stride: i32, %out: !tt.ptr<f32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  %c16 = arith.constant 16 : i32
  %zero = arith.constant dense<0.0> : tensor<16xf32>
  %range = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %strides = tt.splat %stride : i32 -> tensor<16xi32>
  %offs = arith.muli %range, %strides : tensor<16xi32>
  %base = tt.splat %p : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
  %ptrs = tt.addptr %base, %offs : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
  %sum:2 = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc = %zero, %cur = %ptrs) -> (tensor<16xf32>, tensor<16x!tt.ptr<f32>>) : i32 {
    %x = tt.load %cur : tensor<16x!tt.ptr<f32>>
    %next_acc = arith.addf %acc, %x : tensor<16xf32>
    %step = arith.muli %stride, %c16 : i32
    %steps = tt.splat %step : i32 -> tensor<16xi32>
    %next = tt.addptr %cur, %steps : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
    scf.yield %next_acc, %next : tensor<16xf32>, tensor<16x!tt.ptr<f32>>
  }
  %out_base = tt.splat %out : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
  %out_ptrs = tt.addptr %out_base, %range : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
  tt.store %out_ptrs, %sum#0 : tensor<16x!tt.ptr<f32>>
  tt.return
}

// -----

// Rows wrapped around (start + i) % m, as in the matmul tutorial: under a
// run-time check that the block wraps at most once, two copies split at the
// wrap (rows from start % m, then rows from 0 placed after them); otherwise
// the element-wise load.
// CHECK-LABEL: func.func @wrapped
// CHECK: %[[EXACT:.*]] = arith.andi %{{.*}}, %{{.*}} : i1
// CHECK: scf.if %[[EXACT]] -> (tensor<16x8xf32>) {
// CHECK: %[[FIRST:.*]] = arith.remsi %{{.*}}, %{{.*}} : index
// CHECK: %[[LEFT:.*]] = arith.subi %{{.*}}, %[[FIRST]] : index
// CHECK: %[[HEAD:.*]] = arith.minsi %[[LEFT]], %{{.*}} : index
// CHECK: %[[BLOCK:.*]] = memref.alloc() : memref<16x8xf32>
// CHECK: memref.copy %{{.*}}, %{{.*}} : memref<?x8xf32, strided<[?, 1], offset: ?>> to memref<?x8xf32, strided<[8, 1]>>
// CHECK: memref.subview %[[BLOCK]][%[[HEAD]], 0]
// CHECK: memref.copy
// CHECK: scf.yield %{{.*}} : tensor<16x8xf32>
// CHECK: } else {
// CHECK: tt.load
tt.func public @wrapped(%p: !tt.ptr<f32>, %m: i32, %stride: i32, %out: !tt.ptr<f32>) {
  %c16 = arith.constant 16 : i32
  %pid = tt.get_program_id x : i32
  %start = arith.muli %pid, %c16 : i32
  %range = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %starts = tt.splat %start : i32 -> tensor<16xi32>
  %unwrapped = arith.addi %starts, %range : tensor<16xi32>
  %ms = tt.splat %m : i32 -> tensor<16xi32>
  %rows = arith.remsi %unwrapped, %ms : tensor<16xi32>
  %rows2 = tt.expand_dims %rows {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %strides = tt.splat %stride : i32 -> tensor<16x1xi32>
  %row_offs = arith.muli %rows2, %strides : tensor<16x1xi32>
  %cols = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
  %cols2 = tt.expand_dims %cols {axis = 0 : i32} : tensor<8xi32> -> tensor<1x8xi32>
  %rb = tt.broadcast %row_offs : tensor<16x1xi32> -> tensor<16x8xi32>
  %cb = tt.broadcast %cols2 : tensor<1x8xi32> -> tensor<16x8xi32>
  %offs = arith.addi %rb, %cb : tensor<16x8xi32>
  %base = tt.splat %p : !tt.ptr<f32> -> tensor<16x8x!tt.ptr<f32>>
  %ptrs = tt.addptr %base, %offs : tensor<16x8x!tt.ptr<f32>>, tensor<16x8xi32>
  %x = tt.load %ptrs : tensor<16x8x!tt.ptr<f32>>
  %out_base = tt.splat %out : !tt.ptr<f32> -> tensor<16x8x!tt.ptr<f32>>
  %out_ptrs = tt.addptr %out_base, %offs : tensor<16x8x!tt.ptr<f32>>, tensor<16x8xi32>
  tt.store %out_ptrs, %x : tensor<16x8x!tt.ptr<f32>>
  tt.return
}

// -----

// A matmul operand whose rows wrap and whose columns are masked gets a
// version for blocks wholly in bounds, checked at run time (the mask keeps
// every column, start >= 0, start % m + 16 <= m): one unmasked copy of the
// view at row start % m. The other version is the load as before.
// CHECK-LABEL: func.func @whole_block_operand
// CHECK: %[[KEEPS:.*]] = arith.cmpi sge, %{{.*}}, %c16 : index
// CHECK: %[[MODULUS:.*]] = arith.maxsi %{{.*}}, %c1 : index
// CHECK: %[[FIRST:.*]] = arith.remsi %{{.*}}, %[[MODULUS]] : index
// CHECK: %[[FROM_START:.*]] = arith.cmpi sge, %{{.*}}, %c0 : index
// CHECK: %[[BOTH:.*]] = arith.andi %[[KEEPS]], %[[FROM_START]] : i1
// CHECK: %[[END:.*]] = arith.addi %[[FIRST]], %c16 : index
// CHECK: %[[FITS:.*]] = arith.cmpi sle, %[[END]], %{{.*}} : index
// CHECK: %[[WHOLE:.*]] = arith.andi %[[BOTH]], %[[FITS]] : i1
// CHECK: scf.if %[[WHOLE]] -> (tensor<16x16xf16>) {
// CHECK-NEXT: %[[ROW:.*]] = arith.muli %{{.*}}, %[[FIRST]] : index
// CHECK-NEXT: %[[AT:.*]] = arith.addi %{{.*}}, %[[ROW]] : index
// CHECK-NEXT: %[[BLOCK:.*]] = memref.alloc() : memref<16x16xf16>
// CHECK-NEXT: %[[VIEW:.*]] = memref.reinterpret_cast %{{.*}} to offset: [%[[AT]]], sizes: [16, 16], strides: [%{{.*}}, 1]
// CHECK-NEXT: memref.copy %[[VIEW]], %[[BLOCK]] : memref<16x16xf16, strided<[?, 1], offset: ?>> to memref<16x16xf16>
// CHECK: } else {
// CHECK: scf.if %{{.*}} -> (tensor<16x16xf16>) {
// CHECK: linalg.fill
// CHECK: } else {
// CHECK: tt.load
// CHECK: tt.dot
tt.func public @whole_block_operand(%a: !tt.ptr<f16>, %b: !tt.ptr<f16>, %m: i32, %stride: i32, %k: i32, %out: !tt.ptr<f32>) {
  %c16 = arith.constant 16 : i32
  %zero = arith.constant dense<0.0> : tensor<16x16xf16>
  %acc = arith.constant dense<0.0> : tensor<16x16xf32>
  %pid = tt.get_program_id x : i32
  %start = arith.muli %pid, %c16 : i32
  %range = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %starts = tt.splat %start : i32 -> tensor<16xi32>
  %unwrapped = arith.addi %starts, %range : tensor<16xi32>
  %ms = tt.splat %m : i32 -> tensor<16xi32>
  %rows = arith.remsi %unwrapped, %ms : tensor<16xi32>
  %rows2 = tt.expand_dims %rows {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %strides = tt.splat %stride : i32 -> tensor<16x1xi32>
  %row_offs = arith.muli %rows2, %strides : tensor<16x1xi32>
  %cols2 = tt.expand_dims %range {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
  %rb = tt.broadcast %row_offs : tensor<16x1xi32> -> tensor<16x16xi32>
  %cb = tt.broadcast %cols2 : tensor<1x16xi32> -> tensor<16x16xi32>
  %offs = arith.addi %rb, %cb : tensor<16x16xi32>
  %ks = tt.splat %k : i32 -> tensor<1x16xi32>
  %kept = arith.cmpi slt, %cols2, %ks : tensor<1x16xi32>
  %mask = tt.broadcast %kept : tensor<1x16xi1> -> tensor<16x16xi1>
  %a_base = tt.splat %a : !tt.ptr<f16> -> tensor<16x16x!tt.ptr<f16>>
  %a_ptrs = tt.addptr %a_base, %offs : tensor<16x16x!tt.ptr<f16>>, tensor<16x16xi32>
  %x = tt.load %a_ptrs, %mask, %zero : tensor<16x16x!tt.ptr<f16>>
  %b_base = tt.splat %b : !tt.ptr<f16> -> tensor<16x16x!tt.ptr<f16>>
  %b_ptrs = tt.addptr %b_base, %offs : tensor<16x16x!tt.ptr<f16>>, tensor<16x16xi32>
  %y = tt.load %b_ptrs, %mask, %zero : tensor<16x16x!tt.ptr<f16>>
  %d = tt.dot %x, %y, %acc : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  %out_base = tt.splat %out : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
  %out_ptrs = tt.addptr %out_base, %cb : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
  tt.store %out_ptrs, %d : tensor<16x16x!tt.ptr<f32>>
  tt.return
}

// -----

// Offsets `arange(0, 512).reshape(16, 32)`: the reshape splits the range's
// unit stride into [32, 1], so the load is a 16x32 view.
// CHECK-LABEL: func.func @reshaped_range
// CHECK: memref.reinterpret_cast %{{.*}} to offset: [%{{.*}}], sizes: [16, 32], strides: [32, 1]
// CHECK-NOT: tt.load
tt.func public @reshaped_range(%in: !tt.ptr<f32>, %out: !tt.ptr<f32>) {
  %range = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32>
  %offs = tt.reshape %range : tensor<512xi32> -> tensor<16x32xi32>
  %base = tt.splat %in : !tt.ptr<f32> -> tensor<16x32x!tt.ptr<f32>>
  %ptrs = tt.addptr %base, %offs : tensor<16x32x!tt.ptr<f32>>, tensor<16x32xi32>
  %x = tt.load %ptrs : tensor<16x32x!tt.ptr<f32>>
  %sum = "tt.reduce"(%x) <{axis = 1 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tt.reduce.return %s : f32
  }) : (tensor<16x32xf32>) -> tensor<16xf32>
  %rows = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %out_base = tt.splat %out : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
  %out_ptrs = tt.addptr %out_base, %rows : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
  tt.store %out_ptrs, %sum : tensor<16x!tt.ptr<f32>>
  tt.return
}

// -----

// A reshape of 1x[N] offsets (unit leading dimensions) into a row-major
// 4x8x4 block: strides [32, 4, 1], whatever the unit dimensions' strides.
// CHECK-LABEL: func.func @reshape_with_unit_dimensions
// CHECK: memref.reinterpret_cast %{{.*}} to offset: [%{{.*}}], sizes: [4, 8, 4], strides: [32, 4, 1]
// CHECK-NOT: tt.load
tt.func public @reshape_with_unit_dimensions(%in: !tt.ptr<f32>, %out: !tt.ptr<f32>) {
  %range = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %row = tt.expand_dims %range {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
  %offs = tt.reshape %row : tensor<1x128xi32> -> tensor<4x8x4xi32>
  %base = tt.splat %in : !tt.ptr<f32> -> tensor<4x8x4x!tt.ptr<f32>>
  %ptrs = tt.addptr %base, %offs : tensor<4x8x4x!tt.ptr<f32>>, tensor<4x8x4xi32>
  %x = tt.load %ptrs : tensor<4x8x4x!tt.ptr<f32>>
  %out_base = tt.splat %out : !tt.ptr<f32> -> tensor<4x8x4x!tt.ptr<f32>>
  %out_ptrs = tt.addptr %out_base, %offs : tensor<4x8x4x!tt.ptr<f32>>, tensor<4x8x4xi32>
  tt.store %out_ptrs, %x : tensor<4x8x4x!tt.ptr<f32>>
  tt.return
}

// -----

// Merging rows of a runtime stride with their columns is a strided block
// only if the stride is the row length, which is not known here: the load
// stays element-wise (for --triton-pointers-to-memref).
// CHECK-LABEL: func.func @reshape_merging_a_runtime_stride
// CHECK-NOT: memref.reinterpret_cast
// CHECK: tt.load
tt.func public @reshape_merging_a_runtime_stride(%in: !tt.ptr<f32>, %stride: i32, %out: !tt.ptr<f32>) {
  %rows = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
  %cols = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
  %rows2 = tt.expand_dims %rows {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
  %strides = tt.splat %stride : i32 -> tensor<4x1xi32>
  %row_offs = arith.muli %rows2, %strides : tensor<4x1xi32>
  %cols2 = tt.expand_dims %cols {axis = 0 : i32} : tensor<8xi32> -> tensor<1x8xi32>
  %rb = tt.broadcast %row_offs : tensor<4x1xi32> -> tensor<4x8xi32>
  %cb = tt.broadcast %cols2 : tensor<1x8xi32> -> tensor<4x8xi32>
  %offs2 = arith.addi %rb, %cb : tensor<4x8xi32>
  %offs = tt.reshape %offs2 : tensor<4x8xi32> -> tensor<32xi32>
  %base = tt.splat %in : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>>
  %ptrs = tt.addptr %base, %offs : tensor<32x!tt.ptr<f32>>, tensor<32xi32>
  %x = tt.load %ptrs : tensor<32x!tt.ptr<f32>>
  %range = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %out_base = tt.splat %out : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>>
  %out_ptrs = tt.addptr %out_base, %range : tensor<32x!tt.ptr<f32>>, tensor<32xi32>
  tt.store %out_ptrs, %x : tensor<32x!tt.ptr<f32>>
  tt.return
}

// -----

// Transposed pointers and mask (`tl.trans(ptrs)`, `tl.trans(mask)`): the
// strides and the mask's extents swap places, so the load is a 32x16 view
// with strides [1, stride] copied in its first (n, 16) positions.
// CHECK-LABEL: func.func @transposed_pointers
// CHECK: %[[STRIDE:.*]] = arith.index_cast %{{.*}} : i32 to index
// CHECK: %[[VIEW:.*]] = memref.reinterpret_cast %{{.*}} to offset: [%{{.*}}], sizes: [32, 16], strides: [1, %[[STRIDE]]]
// CHECK: memref.subview %[[VIEW]][0, 0] [%{{.*}}, 16] [1, 1]
// CHECK: memref.copy
// CHECK-NOT: tt.load
tt.func public @transposed_pointers(%in: !tt.ptr<f32>, %stride: i32, %n: i32, %out: !tt.ptr<f32>) {
  %rows = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %cols = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %rows2 = tt.expand_dims %rows {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %strides = tt.splat %stride : i32 -> tensor<16x1xi32>
  %row_offs = arith.muli %rows2, %strides : tensor<16x1xi32>
  %cols2 = tt.expand_dims %cols {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %rb = tt.broadcast %row_offs : tensor<16x1xi32> -> tensor<16x32xi32>
  %cb = tt.broadcast %cols2 : tensor<1x32xi32> -> tensor<16x32xi32>
  %offs = arith.addi %rb, %cb : tensor<16x32xi32>
  %base = tt.splat %in : !tt.ptr<f32> -> tensor<16x32x!tt.ptr<f32>>
  %ptrs = tt.addptr %base, %offs : tensor<16x32x!tt.ptr<f32>>, tensor<16x32xi32>
  %ptrs_t = tt.trans %ptrs {order = array<i32: 1, 0>} : tensor<16x32x!tt.ptr<f32>> -> tensor<32x16x!tt.ptr<f32>>
  %bound = tt.splat %n : i32 -> tensor<1x32xi32>
  %cols_in = arith.cmpi slt, %cols2, %bound : tensor<1x32xi32>
  %mask = tt.broadcast %cols_in : tensor<1x32xi1> -> tensor<16x32xi1>
  %mask_t = tt.trans %mask {order = array<i32: 1, 0>} : tensor<16x32xi1> -> tensor<32x16xi1>
  %x = tt.load %ptrs_t, %mask_t : tensor<32x16x!tt.ptr<f32>>
  %max = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %m = arith.maxnumf %a, %b : f32
    tt.reduce.return %m : f32
  }) : (tensor<32x16xf32>) -> tensor<16xf32>
  %out_base = tt.splat %out : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
  %out_ptrs = tt.addptr %out_base, %rows : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
  tt.store %out_ptrs, %max : tensor<16x!tt.ptr<f32>>
  tt.return
}
