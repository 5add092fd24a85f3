// libFuzzer target: checkpoint bytes -> checkpoint_from_bytes (what load_checkpoint does with a file's
// bytes), then a small saved run continued. See fuzz/fuzz_harness.hpp and docs/reliability.md "Fuzzing".
#include "fuzz/fuzz_harness.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, size_t size) {
  (void)lodestone::fuzz::checkpoint_input(data, size);
  return 0;
}
