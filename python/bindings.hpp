#pragma once
// The bindings of lodestone.Session, by topic (module.cpp declares the module and calls them).

#include "python/session_handle.hpp"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>

namespace lodestone::python {

// os.PathLike or str, as the engine's file functions take it.
std::string path_text(pybind11::handle path);

// The constructor, from_checkpoint, run, set, get, undo, redo, reset, hold and go (bind_run.cpp).
void bind_running(pybind11::class_<SessionHandle>& c);
// Time, step, dt, threads, phase, waiting, stopped, len, repr, and the particle arrays (bind_state.cpp).
void bind_state(pybind11::class_<SessionHandle>& c);
// observe, clusters, field_at, state_hash, save_preset, save_checkpoint, export_frame, preset (bind_outputs.cpp).
void bind_outputs(pybind11::class_<SessionHandle>& c);

}  // namespace lodestone::python
