#include "app/desktop/frame_recorder.hpp"

#include <QProcess>
#include <QSaveFile>
#include <QStandardPaths>

#include <filesystem>

namespace lodestone::desktop {
namespace {

constexpr size_t kMaxQueuedFrames = 4;              // PNG frames waiting for the worker
constexpr qint64 kMaxPipeBacklog = 64 << 20;        // bytes waiting to go to ffmpeg
constexpr int kFfmpegFinishMilliseconds = 120'000;  // to encode the tail and write the index

// `image` scaled to cover width x height and cropped at the centre: no stretching, no borders.
QImage cover(const QImage& image, int width, int height) {
  if (image.width() == width && image.height() == height) return image.convertToFormat(QImage::Format_RGB888);
  const QImage scaled = image.scaled(width, height, Qt::KeepAspectRatioByExpanding, Qt::SmoothTransformation);
  return scaled.copy((scaled.width() - width) / 2, (scaled.height() - height) / 2, width, height)
      .convertToFormat(QImage::Format_RGB888);
}

}  // namespace

FrameRecorder::FrameRecorder() = default;

FrameRecorder::~FrameRecorder() {
  bool failed = false;
  if (active_) stop(failed);
}

std::string FrameRecorder::start(const ui::RecordSettings& settings, int view_width, int view_height) {
  if (active_) return "already recording";
  if (std::string problem = ui::check_record_settings(settings); !problem.empty()) return problem;
  settings_ = settings;
  format_ = *ui::record_format_of(settings.path);
  std::tie(width_, height_) = ui::record_frame_size(settings, view_width, view_height);
  frames_ = 0;
  error_.clear();
  if (format_ == ui::RecordFormat::Mp4) {
    const QString program = QStandardPaths::findExecutable("ffmpeg");
    if (program.isEmpty())
      return "ffmpeg is not installed: install it (apt-get install ffmpeg) for MP4, or record a PNG sequence (.png)";
    part_path_ = settings.path + ".part";
    ffmpeg_ = std::make_unique<QProcess>();
    ffmpeg_->setProcessChannelMode(QProcess::MergedChannels);
    // Raw RGB frames in, H.264 out; yuv420p is what players expect; -f mp4 because the temporary
    // name has no .mp4 extension; faststart puts the index first for playback while downloading.
    ffmpeg_->start(program, {"-hide_banner",
                             "-loglevel",
                             "error",
                             "-y",
                             "-f",
                             "rawvideo",
                             "-pixel_format",
                             "rgb24",
                             "-video_size",
                             QString("%1x%2").arg(width_).arg(height_),
                             "-framerate",
                             QString::number(settings.fps),
                             "-i",
                             "-",
                             "-c:v",
                             "libx264",
                             "-preset",
                             "veryfast",
                             "-crf",
                             "18",
                             "-pix_fmt",
                             "yuv420p",
                             "-movflags",
                             "+faststart",
                             "-f",
                             "mp4",
                             QString::fromStdString(part_path_)});
    if (!ffmpeg_->waitForStarted(10'000)) {
      const std::string why = ffmpeg_->errorString().toStdString();
      ffmpeg_.reset();
      return "ffmpeg did not start: " + why;
    }
  } else {
    closing_ = false;
    worker_error_.clear();
    worker_ = std::thread([this] { png_worker(); });
  }
  active_ = true;
  return {};
}

bool FrameRecorder::add(const QImage& frame) {
  if (!active_) return false;
  QImage image = cover(frame, width_, height_);
  if (format_ == ui::RecordFormat::Mp4) {
    if (ffmpeg_->state() != QProcess::Running) {
      fail("ffmpeg stopped: " + ffmpeg_output());
      return false;
    }
    for (int row = 0; row < height_; ++row)
      ffmpeg_->write(reinterpret_cast<const char*>(image.constScanLine(row)), static_cast<qint64>(width_) * 3);
    while (ffmpeg_->bytesToWrite() > kMaxPipeBacklog && ffmpeg_->state() == QProcess::Running)
      ffmpeg_->waitForBytesWritten(1000);
  } else {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [this] { return queue_.size() < kMaxQueuedFrames || !worker_error_.empty(); });
    if (!worker_error_.empty()) {
      const std::string why = worker_error_;
      lock.unlock();
      fail(why);
      return false;
    }
    queue_.emplace_back(frames_ + 1, std::move(image));
    changed_.notify_all();
  }
  ++frames_;
  return true;
}

void FrameRecorder::png_worker() {
  for (;;) {
    std::pair<long long, QImage> item;
    {
      std::unique_lock lock(mutex_);
      changed_.wait(lock, [this] { return !queue_.empty() || closing_; });
      if (queue_.empty()) return;
      item = std::move(queue_.front());
    }
    // Written under a temporary name and renamed: a frame file is whole or absent.
    const QString path = QString::fromStdString(ui::png_sequence_path(settings_.path, item.first));
    QSaveFile file(path);
    const bool written = file.open(QIODevice::WriteOnly) && item.second.save(&file, "PNG") && file.commit();
    std::lock_guard lock(mutex_);
    queue_.pop_front();
    if (!written && worker_error_.empty())
      worker_error_ = "cannot write " + path.toStdString() + ": " + file.errorString().toStdString();
    changed_.notify_all();
    if (!worker_error_.empty()) return;
  }
}

void FrameRecorder::fail(const std::string& why) {
  error_ = why;
  bool ignored = false;
  stop(ignored);
}

std::string FrameRecorder::ffmpeg_output() const {
  std::string text = ffmpeg_ ? ffmpeg_->readAll().trimmed().toStdString() : std::string();
  return text.empty() ? "(no message)" : text;
}

std::string FrameRecorder::stop(bool& failed) {
  if (!active_) {
    failed = !error_.empty();
    return error_;
  }
  active_ = false;
  if (format_ == ui::RecordFormat::Mp4) {
    ffmpeg_->closeWriteChannel();
    const bool finished = ffmpeg_->waitForFinished(kFfmpegFinishMilliseconds);
    const bool ok = finished && ffmpeg_->exitStatus() == QProcess::NormalExit && ffmpeg_->exitCode() == 0;
    if (!ok && error_.empty()) error_ = "ffmpeg failed: " + ffmpeg_output();
    if (!finished) ffmpeg_->kill();
    ffmpeg_.reset();
    std::error_code code;
    if (ok && error_.empty()) {
      std::filesystem::rename(part_path_, settings_.path, code);
      if (code) error_ = "cannot rename " + part_path_ + " to " + settings_.path + ": " + code.message();
    }
    if (!error_.empty()) std::filesystem::remove(part_path_, code);
  } else {
    {
      std::lock_guard lock(mutex_);
      closing_ = true;
      changed_.notify_all();
    }
    worker_.join();
    if (error_.empty()) error_ = worker_error_;
    queue_.clear();
  }
  failed = !error_.empty();
  if (failed) return "recording stopped after " + std::to_string(frames_) + " frames: " + error_;
  const std::string where =
      format_ == ui::RecordFormat::Mp4
          ? settings_.path
          : ui::png_sequence_path(settings_.path, 1) + " .. " +
                std::filesystem::path(ui::png_sequence_path(settings_.path, frames_)).filename().string();
  return std::to_string(frames_) + " frames (" + std::to_string(width_) + "x" + std::to_string(height_) + ", " +
         std::to_string(settings_.fps) + " frames/s) to " + where;
}

}  // namespace lodestone::desktop
