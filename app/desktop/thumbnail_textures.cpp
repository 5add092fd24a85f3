#include "app/desktop/thumbnail_textures.hpp"

#include <QImage>
#include <QOpenGLContext>
#include <QOpenGLFunctions>

namespace lodestone::desktop {

void load_thumbnail_textures(ui::UiState& state) {
  QOpenGLFunctions* gl = QOpenGLContext::currentContext() ? QOpenGLContext::currentContext()->functions() : nullptr;
  if (!gl) return;
  for (const ui::PresetEntry& e : state.presets) {
    if (e.thumbnail.empty() || state.thumbnail_textures.count(e.thumbnail)) continue;
    const QImage image = QImage(QString::fromStdString(e.thumbnail)).convertToFormat(QImage::Format_RGBA8888);
    GLuint texture = 0;
    if (!image.isNull()) {
      gl->glGenTextures(1, &texture);
      gl->glBindTexture(GL_TEXTURE_2D, texture);
      gl->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
      gl->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
      gl->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
      gl->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
      gl->glPixelStorei(GL_UNPACK_ALIGNMENT, 4);  // RGBA rows are whole words
      gl->glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, image.width(), image.height(), 0, GL_RGBA, GL_UNSIGNED_BYTE,
                       image.constBits());
      gl->glBindTexture(GL_TEXTURE_2D, 0);
    }
    state.thumbnail_textures[e.thumbnail] = texture;
  }
}

void release_thumbnail_textures(ui::UiState& state) {
  QOpenGLFunctions* gl = QOpenGLContext::currentContext() ? QOpenGLContext::currentContext()->functions() : nullptr;
  for (const auto& [file, texture] : state.thumbnail_textures) {
    const auto id = static_cast<GLuint>(texture);
    if (gl && id != 0) gl->glDeleteTextures(1, &id);
  }
  state.thumbnail_textures.clear();
}

}  // namespace lodestone::desktop
