#include "app/desktop/movie_overlay.hpp"

#include <QFont>
#include <QLinearGradient>
#include <QPainter>

#include <algorithm>
#include <cstdio>

namespace lodestone::desktop {
namespace {

QColor colour(const render::Rgb& c) {
  return QColor::fromRgbF(c[0], c[1], c[2]);
}

}  // namespace

void paint_movie_overlay(QImage& frame, const ui::RecordSettings& settings, const Snapshot& s,
                         const render::ColorScale& legend) {
  if (settings.title.empty() && !settings.show_time_and_legend) return;
  if (frame.format() != QImage::Format_RGBA8888 && frame.format() != QImage::Format_RGB888)
    frame = frame.convertToFormat(QImage::Format_RGBA8888);
  QPainter painter(&frame);
  painter.setRenderHint(QPainter::Antialiasing);
  QFont font = painter.font();
  font.setPixelSize(std::max(12, frame.height() / 40));
  painter.setFont(font);
  const int margin = font.pixelSize();
  const QColor text(235, 235, 235), panel(0, 0, 0, 150);
  auto boxed_text = [&](const QString& line, int x, int y_bottom) {
    const QRect bounds = painter.fontMetrics().boundingRect(line).adjusted(-6, -4, 6, 4);
    const QRect box = bounds.translated(x - bounds.left(), y_bottom - bounds.bottom());
    painter.fillRect(box, panel);
    painter.setPen(text);
    painter.drawText(box, Qt::AlignCenter, line);
    return box;
  };
  if (!settings.title.empty())
    boxed_text(QString::fromStdString(settings.title), margin, margin + painter.fontMetrics().height());
  if (!settings.show_time_and_legend) return;
  char time[64];
  std::snprintf(time, sizeof time, "t = %.4g s", s.time);
  boxed_text(time, margin, frame.height() - margin);
  // The legend: its title over a bar of its colours (swatches for categories), ends labelled.
  const int bar_width = std::min(frame.width() / 3, 12 * font.pixelSize()), bar_height = font.pixelSize() / 2 + 4;
  const int right = frame.width() - margin, bottom = frame.height() - margin;
  const int line = painter.fontMetrics().height();
  const QRect bar(right - bar_width, bottom - line - bar_height, bar_width, bar_height);
  const int title_width = painter.fontMetrics().horizontalAdvance(QString::fromStdString(legend.title));
  const QRect box(std::min(bar.left(), right - title_width) - 8, bar.top() - line - 8,
                  std::max(bar_width, title_width) + 16, bar_height + 2 * line + 16);
  painter.fillRect(box, panel);
  painter.setPen(text);
  painter.drawText(QRect(box.left() + 8, bar.top() - line - 2, box.width() - 16, line), Qt::AlignLeft,
                   QString::fromStdString(legend.title));
  if (legend.categorical || legend.stops.size() < 2) {
    const int n = std::max<int>(1, static_cast<int>(legend.stops.size()));
    for (int k = 0; k < n && k < static_cast<int>(legend.stops.size()); ++k)
      painter.fillRect(QRect(bar.left() + k * bar_width / n + 1, bar.top(), bar_width / n - 2, bar_height),
                       colour(legend.stops[static_cast<size_t>(k)]));
  } else {
    QLinearGradient gradient(bar.topLeft(), bar.topRight());
    for (size_t k = 0; k < legend.stops.size(); ++k)
      gradient.setColorAt(static_cast<double>(k) / static_cast<double>(legend.stops.size() - 1),
                          colour(legend.stops[k]));
    painter.fillRect(bar, gradient);
  }
  const QString low = QString::fromStdString(legend.ticks.empty() ? legend.low_label : legend.ticks.front());
  const QString high = QString::fromStdString(legend.ticks.empty() ? legend.high_label : legend.ticks.back());
  painter.drawText(QRect(bar.left(), bar.bottom() + 2, bar_width, line), Qt::AlignLeft, low);
  painter.drawText(QRect(bar.left(), bar.bottom() + 2, bar_width, line), Qt::AlignRight, high);
}

}  // namespace lodestone::desktop
