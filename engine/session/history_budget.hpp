#pragma once
// How much memory the desktop app gives a run's history (engine/session/history.hpp) when the user does not say
// (`lodestone --history-mib`): it follows the machine.

#include <cstddef>

namespace lodestone {

// The budget on a machine with `memory_bytes` of memory: an eighth of it, between 64 MiB and
// History::kDefaultBudget (a laptop keeps the rest for the scene and the window; from 4 GiB up the run is not
// thinned sooner for it). 0 (unknown) gives the most.
std::size_t history_budget_for(std::size_t memory_bytes);
// This machine's physical memory in bytes; 0 when it cannot be read.
std::size_t physical_memory_bytes();

}  // namespace lodestone
