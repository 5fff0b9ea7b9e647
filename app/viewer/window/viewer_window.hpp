#pragma once
// The main window: a File menu (Open, Ctrl+O), drag-and-drop of image files, and the GL view
// that draws the field layers and the ImGui panel every frame.
#include <QElapsedTimer>
#include <QMainWindow>
#include <QOpenGLWidget>
#include <QSurfaceFormat>
#include <QTimer>
#include <array>
#include <memory>

#include "cli/options.hpp"
#include "viewer/model/frame_stats.hpp"
#include "viewer/model/session.hpp"
#include "viewer/model/snake_session.hpp"
#include "viewer/modes/race_mode.hpp"
#include "viewer/modes/region_mode.hpp"
#include "viewer/render/presenter.hpp"
#include "viewer/render/renderer.hpp"
#include "viewer/render/snake_layer.hpp"
#include "viewer/render/streamline_layer.hpp"
#include "viewer/render/view_transform.hpp"
#include "viewer/ui/error_log.hpp"
#include "viewer/ui/panel.hpp"
#include "viewer/ui/recording_control.hpp"
#include "viewer/ui/snake_panel.hpp"
#include "viewer/window/snake_tool.hpp"

namespace gvflab::viewer {

// OpenGL 3.3 core, no depth buffer.
QSurfaceFormat viewerSurfaceFormat();

class GlView : public QOpenGLWidget {
 public:
  GlView(Session& session, const app::Options& options, QWidget* parent);
  ~GlView() override;

  void openFile(const QString& path);  // errors go to the panel
  void showOpenDialog();
  void saveScreenshot();                        // Ctrl+S: asks where
  bool saveScreenshotTo(const QString& path);  // the whole window, PNG
  void saveSessionDialog();
  void saveContoursDialog();  // File > Save contours...
  void openSessionDialog();
  void openSession(const QString& path);
  LayerSettings& layers() { return layers_; }
  const QStringList& recentFiles() const { return recent_; }
  void setRecentFiles(QStringList files) { recent_ = std::move(files); }
  // Called with the new list whenever a file was opened.
  std::function<void()> onRecentChanged;

 protected:
  void initializeGL() override;
  void paintGL() override;
  bool event(QEvent* event) override;  // everything to ImGui first
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void mouseDoubleClickEvent(QMouseEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;
  void leaveEvent(QEvent* event) override;

 private:
  void makePresenter();  // decides the CL->GL path for the current device and GL context
  void drawExtraSections();
  void switchDevice(const std::string& selector);
  Viewport viewRect() const;  // the view, framebuffer pixels, GL origin
  void buildUi(float frameSeconds);
  void handleRequests();
  void uploadIfChanged();
  void countFrame();
  void finishAndQuit();
  float viewLeftPixels() const;   // framebuffer x where the view starts (right of the panel)
  float viewWidthPixels() const;  // between the two panels
  Vec2 toViewPixels(QPointF logical) const;
  glm::vec2 toImage(QPointF logical) const;
  float pickRadius() const;  // image pixels within a few screen pixels

  Session& session_;
  const app::Options& options_;
  ErrorLog errors_;
  LayerSettings layers_;
  ViewTransform view_;
  FrameReadouts readouts_;
  PanelRequests requests_;
  std::unique_ptr<Renderer> renderer_;
  std::unique_ptr<Presenter> presenter_;
  std::unique_ptr<RegionMode> region_;
  std::unique_ptr<RaceMode> race_;
  bool regionImageShown_ = false;
  bool imguiReady_ = false;
  long shownImageVersion_ = -1;
  long shownFieldVersion_ = -1;
  std::array<int, 2> shownImageSize_ = {0, 0};
  QTimer frameTimer_;
  QElapsedTimer clock_;
  double lastFrameTime_ = -1;
  int frameCount_ = 0;
  int quitAfterFrames_ = 0;
  std::unique_ptr<SnakeSession> snakes_;
  std::unique_ptr<SnakeTool> snakeTool_;
  std::unique_ptr<SnakeLayer> snakeLayer_;
  SnakeOverlay snakeOverlay_;
  long shownCaptureVersion_ = -1;
  bool dragging_ = false;
  QPointF dragLast_;
  // Issue 6: recording, pace, streamlines, cursor readout, devices.
  std::unique_ptr<RecordingControl> recording_;
  bool startupRecording_ = false;
  FrameStats stats_;
  double lastFrameStart_ = -1;
  double otherWorkMs_ = 0;
  std::unique_ptr<StreamlineLayer> streamlines_;
  std::optional<QPointF> cursor_;
  std::vector<DeviceInfo> devices_;
  QStringList recent_;
};

class ViewerWindow : public QMainWindow {
 public:
  ViewerWindow(Session& session, const app::Options& options);
  void toggleFullScreen();

 protected:
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;
  void closeEvent(QCloseEvent* event) override;

 private:
  void rebuildRecentMenu();
  Session& session_;
  GlView* view_;
  QMenu* recentMenu_ = nullptr;
};

}  // namespace gvflab::viewer
