// libFuzzer target: Python's set(PATH, VALUE) after the value's conversion (python/session_handle.cpp):
// Session::prepare_edit, its edit_warning, then Session::apply_prepared, on a small scene, with the edit invariants.
// See fuzz/fuzz_edit_harness.hpp and docs/reliability.md "Fuzzing".
#include "fuzz/fuzz_edit_harness.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, size_t size) {
  (void)lodestone::fuzz::set_input(data, size);
  return 0;
}
