#pragma once
// Text frames written gzip-compressed (a frames path ending in .gz; zlib, which the engine does not link): an
// output stream whose bytes go through zlib's gzip writer. A flush completes the gzip stream written so far (a
// member of a multi-member file, which gzip, zcat, Python's gzip and numpy read as one), so the file is whole after
// FrameSeriesWriter::finish; a crashed run leaves its last member cut short.

#include <memory>
#include <ostream>
#include <string>

namespace lodestone::trajectory {

// True when the path ends in .gz (case-insensitive).
bool is_gzip_path(const std::string& path);
// The path without its .gz (the name that chooses the frame format): "run.xyz.gz" -> "run.xyz".
std::string without_gzip_suffix(const std::string& path);
// A new gzip file at `path` as a stream; throws ExportError (engine/output/export_frames.hpp) naming the path and
// the reason when it cannot be created.
std::unique_ptr<std::ostream> open_gzip_output(const std::string& path);

}  // namespace lodestone::trajectory
