// Writes the checkpoint target's seed corpus: usage `make_checkpoint_seeds OUT_DIR PRESET[:COUNT]...`.
// Each preset (its generator's count replaced by COUNT when given, to keep the seeds small) runs a few
// steps and is saved with save_checkpoint, as `lodestone-run --checkpoint` saves it; the seeds thus
// always have the current format version (scripts/fuzz.sh writes them into the build directory).
#include "engine/scene/checkpoint.hpp"
#include "engine/scene/document.hpp"
#include "engine/scene/preset_io.hpp"
#include "engine/session/session.hpp"

#include <cstdio>
#include <exception>
#include <filesystem>
#include <string>

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s OUT_DIR PRESET[:COUNT]...\n", argv[0]);
    return 2;
  }
  const std::filesystem::path out_dir = argv[1];
  std::filesystem::create_directories(out_dir);
  for (int k = 2; k < argc; ++k) {
    std::string arg = argv[k], path = arg;
    int count = -1;
    if (const auto colon = arg.rfind(':'); colon != std::string::npos) {
      path = arg.substr(0, colon);
      count = std::stoi(arg.substr(colon + 1));
    }
    try {
      lodestone::Preset preset = lodestone::load_preset_file(path);
      if (count >= 0) preset.particles.count = count;
      lodestone::Session session(preset);
      session.run(20);
      const std::string name =
          std::filesystem::path(path).stem().string() + (count >= 0 ? "-" + std::to_string(count) : "");
      const std::filesystem::path file = out_dir / (name + ".ckpt");
      lodestone::save_checkpoint(file.string(), session.document(), session.state());
      std::printf("seed %s (%zu particles, %ju bytes)\n", file.c_str(), session.state().particles.size(),
                  static_cast<std::uintmax_t>(std::filesystem::file_size(file)));
    } catch (const std::exception& e) {
      std::fprintf(stderr, "%s: %s\n", arg.c_str(), e.what());
      return 1;
    }
  }
  return 0;
}
