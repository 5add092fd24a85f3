#include "app/desktop/main_window.hpp"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
#include <QTimer>

namespace lodestone::desktop {
namespace {

constexpr int kRecentFiles = 8;

// Hands the keys back to the 3-D view when a dialog of the enclosing function has closed: without a window manager
// (a kiosk, Xvfb) nothing else gives the main window back its focus, and space or Ctrl+O would go nowhere.
class KeysBackToView {
 public:
  explicit KeysBackToView(MainWindow* window) : window_(window) {}
  ~KeysBackToView() {
    QTimer::singleShot(0, window_, [w = window_] { w->give_keys_to_view(/*activate=*/true); });
  }
  KeysBackToView(const KeysBackToView&) = delete;
  KeysBackToView& operator=(const KeysBackToView&) = delete;

 private:
  MainWindow* window_;
};

}  // namespace

MainWindow::MainWindow(SimulationThread& simulation, ui::UiState& state, const DesktopOptions& options)
    : simulation_(simulation), state_(state), view_(new SceneView(simulation, state, options)) {
  setWindowTitle("Lodestone[*]");  // [*]: Qt shows "*" while the window is modified (unsaved changes)
  QWidget* container = QWidget::createWindowContainer(view_, this);  // takes ownership of the view
  container->setFocusPolicy(Qt::StrongFocus);
  container->setMinimumSize(320, 240);
  setCentralWidget(container);
  container->setFocus();

  QMenu* file = menuBar()->addMenu("&File");
  file->addAction("Sc&enes...", this, [this] {  // the gallery of presets (ui/gallery.hpp), inside the view
    state_.gallery_open = true;
    view_->wake();
  });
  file->addAction("&Open preset...", QKeySequence::Open, this, &MainWindow::open_preset);
  recent_menu_ = file->addMenu("Open &recent");
  file->addAction("&Save preset as...", QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S), this,
                  &MainWindow::save_preset_as);
  file->addAction("&Export frame...", QKeySequence(Qt::CTRL | Qt::Key_E), this, &MainWindow::export_frame);
  file->addAction("Save screens&hot...", QKeySequence(Qt::Key_F12), this, &MainWindow::save_screenshot);
  record_action_ =
      file->addAction("Start &recording...", QKeySequence(Qt::CTRL | Qt::Key_R), this, &MainWindow::toggle_recording);
  file->addSeparator();
  file->addAction("&Quit", QKeySequence::Quit, this, &QWidget::close);
  connect(file, &QMenu::aboutToShow, this,
          [this] { record_action_->setText(state_.recording.active ? "Stop &recording" : "Start &recording..."); });
  // Edit: undo and redo say what they would change. The keys are the view's (scene_view.cpp), so that a
  // text field being typed in keeps Ctrl+Z for itself; the menu shows them after a tab.
  QMenu* edit = menuBar()->addMenu("&Edit");
  QAction* undo = edit->addAction("Undo", view_, &SceneView::undo);
  QAction* redo = edit->addAction("Redo", view_, &SceneView::redo);
  connect(edit, &QMenu::aboutToShow, this, [this, undo, redo] {
    const Snapshot& s = simulation_.snapshot();
    const std::string next_undo = s.history ? s.history->next_undo : "",
                      next_redo = s.history ? s.history->next_redo : "";
    undo->setText(QString::fromStdString(next_undo.empty() ? "Nothing to undo" : "Undo " + next_undo) + "\tCtrl+Z");
    redo->setText(QString::fromStdString(next_redo.empty() ? "Nothing to redo" : "Redo " + next_redo) +
                  "\tCtrl+Shift+Z");
    undo->setEnabled(!next_undo.empty());
    redo->setEnabled(!next_redo.empty());
  });
  QMenu* view = menuBar()->addMenu("&View");
  view->addAction("&Reset camera\tR", view_, &SceneView::reset_camera);
  view->addAction("&Frame all\tF", this, [this] { state_.camera_request = ui::UiState::CameraRequest::FrameAll; });
  view->addAction("Frame &selection\tShift+F", this,
                  [this] { state_.camera_request = ui::UiState::CameraRequest::FrameSelection; });
  view->addAction("Show or hide the side &bar\tTab", this, [this] { state_.sidebar_hidden = !state_.sidebar_hidden; });
  QMenu* help = menuBar()->addMenu("&Help");
  // The keys are the 3-D view's own (F1 there); the menu shows them without taking them.
  help->addAction("&Controls\tF1", this, [this] { state_.help_open = true; });
  help->addAction("&About Lodestone", this, &MainWindow::about);
  // A menu's action changes what the view shows (the side bar, the camera, a dialog's answer): draw it; and a
  // closed menu leaves the keys with the view.
  connect(menuBar(), &QMenuBar::triggered, view_, &SceneView::wake);
  for (QMenu* menu : {file, edit, view, help})
    connect(menu, &QMenu::aboutToHide, this, [this] { QTimer::singleShot(0, this, [this] { give_keys_to_view(); }); });
  // A preset file dropped on the 3-D view opens (after the unsaved-changes question).
  view_->installEventFilter(this);
  rebuild_recent_menu();
  connect(view_, &SceneView::open_requested, this, [this](const QString& path) {
    if (confirm_discard("loading " + path)) open_path(path);
  });
  connect(view_, &SceneView::unsaved_changed, this, &QWidget::setWindowModified);
}

bool MainWindow::confirm_discard(const QString& action) {
  const KeysBackToView keys_back(this);
  if (!state_.unsaved) return true;
  const auto answer = QMessageBox::warning(
      this, "Unsaved changes",
      "The scene has changes that are not saved (parameters edited since it was loaded or saved).\n"
      "Save them before " +
          action + "?",
      QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
  if (answer == QMessageBox::Discard) return true;
  if (answer == QMessageBox::Save) {
    save_preset_as();
    return !state_.unsaved;  // a cancelled or failed save keeps the scene
  }
  return false;
}

void MainWindow::closeEvent(QCloseEvent* event) {
  if (confirm_discard("quitting"))
    event->accept();
  else
    event->ignore();
}

void MainWindow::open_preset() {
  const KeysBackToView keys_back(this);
  if (!confirm_discard("opening another preset")) return;
  const QString path = QFileDialog::getOpenFileName(
      this, "Open preset", QString::fromStdString(state_.preset_directory), "Lodestone presets (*.json)");
  if (!path.isEmpty()) open_path(path);
}

void MainWindow::open_path(const QString& path) {
  std::optional<Preset> preset = ui::read_scene_file(state_, path.toStdString());
  if (!preset) return;
  const Snapshot& now = simulation_.snapshot();
  // Asked before a scene the view would draw at under 5 frames/s (issue 39, bug 10: 200 000 particles loaded for
  // 20 s in silence, then 0.4 frames/s and keys answered after 6-9 s).
  const double fps_now = state_.view_resting ? 0.0 : static_cast<double>(state_.frames_per_second);
  if (const std::optional<std::string> why = ui::big_scene_warning(*preset, fps_now, now.particles.size())) {
    const KeysBackToView keys_back(this);
    const auto answer = QMessageBox::question(this, "A big scene", QString::fromStdString(*why),
                                              QMessageBox::Open | QMessageBox::Cancel, QMessageBox::Cancel);
    if (answer != QMessageBox::Open) {
      state_.notice = "not loaded: " + path.toStdString() + " (too big to draw smoothly here)";
      state_.notice_is_error = false;
      return;
    }
  }
  ui::send_scene(state_, std::move(*preset), path.toStdString(), view_->sink());
  remember(path);
}

void MainWindow::save_preset_as() {
  const KeysBackToView keys_back(this);
  const QString path = QFileDialog::getSaveFileName(this, "Save preset as", QString::fromStdString(state_.save_path),
                                                    "Lodestone presets (*.json)");
  if (path.isEmpty()) return;
  state_.save_path = path.toStdString();
  ui::save_preset(state_, state_.save_path);
  if (!state_.notice_is_error) remember(path);
}

void MainWindow::export_frame() {
  const KeysBackToView keys_back(this);
  // The same path as the Export panel: the simulation thread captures the frame, the GUI writes it
  // when the next snapshot brings it, and the result shows in the notice.
  const QString path = QFileDialog::getSaveFileName(
      this, "Export frame", QString::fromStdString(state_.export_path),
      "VTK PolyData (*.vtp);;LAMMPS dump (*.dump *.lammpstrj);;Extended XYZ (*.xyz);;CSV (*.csv)");
  if (path.isEmpty()) return;
  state_.export_path = path.toStdString();
  ui::request_export(state_, state_.export_path, view_->sink());
}

void MainWindow::save_screenshot() {
  const KeysBackToView keys_back(this);
  const QString path = QFileDialog::getSaveFileName(
      this, "Save screenshot", QString::fromStdString(state_.screenshot_path), "PNG image (*.png)");
  if (path.isEmpty()) return;
  state_.screenshot_path = path.toStdString();
  state_.screenshot_requested = true;  // the view saves its next frame
}

void MainWindow::toggle_recording() {
  ui::RecordingState& recording = state_.recording;
  if (recording.active) {
    recording.request = ui::RecordingState::Request::Stop;
    return;
  }
  const KeysBackToView keys_back(this);
  const QString path = QFileDialog::getSaveFileName(
      this, "Record movie", QString::fromStdString(recording.settings.path), "MP4 movie (*.mp4);;PNG sequence (*.png)");
  if (path.isEmpty()) return;
  recording.settings.path = path.toStdString();
  const std::string problem = ui::check_record_settings(recording.settings);
  if (!problem.empty()) {
    QMessageBox::warning(this, "Record movie", QString::fromStdString(problem));
    return;
  }
  recording.request = ui::RecordingState::Request::Start;  // frame rate and size: the Export panel's
}

void MainWindow::remember(const QString& path) {
  QSettings settings;
  QStringList recent = settings.value("recent_files").toStringList();
  recent.removeAll(path);
  recent.prepend(path);
  while (recent.size() > kRecentFiles) recent.removeLast();
  settings.setValue("recent_files", recent);
  rebuild_recent_menu();
}

void MainWindow::rebuild_recent_menu() {
  recent_menu_->clear();
  const QStringList recent = QSettings().value("recent_files").toStringList();
  for (const QString& path : recent)
    recent_menu_->addAction(path, this, [this, path] {
      if (confirm_discard("opening " + path)) open_path(path);
    });
  recent_menu_->setEnabled(!recent.isEmpty());
}

void MainWindow::keep_autosaves(AutosaveKeeper& keeper) {
  autosaves_ = &keeper;
  auto* timer = new QTimer(this);
  // A quarter of a second: an autosave asked for after a load or a save goes out at once, and a copy that arrived is
  // handed to the writer without delay; the tick itself costs microseconds.
  timer->setInterval(250);
  connect(timer, &QTimer::timeout, this, &MainWindow::tick_autosaves);
  timer->start();
}

void MainWindow::tick_autosaves() {
  using Answer = ui::UiState::RestoreOffer::Answer;
  simulation_.update_snapshot();  // the view draws what is new whoever fetched it (it compares sequences)
  if (state_.restore_offer.answer == Answer::Restore) {
    state_.restore_offer.answer = Answer::None;  // asked once; the offer stays if the user keeps the scene
    if (confirm_discard("restoring the autosaved session")) {
      try {
        autosaves_->restore(view_->sink());
      } catch (const AutosaveError& e) {
        state_.notice = std::string("not restored: ") + e.what();
        state_.notice_is_error = true;
      }
    }
    view_->wake();
  }
  const bool offered = !state_.restore_offer.what.empty();
  autosaves_->tick(std::chrono::steady_clock::now());
  if (offered != !state_.restore_offer.what.empty()) view_->wake();
}

void MainWindow::about() {
  state_.about_open = true;  // an ImGui window inside the view: version, build date, the contact laws
}

void MainWindow::give_keys_to_view(bool activate) {
  if (QApplication::activePopupWidget() || QApplication::activeModalWidget()) return;  // a menu or dialog keeps them
  if (activate)
    activateWindow();
  else if (!isActiveWindow())
    return;
  centralWidget()->setFocus(Qt::OtherFocusReason);
  view_->requestActivate();
  view_->wake();
}

void MainWindow::changeEvent(QEvent* event) {
  QMainWindow::changeEvent(event);
  if (event->type() == QEvent::ActivationChange && isActiveWindow())
    QTimer::singleShot(0, this, [this] { give_keys_to_view(); });
}

bool MainWindow::eventFilter(QObject* watched, QEvent* event) {
  if (watched != view_) return QMainWindow::eventFilter(watched, event);
  auto preset_path = [](const QMimeData* mime) {
    if (!mime || !mime->hasUrls() || mime->urls().size() != 1) return QString();
    const QString path = mime->urls().front().toLocalFile();
    return path.endsWith(".json", Qt::CaseInsensitive) ? path : QString();
  };
  if (event->type() == QEvent::DragEnter || event->type() == QEvent::DragMove) {
    auto* drag = static_cast<QDragMoveEvent*>(event);
    if (!preset_path(drag->mimeData()).isEmpty()) drag->acceptProposedAction();
    return true;
  }
  if (event->type() == QEvent::Drop) {
    auto* drop = static_cast<QDropEvent*>(event);
    const QString path = preset_path(drop->mimeData());
    if (path.isEmpty()) {
      state_.notice = "not opened: drop one preset file (.json) on the window";
      state_.notice_is_error = true;
      return true;
    }
    drop->acceptProposedAction();
    // After the drop returns: the question is a modal dialog.
    QTimer::singleShot(0, this, [this, path] {
      if (confirm_discard("opening " + path)) open_path(path);
    });
    return true;
  }
  return QMainWindow::eventFilter(watched, event);
}

}  // namespace lodestone::desktop
