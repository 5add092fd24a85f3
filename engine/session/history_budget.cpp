#include "engine/session/history_budget.hpp"

#include "engine/session/history.hpp"

#include <unistd.h>

#include <algorithm>

namespace lodestone {

std::size_t history_budget_for(std::size_t memory_bytes) {
  constexpr std::size_t kLeast = std::size_t{64} << 20;
  if (memory_bytes == 0) return History::kDefaultBudget;
  return std::clamp(memory_bytes / 8, kLeast, History::kDefaultBudget);
}

std::size_t physical_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page <= 0) return 0;
  return static_cast<std::size_t>(pages) * static_cast<std::size_t>(page);
}

}  // namespace lodestone
