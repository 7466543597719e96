// RUN: not triton-spirv-opt %s --triton-spirv-resolve-target="target=lavapipe" %prepare-for-spirv --triton-spirv-fuse-multiply-adds %convert-to-spirv --diagnostics-file=%t.jsonl -o /dev/null 2>&1 | FileCheck %s --check-prefix=TEXT
// RUN: FileCheck %s --input-file=%t.jsonl --check-prefix=JSON

// A resource overrun is text on stderr and, with --diagnostics-file, a JSON
// record whose data a caller reads (the backend raises OutOfResources).
// TEXT: error: out of resources: the kernel needs 36864 bytes of workgroup memory, the target has 32768
// JSON: {"data":{"limit":32768,"needed":36864,"resource":"workgroup-memory"}
// JSON-SAME: "message":"out of resources: the kernel needs 36864 bytes
// JSON-SAME: "severity":"error"}
func.func @too_much_workgroup_memory(%buf: memref<?xf32> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 0 : i64})
    attributes {triton_spirv.kernel} {
  %a = memref.alloc() : memref<8192xf32, #gpu.address_space<workgroup>>
  %b = memref.alloc() : memref<1024xf32, #gpu.address_space<workgroup>>
  %c0 = arith.constant 0 : index
  %x = memref.load %a[%c0] : memref<8192xf32, #gpu.address_space<workgroup>>
  %y = memref.load %b[%c0] : memref<1024xf32, #gpu.address_space<workgroup>>
  %z = arith.addf %x, %y : f32
  memref.store %z, %a[%c0] : memref<8192xf32, #gpu.address_space<workgroup>>
  memref.store %z, %b[%c0] : memref<1024xf32, #gpu.address_space<workgroup>>
  return
}
