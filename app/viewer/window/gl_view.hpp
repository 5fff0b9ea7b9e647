#pragma once
// The GL view: draws the active mode's picture and overlays with the ImGui panels every frame,
// steps the session, and hands input to the modes (see modes/viewer_mode.hpp).
#include <QElapsedTimer>
#include <QOpenGLWidget>
#include <QTimer>
#include <array>
#include <memory>
#include <optional>
#include <vector>

#include "viewer/model/frame_stats.hpp"
#include "viewer/model/session.hpp"
#include "viewer/modes/viewer_modes.hpp"
#include "viewer/render/figure.hpp"
#include "viewer/render/offscreen_target.hpp"
#include "viewer/render/presenter.hpp"
#include "viewer/render/renderer.hpp"
#include "viewer/render/view_geometry.hpp"
#include "viewer/ui/error_log.hpp"
#include "viewer/ui/panel.hpp"
#include "viewer/ui/recording_control.hpp"
#include "viewer/window/demo_loader.hpp"
#include "viewer/window/file_actions.hpp"
#include "viewer/window/scripted_run.hpp"
#include "viewer/window/viewer_startup.hpp"

namespace gvflab::viewer {

class GlView : public QOpenGLWidget {
 public:
  GlView(Session& session, const ViewerStartup& startup, QWidget* parent);
  ~GlView() override;

  FileActions& files() { return files_; }  // open and save: the File menu
  void saveScreenshot();  // Ctrl+S: the figure dialog (size, legend, caption, panels), then where
  // Saves a PNG after the next frame (view only unless options.panels); errors to the panel.
  void saveFigure(const QString& path, const FigureOptions& options);
  // The Demos menu: image, parameters, snakes, layers and the explanation on the canvas.
  void loadDemo(const std::string& name);
  void toggleHelp() { helpOpen_ = !helpOpen_; }
  void togglePanels() { panelsShown_ = !panelsShown_; }
  void setLegendShown(bool on) { modes_.legend().shown = on; }  // View > Legend on the view
  void toggleExplanation() { explanationOpen_ = !explanationOpen_ && demo_.has_value(); }
  void replay();           // R: the field and every snake from the start
  void toggleRecording();  // V: start with the Recording section's settings, or stop
  LayerSettings& layers() { return layers_; }

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
  bool focusNextPrevChild(bool) override { return false; }  // Tab is ours (panels)

 private:
  // paintGL's steps, in order.
  void startFrame(double now);
  void buildUi(float frameSeconds);
  void reloadKernels();
  void advanceSolver();
  void advanceModes();
  void uploadIfChanged();
  void drawView();
  void renderUi();
  void record();
  void countFrame();
  void phase(const char* name);  // the time since the last phase, for --stats

  // Figures and view-only recordings (gl_view_figure.cpp): ImGui's canvas list (overlays on the
  // view) is drawn first and the view read back before the panels and floating windows.
  void renderUiLayers();
  void captureView();    // between the canvas and the windows
  void captureWindow();  // after everything
  void startRecordingIfAsked();
  QImage readFramebuffer(const Viewport& rect);     // top row first
  QImage renderViewAt(int width, int height);       // offscreen, GL layers only
  QImage viewFigure(const FigureOptions& options);  // view-only at the asked size, annotated
  void savePendingFigure(bool panels);  // the asked figure, if it is taken now; a toast says so
  FigureFacts figureFacts(int width, int height) const;  // for a picture of that size
  void drawViewArea(const Viewport& area, int framebufferHeight, ViewTransform& view,
                    bool glOverlaysOnly);

  void makePresenter();  // decides the CL->GL path for the current device and GL context
  void drawExtraSections();
  void drawCanvasOverlays();              // explanation, toast, shortcut list
  void note(const std::string& message);  // a toast that is not an error
  float canvasTop() const;  // ImGui units: below the explanation and the recording badge
  void switchDevice(const std::string& selector);
  void handleRequests();
  void finishAndQuit();
  ViewGeometry viewGeometry() const;  // the window, panels and view as they are now
  // Whether a press or wheel at this point is the view's: ImGui's WantCaptureMouse is from the
  // last frame, so a wheel right after moving onto a panel would still zoom without the x test.
  bool viewTakesPointer(QPointF logical) const;
  bool inSideView(QPointF logical) const;  // a press there goes to the 3D view
  PointerEvent pointer(const QMouseEvent& event);
  // Offers the event to the modes from the top; true when one took it.
  template <class Hook>
  bool offer(Hook hook);

  Session& session_;
  const WindowStartup startup_;
  ScriptedRun scripted_{startup_};  // --frames, --screenshot, --stats
  ErrorLog errors_;
  ViewerModes modes_;  // after errors_: start-up problems go there
  LayerSettings layers_;
  FileActions files_{*this, session_, modes_, layers_, errors_};
  ViewTransform view_;
  FrameReadouts readouts_;
  PanelRequests requests_;
  std::unique_ptr<Renderer> renderer_;
  std::unique_ptr<Presenter> presenter_;
  bool ownImageShown_ = false;
  bool imguiReady_ = false;
  long shownImageVersion_ = -1;
  long shownFieldVersion_ = -1;
  std::array<int, 2> shownImageSize_ = {0, 0};
  QTimer frameTimer_;
  QElapsedTimer clock_;
  double frameStart_ = 0;
  double lastFrameTime_ = -1;
  float frameSeconds_ = 0;
  std::int64_t phaseMark_ = 0;
  // Recording, pace, cursor readout, devices.
  std::unique_ptr<RecordingControl> recording_;
  bool startupRecording_ = false;
  FrameStats stats_;
  double lastFrameStart_ = -1;
  qint64 solverEnd_ = 0;       // clock_ ns at the end of this frame's solver phase
  bool awaitingSwap_ = false;  // painted, not yet on screen
  std::optional<QPointF> cursor_;
  bool sideDrag_ = false;  // a drag that began in the 3D view goes on there
  std::vector<DeviceInfo> devices_;
  // The lesson's canvas: side panels (Tab), the demo's explanation, the error toast, help.
  bool panelsShown_ = true;
  std::optional<DemoShown> demo_;
  bool explanationOpen_ = false;
  float explanationBottom_ = 0;  // last frame's, ImGui units (the legend goes below)
  bool helpOpen_ = false;
  Toast toast_;                              // the newest error or note on the view, fading
  std::optional<SnakeForce> uploadedForce_;  // the force whose field the presenter holds
  long uploadedForces_ = -1;                 // and its parameters' version (forcesVersion)
  // Figures: the one asked for (saved at the next frame) and the offscreen target for sizes
  // other than the view's.
  struct PendingFigure {
    QString path;
    FigureOptions options;
  };
  std::optional<PendingFigure> pendingFigure_;
  std::unique_ptr<OffscreenTarget> figureTarget_;
};

}  // namespace gvflab::viewer
