#include "engine/core/preset.hpp"

namespace lodestone {

int material_index(const std::vector<Material>& materials, const std::string& name) {
  if (name.empty()) return materials.empty() ? -1 : 0;
  for (size_t i = 0; i < materials.size(); ++i)
    if (materials[i].name == name) return static_cast<int>(i);
  return -1;
}

}  // namespace lodestone
