#pragma once
// Filling a snapshot (engine/live/snapshot.hpp) from a running session: the simulation thread's side, apart from
// the snapshot itself so that what reads a snapshot (the renderer, the panels) does not include the session.

#include "engine/live/snapshot.hpp"
#include "engine/session/session.hpp"

namespace lodestone {

// Copies the particle arrays and the observables of a simulation into `out`, reusing its buffers.
void capture_snapshot(const Session& session, Snapshot& out);

}  // namespace lodestone
