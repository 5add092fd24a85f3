#pragma once
// A small Qt -> Dear ImGui input bridge (Debian's ImGui 1.86 has no Qt backend and no input
// queue): mouse, wheel, keys, text, clipboard, display size and DPI, time. Drawing goes through
// ImGui's own OpenGL 3 backend. Every event is forwarded; the caller acts on it only when ImGui
// does not want it (wants_pointer() / wants_keyboard()).

#include <QElapsedTimer>
#include <Qt>

#include <array>

class QWindow;
class QMouseEvent;
class QWheelEvent;
class QKeyEvent;
struct ImGuiContext;

namespace lodestone::ui {

class ImGuiBridge {
 public:
  explicit ImGuiBridge(QWindow* window);
  ~ImGuiBridge();
  ImGuiBridge(const ImGuiBridge&) = delete;
  ImGuiBridge& operator=(const ImGuiBridge&) = delete;

  // With the window's GL context current.
  bool initialize_gl();
  void shutdown_gl();
  void new_frame();  // feeds size, scale, time and latched buttons, then ImGui::NewFrame()
  void render();     // ImGui::Render() and the OpenGL 3 backend

  void mouse_move(QMouseEvent* event);
  void mouse_press(QMouseEvent* event);
  void mouse_release(QMouseEvent* event);
  void wheel(QWheelEvent* event);
  void key_press(QKeyEvent* event);
  void key_release(QKeyEvent* event);

  // A press, a double click or a wheel turn belongs to the panels when the pointer is over one of their windows now
  // (not where the last frame saw it: a resting view may not have drawn since it moved), a widget is being dragged
  // or a modal dialog is up. A click in the 3-D view that only closes an open list reaches the view as well (issue
  // 39, bug 8: the first click after choosing from a list was lost).
  bool wants_pointer() const;
  bool wants_keyboard() const;

 private:
  void set_modifiers(Qt::KeyboardModifiers modifiers);

  QWindow* window_;
  ImGuiContext* context_ = nullptr;
  QElapsedTimer clock_;
  bool gl_ready_ = false;
  std::array<bool, 3> down_{};
  // A press and release between two frames would be lost: report the button or key down for one
  // frame (keys are indexed as in ImGuiBridge's key table).
  std::array<bool, 3> pressed_since_frame_{};
  std::array<bool, 32> keys_down_{};
  std::array<bool, 32> keys_pressed_since_frame_{};
  // Modifiers held now, and those held with a key pressed since the last frame (so Ctrl+A typed
  // faster than a frame still selects all).
  Qt::KeyboardModifiers modifiers_ = Qt::NoModifier;
  Qt::KeyboardModifiers latched_modifiers_ = Qt::NoModifier;
};

}  // namespace lodestone::ui
