#pragma once
// A fingerprint of a state for exact comparisons between runs (the app's `hash` remote command, the
// runner's --hash, the history and undo tests): FNV-1a over the bits of every particle's id, position,
// velocity and orientation, taken in id order so that the neighbour sort's reordering does not change it.
// Two states with the same hash are, for any practical purpose, bit-identical in their motion.

#include "engine/core/state.hpp"

#include <cstdint>
#include <string>

namespace lodestone {

std::uint64_t state_hash(const State& state);
// The hash as 16 lowercase hex digits.
std::string hash_hex(std::uint64_t hash);

}  // namespace lodestone
