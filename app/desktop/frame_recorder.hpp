#pragma once
// Writes the frames of a movie (ui/recording.hpp): a numbered PNG sequence, encoded and written on
// a worker thread so the window keeps drawing, or an MP4 through an ffmpeg process fed raw RGB on
// its standard input. GUI thread only (the worker is private to this object).
//
// Nothing half-written is left under the final name: each PNG is written to a temporary file and
// renamed; the MP4 goes to "<name>.part" and is renamed when ffmpeg has finished it.

#include "ui/recording.hpp"

#include <QImage>

#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

class QProcess;

namespace lodestone::desktop {

class FrameRecorder {
 public:
  FrameRecorder();
  ~FrameRecorder();  // stops a recording, keeping what was written
  FrameRecorder(const FrameRecorder&) = delete;
  FrameRecorder& operator=(const FrameRecorder&) = delete;

  // Starts recording frames of a view_width x view_height view. Returns an empty string, or why it
  // cannot start (bad settings, ffmpeg missing, ...).
  std::string start(const ui::RecordSettings& settings, int view_width, int view_height);
  // Adds one frame: scaled to cover the frame size (keeping its shape, cropped at the centre).
  // Waits when the writer is more than a few frames behind, so no frame is dropped. Returns false
  // (and stops) when writing failed; error() says why.
  bool add(const QImage& frame);
  // Finishes the recording; returns a summary ("12 frames to movie.mp4") or why it failed.
  std::string stop(bool& failed);

  bool active() const { return active_; }
  bool scene_only() const { return settings_.scene_only; }
  long long frames() const { return frames_; }
  const std::string& error() const { return error_; }

 private:
  void png_worker();
  void fail(const std::string& why);
  std::string ffmpeg_output() const;

  ui::RecordSettings settings_;
  ui::RecordFormat format_ = ui::RecordFormat::PngSequence;
  int width_ = 0, height_ = 0;
  bool active_ = false;
  long long frames_ = 0;
  std::string error_;
  // MP4
  std::unique_ptr<QProcess> ffmpeg_;
  std::string part_path_;
  // PNG sequence: frames waiting for the worker, and the worker's first failure.
  std::thread worker_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::pair<long long, QImage>> queue_;
  bool closing_ = false;
  std::string worker_error_;
};

}  // namespace lodestone::desktop
