# Debian's MLIR targets link the shared libLLVM. triton-spirv-opt must run on
# machines without LLVM installed (the GPU machine), so every imported MLIR
# target that names `LLVM` gets the static LLVM component libraries instead.
llvm_map_components_to_libnames(TRITON_SPIRV_STATIC_LLVM_LIBS
  support demangle targetparser core binaryformat bitstreamreader remarks)

get_directory_property(_mlir_imported_targets IMPORTED_TARGETS)
foreach(_target IN LISTS _mlir_imported_targets)
  get_target_property(_libs ${_target} INTERFACE_LINK_LIBRARIES)
  if(_libs AND "LLVM" IN_LIST _libs)
    list(REMOVE_ITEM _libs LLVM)
    list(APPEND _libs ${TRITON_SPIRV_STATIC_LLVM_LIBS})
    set_target_properties(${_target} PROPERTIES INTERFACE_LINK_LIBRARIES "${_libs}")
  endif()
endforeach()
