#include "ui/imgui_bridge.hpp"

#include <QClipboard>
#include <QGuiApplication>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QWheelEvent>
#include <QWindow>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>
#include <imgui_internal.h>  // the hovered window and the open modal, for wants_pointer

#include <string>
#include <utility>

namespace lodestone::ui {
namespace {

// ImGui 1.86 reads keys from io.KeysDown[512] through io.KeyMap; Qt key codes are too large for
// that array, so each key ImGui uses gets a small index here.
const std::pair<ImGuiKey_, int> kKeys[] = {
    {ImGuiKey_Tab, Qt::Key_Tab},
    {ImGuiKey_LeftArrow, Qt::Key_Left},
    {ImGuiKey_RightArrow, Qt::Key_Right},
    {ImGuiKey_UpArrow, Qt::Key_Up},
    {ImGuiKey_DownArrow, Qt::Key_Down},
    {ImGuiKey_PageUp, Qt::Key_PageUp},
    {ImGuiKey_PageDown, Qt::Key_PageDown},
    {ImGuiKey_Home, Qt::Key_Home},
    {ImGuiKey_End, Qt::Key_End},
    {ImGuiKey_Insert, Qt::Key_Insert},
    {ImGuiKey_Delete, Qt::Key_Delete},
    {ImGuiKey_Backspace, Qt::Key_Backspace},
    {ImGuiKey_Space, Qt::Key_Space},
    {ImGuiKey_Enter, Qt::Key_Return},
    {ImGuiKey_Escape, Qt::Key_Escape},
    {ImGuiKey_KeyPadEnter, Qt::Key_Enter},
    {ImGuiKey_A, Qt::Key_A},
    {ImGuiKey_C, Qt::Key_C},
    {ImGuiKey_V, Qt::Key_V},
    {ImGuiKey_X, Qt::Key_X},
    {ImGuiKey_Y, Qt::Key_Y},
    {ImGuiKey_Z, Qt::Key_Z},
};

static_assert(std::size(kKeys) < 32, "the key latch arrays hold 31 keys");

int key_index(int qt_key) {
  for (size_t i = 0; i < std::size(kKeys); ++i)
    if (kKeys[i].second == qt_key) return static_cast<int>(i) + 1;
  return -1;
}

int button_index(Qt::MouseButton button) {
  switch (button) {
    case Qt::LeftButton: return 0;
    case Qt::RightButton: return 1;
    case Qt::MiddleButton: return 2;
    default: return -1;
  }
}

std::string clipboard_text;
const char* get_clipboard(void*) {
  clipboard_text = QGuiApplication::clipboard()->text().toStdString();
  return clipboard_text.c_str();
}
void set_clipboard(void*, const char* text) {
  QGuiApplication::clipboard()->setText(QString::fromUtf8(text));
}

}  // namespace

ImGuiBridge::ImGuiBridge(QWindow* window) : window_(window) {
  IMGUI_CHECKVERSION();
  context_ = ImGui::CreateContext();
  ImGui::SetCurrentContext(context_);
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // no imgui.ini in the working directory: nothing hidden between runs
  io.LogFilename = nullptr;
  io.BackendPlatformName = "lodestone-qt";
  for (size_t i = 0; i < std::size(kKeys); ++i) io.KeyMap[kKeys[i].first] = static_cast<int>(i) + 1;
  io.GetClipboardTextFn = get_clipboard;
  io.SetClipboardTextFn = set_clipboard;
  ImGui::StyleColorsDark();
  ImGuiStyle& style = ImGui::GetStyle();
  style.WindowRounding = 4.0f;
  style.FrameRounding = 3.0f;
  clock_.start();
}

ImGuiBridge::~ImGuiBridge() {
  ImGui::SetCurrentContext(context_);
  ImGui::DestroyContext(context_);
}

bool ImGuiBridge::initialize_gl() {
  ImGui::SetCurrentContext(context_);
  gl_ready_ = ImGui_ImplOpenGL3_Init("#version 330 core");
  return gl_ready_;
}

void ImGuiBridge::shutdown_gl() {
  if (!gl_ready_) return;
  ImGui::SetCurrentContext(context_);
  ImGui_ImplOpenGL3_Shutdown();
  gl_ready_ = false;
}

void ImGuiBridge::new_frame() {
  ImGui::SetCurrentContext(context_);
  ImGuiIO& io = ImGui::GetIO();
  const qreal scale = window_->devicePixelRatio();
  io.DisplaySize = ImVec2(static_cast<float>(window_->width()), static_cast<float>(window_->height()));
  io.DisplayFramebufferScale = ImVec2(static_cast<float>(scale), static_cast<float>(scale));
  const double elapsed = static_cast<double>(clock_.nsecsElapsed()) * 1e-9;
  clock_.restart();
  io.DeltaTime = elapsed > 0.0 ? static_cast<float>(elapsed) : 1.0f / 60.0f;
  for (size_t b = 0; b < down_.size(); ++b) {
    io.MouseDown[b] = down_[b] || pressed_since_frame_[b];
    pressed_since_frame_[b] = false;
  }
  for (size_t k = 0; k < keys_down_.size(); ++k) {
    io.KeysDown[k] = keys_down_[k] || keys_pressed_since_frame_[k];
    keys_pressed_since_frame_[k] = false;
  }
  const Qt::KeyboardModifiers m = modifiers_ | latched_modifiers_;
  latched_modifiers_ = Qt::NoModifier;
  io.KeyCtrl = m & Qt::ControlModifier;
  io.KeyShift = m & Qt::ShiftModifier;
  io.KeyAlt = m & Qt::AltModifier;
  io.KeySuper = m & Qt::MetaModifier;
  ImGui_ImplOpenGL3_NewFrame();
  ImGui::NewFrame();
  // The mouse cursor shape ImGui asks for (text fields, resize grips).
  Qt::CursorShape shape = Qt::ArrowCursor;
  switch (ImGui::GetMouseCursor()) {
    case ImGuiMouseCursor_TextInput: shape = Qt::IBeamCursor; break;
    case ImGuiMouseCursor_ResizeNS: shape = Qt::SizeVerCursor; break;
    case ImGuiMouseCursor_ResizeEW: shape = Qt::SizeHorCursor; break;
    case ImGuiMouseCursor_ResizeNWSE: shape = Qt::SizeFDiagCursor; break;
    case ImGuiMouseCursor_Hand: shape = Qt::PointingHandCursor; break;
    default: break;
  }
  if (window_->cursor().shape() != shape) window_->setCursor(shape);
}

void ImGuiBridge::render() {
  ImGui::SetCurrentContext(context_);
  ImGui::Render();
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

void ImGuiBridge::set_modifiers(Qt::KeyboardModifiers m) {
  modifiers_ = m;
}

void ImGuiBridge::mouse_move(QMouseEvent* e) {
  ImGui::SetCurrentContext(context_);
  ImGui::GetIO().MousePos = ImVec2(static_cast<float>(e->position().x()), static_cast<float>(e->position().y()));
  set_modifiers(e->modifiers());
}

void ImGuiBridge::mouse_press(QMouseEvent* e) {
  ImGui::SetCurrentContext(context_);
  mouse_move(e);
  const int b = button_index(e->button());
  if (b < 0) return;
  down_[static_cast<size_t>(b)] = true;
  pressed_since_frame_[static_cast<size_t>(b)] = true;
}

void ImGuiBridge::mouse_release(QMouseEvent* e) {
  ImGui::SetCurrentContext(context_);
  mouse_move(e);
  const int b = button_index(e->button());
  if (b >= 0) down_[static_cast<size_t>(b)] = false;
}

void ImGuiBridge::wheel(QWheelEvent* e) {
  ImGui::SetCurrentContext(context_);
  ImGuiIO& io = ImGui::GetIO();
  io.MousePos = ImVec2(static_cast<float>(e->position().x()), static_cast<float>(e->position().y()));
  io.MouseWheel += static_cast<float>(e->angleDelta().y()) / 120.0f;
  io.MouseWheelH += static_cast<float>(e->angleDelta().x()) / 120.0f;
}

void ImGuiBridge::key_press(QKeyEvent* e) {
  ImGui::SetCurrentContext(context_);
  ImGuiIO& io = ImGui::GetIO();
  set_modifiers(e->modifiers());
  const int k = key_index(e->key());
  if (k >= 0) {
    keys_down_[static_cast<size_t>(k)] = true;
    keys_pressed_since_frame_[static_cast<size_t>(k)] = true;
    latched_modifiers_ |= e->modifiers();
  }
  const QString text = e->text();
  if (!text.isEmpty() && text.at(0).isPrint()) io.AddInputCharactersUTF8(text.toUtf8().constData());
}

void ImGuiBridge::key_release(QKeyEvent* e) {
  ImGui::SetCurrentContext(context_);
  set_modifiers(e->modifiers());
  const int k = key_index(e->key());
  if (k >= 0) keys_down_[static_cast<size_t>(k)] = false;
}

bool ImGuiBridge::wants_pointer() const {
  ImGui::SetCurrentContext(context_);
  const ImGuiContext& g = *GImGui;
  if (g.ActiveId != 0 || ImGui::GetTopMostPopupModal() != nullptr) return true;
  const ImVec2 at = g.IO.MousePos;
  for (const ImGuiWindow* w : g.Windows)
    if (w->WasActive && !w->Hidden && !(w->Flags & ImGuiWindowFlags_NoMouseInputs) && w->Rect().Contains(at))
      return true;
  return false;
}
bool ImGuiBridge::wants_keyboard() const {
  return ImGui::GetIO().WantCaptureKeyboard;
}

}  // namespace lodestone::ui
