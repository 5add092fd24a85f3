#pragma once
// The main window: a menu bar (open, save as, export frame, screenshot, recording, recent files,
// reset view, about) around the
// OpenGL scene view. Recent files are kept between runs (QSettings); the autosave is the keeper's.

#include "app/desktop/autosave_keeper.hpp"
#include "app/desktop/scene_view.hpp"

#include <QMainWindow>

class QAction;
class QMenu;

namespace lodestone::desktop {

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  MainWindow(SimulationThread& simulation, ui::UiState& state, const DesktopOptions& options);
  SceneView* view() const { return view_; }
  // Autosaves from now on (app/desktop/autosave_keeper.hpp): its tick a few times a second, and the restore offer's
  // Restore button (after the unsaved-changes question).
  void keep_autosaves(AutosaveKeeper& keeper);
  // The keyboard to the 3-D view (its keys: space, Ctrl+Z, F, Tab...; the menus' shortcuts work from there too),
  // after a dialog or a menu closed, which leave the focus elsewhere. `activate`: the window takes the focus back
  // (after its own dialog); otherwise only when it is the active window already.
  void give_keys_to_view(bool activate = false);

 protected:
  void closeEvent(QCloseEvent* event) override;                // asks before discarding unsaved changes
  bool eventFilter(QObject* watched, QEvent* event) override;  // a .json preset dropped on the 3-D view
  void changeEvent(QEvent* event) override;                    // back from a dialog: the keys go to the view

 private:
  // True when the scene may be replaced: no unsaved changes, or the user saved or discarded them.
  bool confirm_discard(const QString& action);
  void open_preset();
  void open_path(const QString& path);
  void save_preset_as();
  void export_frame();
  void save_screenshot();
  void toggle_recording();
  void remember(const QString& path);
  void rebuild_recent_menu();
  void about();
  void tick_autosaves();

  SimulationThread& simulation_;
  ui::UiState& state_;
  SceneView* view_;
  QMenu* recent_menu_ = nullptr;
  QAction* record_action_ = nullptr;  // "Start recording..." or "Stop recording"
  AutosaveKeeper* autosaves_ = nullptr;
};

}  // namespace lodestone::desktop
