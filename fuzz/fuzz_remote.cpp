// libFuzzer target: lines of `lodestone --remote` read by the app's own parser (app/desktop/remote_parse.cpp, no
// Qt, no window), and what they yield carried out on a small session. See fuzz/fuzz_remote_harness.hpp and
// docs/reliability.md "Fuzzing".
#include "fuzz/fuzz_remote_harness.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, size_t size) {
  (void)lodestone::fuzz::remote_input(data, size);
  return 0;
}
