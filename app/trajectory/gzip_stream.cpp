#include "app/trajectory/gzip_stream.hpp"

#include "engine/output/export_frames.hpp"

#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <streambuf>

namespace lodestone::trajectory {
namespace {

// A write-only stream buffer over a gzFile: bytes gathered in a buffer, deflated by gzwrite when it fills, the
// gzip stream completed (Z_FINISH) at each sync.
class GzipBuffer : public std::streambuf {
 public:
  explicit GzipBuffer(gzFile file) : file_(file) { setp(buffer_, buffer_ + sizeof buffer_); }
  GzipBuffer(const GzipBuffer&) = delete;
  GzipBuffer& operator=(const GzipBuffer&) = delete;
  ~GzipBuffer() override {
    drain();
    gzclose(file_);
  }

 protected:
  int_type overflow(int_type c) override {
    if (!drain()) return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }
  int sync() override { return drain() && gzflush(file_, Z_FINISH) == Z_OK ? 0 : -1; }

 private:
  bool drain() {
    const auto size = static_cast<unsigned>(pptr() - pbase());
    if (size > 0 && gzwrite(file_, pbase(), size) != static_cast<int>(size)) return false;
    setp(buffer_, buffer_ + sizeof buffer_);
    return true;
  }
  gzFile file_;
  char buffer_[1 << 16];
};

class GzipStream : public std::ostream {
 public:
  explicit GzipStream(gzFile file) : std::ostream(nullptr), buffer_(file) { rdbuf(&buffer_); }

 private:
  GzipBuffer buffer_;
};

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

}  // namespace

bool is_gzip_path(const std::string& path) {
  return path.size() > 3 && lower(path.substr(path.size() - 3)) == ".gz";
}

std::string without_gzip_suffix(const std::string& path) {
  return is_gzip_path(path) ? path.substr(0, path.size() - 3) : path;
}

std::unique_ptr<std::ostream> open_gzip_output(const std::string& path) {
  errno = 0;
  gzFile file = gzopen(path.c_str(), "wb6");
  if (!file)
    throw ExportError("cannot write frames to " + path + ": " + (errno ? std::strerror(errno) : "zlib cannot open it"));
  return std::make_unique<GzipStream>(file);
}

}  // namespace lodestone::trajectory
