// libFuzzer target: preset text -> parse_preset (what load_preset_file does with a file's bytes), then
// a small scene built and stepped. See fuzz/fuzz_harness.hpp and docs/reliability.md "Fuzzing".
#include "engine/scene/document.hpp"
#include "fuzz/fuzz_harness.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, size_t size) {
  (void)lodestone::fuzz::preset_input(data, size);
  return 0;
}
