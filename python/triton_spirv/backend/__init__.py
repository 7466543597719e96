"""The Triton backend plugin (entry point group `triton.backends`, name `spirv`):
Triton imports `compiler` and `driver` from here."""
