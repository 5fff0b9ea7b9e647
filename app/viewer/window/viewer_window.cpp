#include "viewer/window/viewer_window.hpp"

#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <QAction>
#include <QApplication>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QKeySequence>
#include <QMenuBar>
#include <QMimeData>
#include <QPixmap>
#include <QCloseEvent>
#include <QDateTime>
#include <QMessageBox>
#include <QWheelEvent>
#include <cstdlib>
#include <iostream>

#include "io/image_loader.hpp"
#include "io/session_file.hpp"
#include "viewer/model/layer_options.hpp"
#include "viewer/model/session_io.hpp"
#include "viewer/ui/contours_dialog.hpp"
#include "viewer/model/viewer_settings.hpp"
#include "viewer/render/gl_sharing.hpp"
#include "viewer/ui/device_pace_panel.hpp"
#include "viewer/ui/imgui_qt_bridge.hpp"
#include "viewer/window/navigation.hpp"

namespace gvflab::viewer {

QSurfaceFormat viewerSurfaceFormat() {
  QSurfaceFormat format;
  format.setRenderableType(QSurfaceFormat::OpenGL);
  format.setVersion(3, 3);
  format.setProfile(QSurfaceFormat::CoreProfile);
  format.setDepthBufferSize(0);
  format.setStencilBufferSize(0);
  format.setSamples(0);  // MSAA halves the frame rate on llvmpipe; arrows read fine without
  return format;
}

GlView::GlView(Session& session, const app::Options& options, QWidget* parent)
    : QOpenGLWidget(parent), session_(session), options_(options) {
  setFocusPolicy(Qt::StrongFocus);
  setMouseTracking(true);
  quitAfterFrames_ = options.frames > 0 ? options.frames : (options.screenshot ? 60 : 0);
  region_ = std::make_unique<RegionMode>(session, options);
  if (region_->enabled()) session_.setRunning(false);
  race_ = std::make_unique<RaceMode>(session, options);
  // Redraw continuously: the solver iterates every frame.
  connect(&frameTimer_, &QTimer::timeout, this, [this] { update(); });
  frameTimer_.start(10);
  clock_.start();
  // Bad start-up snakes (--snake) are reported in the panel; the viewer runs without them.
  if (!errors_.guard("Placing the --snake contours",
                     [&] { snakes_ = std::make_unique<SnakeSession>(session, options.snakes); })) {
    app::SnakeOptions plain = options.snakes;
    plain.snakes.clear();
    snakes_ = std::make_unique<SnakeSession>(session, plain);
  }
  snakeTool_ = std::make_unique<SnakeTool>(*snakes_);
  layers_ = layerSettingsFromOptions(options);
  recording_ = std::make_unique<RecordingControl>(session_);
  startupRecording_ = options.record.has_value();
  // The viewer's own pace: a frame budget unless the command line fixed the steps per frame.
  if (options.stepsPerFrame == 0 && options.frameBudgetMs == 0 &&
      options.iterations == app::Options{}.iterations)
    session_.setFrameBudgetMs(12.0);
  devices_ = listDevices();
  if (!session.startupError().empty()) errors_.add(session.startupError());
}

GlView::~GlView() {
  makeCurrent();
  race_.reset();  // its presenters hold GL textures
  recording_.reset();  // finishes the file with the context still current
  presenter_.reset();
  streamlines_.reset();
  renderer_.reset();
  snakeLayer_.reset();
  if (imguiReady_) {
    ImGui_ImplOpenGL3_Shutdown();
    ImGui::DestroyContext();
  }
  doneCurrent();
}

void GlView::initializeGL() {
  ImGui::CreateContext();
  ImGuiQtBridge::setup(15.0f);
  ImGui::StyleColorsDark();
  ImGuiStyle& style = ImGui::GetStyle();
  style.WindowRounding = 0;
  style.FrameRounding = 3;
  style.GrabRounding = 3;
  style.WindowPadding = ImVec2(10, 10);
  style.ItemSpacing = ImVec2(8, 4);
  style.FramePadding = ImVec2(6, 3);
  ImGui_ImplOpenGL3_Init("#version 330 core");
  imguiReady_ = true;
  // Without the renderer the panel still runs and shows why.
  errors_.guard("Setting up OpenGL rendering", [&] {
    renderer_ = std::make_unique<Renderer>();
    snakeLayer_ = std::make_unique<SnakeLayer>();
    streamlines_ = std::make_unique<StreamlineLayer>();
  });
  makePresenter();
}

void GlView::makePresenter() {
  const GlContextHandles handles = currentGlContextHandles();
  const bool off = std::getenv("GVFLAB_HOST_COPY") != nullptr;
  TransferChoice choice = chooseTransfer(session_.device(), handles, off);
  if (choice.path == TransferPath::ZeroCopy && session_.context().options().extraProperties.empty()) {
    // Sharing needs a CL context made for this GL context: make it, on the same device.
    if (!errors_.guard("Sharing OpenGL with OpenCL", [&] {
          session_.switchDevice(session_.device().name, glSharingProperties(handles));
        }))
      choice = chooseTransfer(session_.device(), handles, /*forceHostCopy=*/true);
  }
  presenter_.reset();
  errors_.guard("Setting up the CL->GL transfer", [&] {
    presenter_ = std::make_unique<Presenter>(choice, &session_.context().context());
  });
  shownFieldVersion_ = -1;
  if (presenter_) readouts_.transferPath = presenter_->choice().description;
}

void GlView::switchDevice(const std::string& selector) {
  if (recording_->active()) errors_.add("Recording: " + recording_->stop());
  makeCurrent();
  bool ok = errors_.guard("Switching to " + selector, [&] {
    session_.switchDevice(selector);
    snakes_->advanceFrame();  // snakes move to the new context, contours kept
  });
  if (ok) makePresenter();
}

Viewport GlView::viewRect() const {
  const float dpr = static_cast<float>(devicePixelRatio());
  const int fbHeight = static_cast<int>(height() * dpr);
  return {static_cast<int>(viewLeftPixels()), 0, std::max(static_cast<int>(viewWidthPixels()), 1),
          fbHeight};
}

float GlView::viewLeftPixels() const {
  return static_cast<float>(std::min<double>(kPanelWidth, width()) * devicePixelRatio());
}

float GlView::viewWidthPixels() const {
  double logical = width() - static_cast<double>(kPanelWidth) - kDisplayPanelWidth;
  return static_cast<float>(std::max(logical, 0.0) * devicePixelRatio());
}

glm::vec2 GlView::toImage(QPointF logical) const {
  Vec2 p = view_.screenToImage(toViewPixels(logical));
  return {p.x, p.y};
}

float GlView::pickRadius() const {
  return 6.0f * static_cast<float>(devicePixelRatio()) /
         std::max(view_.pixelsPerImagePixel(), 1e-3f);
}

Vec2 GlView::toViewPixels(QPointF logical) const {
  float dpr = static_cast<float>(devicePixelRatio());
  return {static_cast<float>(logical.x()) * dpr - viewLeftPixels(),
          static_cast<float>(logical.y()) * dpr};
}

void GlView::paintGL() {
  double now = clock_.nsecsElapsed() * 1e-9;
  float dt = lastFrameTime_ < 0 ? 1.0f / 60 : static_cast<float>(now - lastFrameTime_);
  lastFrameTime_ = now;
  // Frame time as seen on screen: from one frame's start to the next (first frames skipped).
  if (lastFrameStart_ >= 0 && frameCount_ > 2) stats_.addFrame(1000.0 * (now - lastFrameStart_));
  lastFrameStart_ = now;
  readouts_.frameMs = 1000.0 * dt;
  readouts_.framesPerSecond += (1.0 / std::max(dt, 1e-4f) - readouts_.framesPerSecond) * 0.1;

  auto phase = [this, mark = clock_.nsecsElapsed()](const char* name) mutable {
    const auto t = clock_.nsecsElapsed();
    if (frameCount_ > 2) stats_.addPhase(name, (t - mark) * 1e-6);
    mark = t;
  };
  buildUi(dt);
  handleRequests();
  phase("ui");
  errors_.guard("Reloading the kernels", [&] {
    if (session_.reloadKernelsIfChanged()) shownFieldVersion_ = -1;
  });
  const auto solverStart = clock_.nsecsElapsed();
  if (!errors_.guard("Iterating the solver", [&] { session_.advanceFrame(otherWorkMs_); }))
    session_.setRunning(false);  // do not repeat a failing step every frame
  const double solverMs = (clock_.nsecsElapsed() - solverStart) * 1e-6;
  if (frameCount_ > 2) stats_.addIterations(session_.lastFrameIterations());
  phase("solver");
  if (!errors_.guard("Moving the snakes", [&] { snakes_->advanceFrame(); }))
    snakes_->setRunning(false);
  region_->advance(errors_);
  race_->advance(errors_);
  if (region_->ownsImage() != regionImageShown_) {  // the view switches images: fit it
    regionImageShown_ = region_->ownsImage();
    view_.zoom = 1, view_.pan = {};
    shownImageVersion_ = -1;
  }
  phase("snakes");
  uploadIfChanged();
  phase("upload");

  const float dpr = static_cast<float>(devicePixelRatio());
  const int fbWidth = static_cast<int>(width() * dpr), fbHeight = static_cast<int>(height() * dpr);
  const int left = static_cast<int>(viewLeftPixels());
  const int viewWidth = std::max(static_cast<int>(viewWidthPixels()), 1);
  auto& f = gl();
  f.glViewport(0, 0, fbWidth, fbHeight);
  f.glClearColor(0.11f, 0.11f, 0.13f, 1.0f);
  f.glClear(GL_COLOR_BUFFER_BIT);
  if (renderer_ && presenter_) {
    view_.viewSize = {static_cast<float>(viewWidth), static_cast<float>(fbHeight)};
    view_.imageSize = {static_cast<float>(session_.image().width),
                       static_cast<float>(session_.image().height)};
    float range = layers_.autoRange ? presenter_->maxMagnitude() : layers_.fixedRangeMax;
    if (region_->ownsImage()) view_.imageSize = region_->imageSize();
    LayerSettings shown = layers_;  // the region snake draws over the image alone
    if (region_->enabled()) shown.showMagnitude = shown.showGlyphs = false;
    errors_.guard("Drawing", [&] {
      if (race_->enabled())
        race_->draw(*renderer_, {left, 0, viewWidth, fbHeight}, fbHeight, shown, dpr, errors_);
      else if (region_->ownsImage())
        region_->drawImage(*renderer_, {left, 0, viewWidth, fbHeight}, view_, shown);
      else
        renderer_->draw({left, 0, viewWidth, fbHeight}, view_, shown, presenter_->texture(),
                        std::max(range, 1e-12f));
    });
    if (layers_.showStreamlines && streamlines_ && !region_->enabled())
      errors_.guard("Drawing the streamlines", [&] {
        streamlines_->draw({left, 0, viewWidth, fbHeight}, view_, presenter_->hostField(),
                           presenter_->texture().width, presenter_->texture().height, layers_,
                           shownFieldVersion_);
      });
    region_->drawOverlay(view_, static_cast<float>(left), dpr);
  }
  if (snakeLayer_ && !race_->enabled()) {
    errors_.guard("Drawing the snakes", [&] {
      if (snakes_->captureVersion() != shownCaptureVersion_) {
        snakeLayer_->setCapture(snakes_->captureRgba(), snakes_->width(), snakes_->height());
        shownCaptureVersion_ = snakes_->captureVersion();
      }
      SnakeDrawing d{&snakes_->contours(), snakeTool_->draft(), snakeOverlay_.showNodes,
                     snakeTool_->hoverId()};
      snakeLayer_->draw({left, 0, viewWidth, fbHeight}, view_, d, snakes_->showCapture,
                        snakeOverlay_.captureOpacity);
    });
  }
  phase("draw");
  ImGui::Render();
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  ImGuiQtBridge::applyCursor(this);
  phase("imgui");
  if (startupRecording_) {  // --record in the viewer: from the first drawn frame
    startupRecording_ = false;
    const Viewport r = options_.recordPanel ? Viewport{0, 0, fbWidth, fbHeight} : viewRect();
    errors_.guard("Starting the recording", [&] {
      recording_->start(*options_.record, r.width, r.height, options_.stepsPerFrame > 0,
                        options_.fps, std::max(options_.stepsPerFrame, 1));
    });
  }
  if (recording_->active())
    recording_->capture(recording_->withPanel() || options_.recordPanel
                            ? Viewport{0, 0, fbWidth, fbHeight}
                            : viewRect(),
                        errors_);
  phase("record");
  otherWorkMs_ = (clock_.nsecsElapsed() * 1e-9 - now) * 1000.0 - solverMs;
  countFrame();
}

void GlView::buildUi(float frameSeconds) {
  ImGui_ImplOpenGL3_NewFrame();
  ImGuiQtBridge::newFrame(width(), height(), static_cast<float>(devicePixelRatio()), frameSeconds);
  ImGui::NewFrame();
  readouts_.rangeMax =
      layers_.autoRange ? (presenter_ ? presenter_->maxMagnitude() : 0) : layers_.fixedRangeMax;
  if (presenter_) {
    readouts_.transferLastMs = presenter_->lastTransferMs();
    readouts_.transferMeanMs = presenter_->meanTransferMs();
  }
  drawPanel(session_, layers_, readouts_, errors_, requests_, static_cast<float>(height()),
            [this] { drawExtraSections(); });
  drawSnakePanel(*snakes_, snakeOverlay_, errors_);
  float right = std::max(static_cast<float>(width()) - kDisplayPanelWidth, kPanelWidth);
  drawDisplayPanel(layers_, readouts_.rangeMax, right, static_cast<float>(height()));
  region_->drawWindow(errors_, kPanelWidth, 0);
  race_->drawWindow(errors_, kPanelWidth, viewWidthPixels() / static_cast<float>(devicePixelRatio()),
                    static_cast<float>(height()));
  if (cursor_ && presenter_ && !region_->ownsImage()) {
    glm::vec2 p = toImage(*cursor_);
    if (auto r = readoutAt(p.x, p.y, session_.image(), presenter_->hostField(),
                           presenter_->texture().width, presenter_->texture().height))
      drawCursorReadout(*r, kPanelWidth, static_cast<float>(height()),
                        100.0f * view_.pixelsPerImagePixel());
  }
}

void GlView::drawExtraSections() {
  if (ImGui::CollapsingHeader("Recording", ImGuiTreeNodeFlags_DefaultOpen)) {
    const Viewport v = viewRect();
    const float dpr = static_cast<float>(devicePixelRatio());
    recording_->drawSection(errors_, v.width, v.height, static_cast<int>(width() * dpr),
                            static_cast<int>(height() * dpr));
  }
  if (ImGui::CollapsingHeader("Device and pace", ImGuiTreeNodeFlags_DefaultOpen)) {
    if (auto picked = drawDeviceSection(session_, devices_, readouts_)) {
      // After this frame: the switch remakes GL-side objects.
      std::string sel = *picked;
      QTimer::singleShot(0, this, [this, sel] { switchDevice(sel); });
    }
    drawPaceSection(session_, stats_);
  }
}

void GlView::handleRequests() {
  PanelRequests r = std::exchange(requests_, {});
  if (r.fitView) view_.fit();
  if (r.phantom)
    errors_.guard("Opening phantom '" + *r.phantom + "'",
                  [&] { session_.openPhantom(*r.phantom, options_.phantomSize); });
  // A modal dialog inside paintGL would re-enter it; open it after this frame.
  if (r.openFileDialog) QTimer::singleShot(0, this, [this] { showOpenDialog(); });
}

void GlView::uploadIfChanged() {
  if (!renderer_ || !presenter_) return;
  if (session_.imageVersion() != shownImageVersion_ && !region_->ownsImage()) {
    bool ok = errors_.guard("Showing the image", [&] { renderer_->setImage(session_.image()); });
    if (ok) {
      shownImageVersion_ = session_.imageVersion();
      // Another slice of the same size keeps the zoom; a new image is fitted.
      const std::array<int, 2> size = {session_.image().width, session_.image().height};
      if (size != shownImageSize_) view_.zoom = 1, view_.pan = {};
      shownImageSize_ = size;
    }
  }
  if (session_.fieldVersion() != shownFieldVersion_) {
    bool ok = errors_.guard("Copying the field to OpenGL", [&] {
      const GvfInput& plane = session_.planeInput();  // the image, or a volume's slice
      presenter_->upload(session_.context().queue(), session_.planeField(), plane.width,
                         plane.height);
    });
    if (ok)
      shownFieldVersion_ = session_.fieldVersion();
    else
      session_.setRunning(false);
  }
}

void GlView::countFrame() {
  ++frameCount_;
  if (quitAfterFrames_ > 0 && frameCount_ == quitAfterFrames_)
    QTimer::singleShot(0, this, [this] { finishAndQuit(); });
}

void GlView::finishAndQuit() {
  int code = 0;
  if (recording_->active()) {
    makeCurrent();
    std::string message = recording_->stop();
    std::cout << message << "\n";
    if (!errors_.messages().empty() || message.find("stopped there") != std::string::npos) code = 1;
  }
  for (const auto& m : errors_.messages()) std::cerr << "gvflab: " << m << "\n";
  if (options_.stats)
    std::cout << "viewer " << session_.image().width << "x" << session_.image().height << ", "
              << presenter_->choice().description << ": " << stats_.summary() << "\n";
  if (options_.screenshot) {
    QPixmap shot = window()->grab();
    if (shot.isNull() || !shot.save(QString::fromStdString(*options_.screenshot), "PNG")) {
      std::cerr << "gvflab: could not save the screenshot to '" << *options_.screenshot << "'.\n";
      code = 1;
    }
  }
  QCoreApplication::exit(code);
}

void GlView::openFile(const QString& path) {
  if (errors_.guard("Opening '" + QFileInfo(path).fileName().toStdString() + "'",
                    [&] { session_.openFile(path.toStdString()); })) {
    recent_ = withRecentFile(recent_, QFileInfo(path).absoluteFilePath());
    if (onRecentChanged) onRecentChanged();
  }
  update();
}

bool GlView::saveScreenshotTo(const QString& path) {
  QPixmap shot = window()->grab();
  return !shot.isNull() && shot.save(path, "PNG");
}

void GlView::saveScreenshot() {
  QString name = "gvflab-" + QDateTime::currentDateTime().toString("yyyyMMdd-hhmmss") + ".png";
  QString path = QFileDialog::getSaveFileName(this, "Save screenshot", name, "PNG images (*.png)");
  if (path.isEmpty()) return;
  if (!saveScreenshotTo(path)) errors_.add("Could not save the screenshot to '" + path.toStdString() + "'.");
}

void GlView::saveSessionDialog() {
  QString path = QFileDialog::getSaveFileName(this, "Save session", "session.json",
                                              "gvflab sessions (*.json)");
  if (path.isEmpty()) return;
  errors_.guard("Saving the session", [&] {
    app::saveSession(path.toStdString(), captureSession(session_, *snakes_, layers_));
  });
}

void GlView::saveContoursDialog() {
  viewer::saveContoursDialog(this, snakes_->contours(), session_.image().width,
                             session_.image().height, errors_);
}

void GlView::openSessionDialog() {
  QString path = QFileDialog::getOpenFileName(this, "Open session", QString(),
                                              "gvflab sessions (*.json)");
  if (!path.isEmpty()) openSession(path);
}

void GlView::openSession(const QString& path) {
  makeCurrent();
  if (errors_.guard("Opening the session '" + QFileInfo(path).fileName().toStdString() + "'", [&] {
        restoreSession(app::loadSession(path.toStdString()), session_, *snakes_, layers_);
      })) {
    recent_ = withRecentFile(recent_, QFileInfo(path).absoluteFilePath());
    if (onRecentChanged) onRecentChanged();
  }
}

void GlView::leaveEvent(QEvent* event) {
  cursor_.reset();
  QOpenGLWidget::leaveEvent(event);
}

void GlView::showOpenDialog() {
  QString path = QFileDialog::getOpenFileName(this, "Open image", QString(),
                                              QString::fromUtf8(app::imageFileFilter()));
  if (!path.isEmpty()) openFile(path);
}

bool GlView::event(QEvent* event) {
  if (imguiReady_) {
    ImGuiQtBridge::handleEvent(event);
    switch (event->type()) {
      case QEvent::MouseButtonPress:
      case QEvent::MouseButtonRelease:
      case QEvent::MouseMove:
      case QEvent::Wheel:
      case QEvent::KeyPress:
      case QEvent::KeyRelease:
        update();
        break;
      default:
        break;
    }
  }
  return QOpenGLWidget::event(event);
}

// Left button: snake editing (SnakeTool); middle button: pan; right button: delete a snake.
void GlView::mousePressEvent(QMouseEvent* event) {
  if (!imguiReady_ || ImGui::GetIO().WantCaptureMouse) return;
  if (race_->enabled()) return;  // the race view has no snakes to edit
  if (region_->mousePress(toViewPixels(event->position()), event->button() == Qt::RightButton,
                          view_))
    return;
  // Middle button, or Shift + left button: pan.
  if (event->button() == Qt::MiddleButton ||
      (event->button() == Qt::LeftButton && (event->modifiers() & Qt::ShiftModifier))) {
    dragging_ = true;
    dragLast_ = event->position();
  } else if (event->button() == Qt::LeftButton) {
    snakeTool_->leftPress(toImage(event->position()), pickRadius());
  } else if (event->button() == Qt::RightButton) {
    errors_.guard("Deleting a snake",
                  [&] { snakeTool_->rightClick(toImage(event->position()), pickRadius()); });
  }
}

void GlView::mouseMoveEvent(QMouseEvent* event) {
  cursor_ = event->position();
  if (region_->mouseMove(toViewPixels(event->position()), view_)) return;
  if (!dragging_) {
    errors_.guard("Editing a snake",
                  [&] { snakeTool_->move(toImage(event->position()), pickRadius()); });
    return;
  }
  float dpr = static_cast<float>(devicePixelRatio());
  QPointF d = event->position() - dragLast_;
  dragLast_ = event->position();
  view_.pan.x += static_cast<float>(d.x()) * dpr;
  view_.pan.y += static_cast<float>(d.y()) * dpr;
}

void GlView::mouseReleaseEvent(QMouseEvent* event) {
  if (region_->mouseRelease(view_)) return;
  if (event->button() == Qt::LeftButton && !dragging_)
    errors_.guard("Placing a snake", [&] { snakeTool_->leftRelease(toImage(event->position())); });
  dragging_ = false;
}

void GlView::mouseDoubleClickEvent(QMouseEvent* event) {
  if (!imguiReady_ || ImGui::GetIO().WantCaptureMouse) return;
  if (event->button() == Qt::LeftButton)
    errors_.guard("Closing the polygon", [&] { snakeTool_->doubleClick(toImage(event->position())); });
}

void GlView::wheelEvent(QWheelEvent* event) {
  if (!imguiReady_ || ImGui::GetIO().WantCaptureMouse) return;
  float steps = static_cast<float>(event->angleDelta().y()) / 120.0f;
  view_.zoomAround(toViewPixels(event->position()), std::pow(1.15f, steps));
}

void GlView::keyPressEvent(QKeyEvent* event) {
  if (!imguiReady_ || ImGui::GetIO().WantCaptureKeyboard) return;
  const bool ctrl = event->modifiers() & Qt::ControlModifier;
  const bool shift = event->modifiers() & Qt::ShiftModifier;
  if (race_->key(event->key(), errors_)) return;
  if (snakeTool_->key(event->key(), ctrl, shift)) return;
  if (!ctrl && navigationKey(view_, event->key())) return;
  switch (event->key()) {
    case Qt::Key_Space:
      session_.setRunning(!session_.running());
      break;
    case Qt::Key_S:
      if (ctrl) {
        QTimer::singleShot(0, this, [this] { saveScreenshot(); });
        break;
      }
      session_.requestSingleStep();
      break;
    case Qt::Key_Period:
      session_.requestSingleStep();
      break;
    case Qt::Key_L:
      layers_.logScale = !layers_.logScale;
      break;
    case Qt::Key_T:
      layers_.showStreamlines = !layers_.showStreamlines;
      break;
    case Qt::Key_F11:
      if (auto* w = dynamic_cast<ViewerWindow*>(window())) w->toggleFullScreen();
      break;
    case Qt::Key_R:
      errors_.guard("Resetting the solver", [&] { session_.reset(); });
      break;
    case Qt::Key_I:
      layers_.showImage = !layers_.showImage;
      break;
    case Qt::Key_M:
      layers_.showMagnitude = !layers_.showMagnitude;
      break;
    case Qt::Key_G:
      layers_.showGlyphs = !layers_.showGlyphs;
      break;
    default:
      QOpenGLWidget::keyPressEvent(event);
      break;
  }
}

ViewerWindow::ViewerWindow(Session& session, const app::Options& options)
    : session_(session), view_(new GlView(session, options, this)) {
  setWindowTitle("gvflab");
  setCentralWidget(view_);
  setAcceptDrops(true);
  const RememberedState remembered = loadRememberedState();
  view_->setRecentFiles(remembered.recentFiles);
  view_->onRecentChanged = [this] { rebuildRecentMenu(); };
  // Scripted runs (--frames) look the same on every machine: no remembered layout or layers.
  if (options.frames == 0) {
    if (!options.size && !remembered.geometry.isEmpty()) restoreGeometry(remembered.geometry);
    if (!remembered.windowState.isEmpty()) restoreState(remembered.windowState);
    if (!options.colormap && !options.logScale && !options.session) view_->layers() = remembered.layers;
  }
  QMenu* file = menuBar()->addMenu("&File");
  QAction* open = file->addAction("&Open image...");
  open->setShortcut(QKeySequence::Open);
  connect(open, &QAction::triggered, this, [this] { view_->showOpenDialog(); });
  recentMenu_ = file->addMenu("Open &recent");
  rebuildRecentMenu();
  file->addSeparator();
  QAction* openSession = file->addAction("Open &session...");
  connect(openSession, &QAction::triggered, this, [this] { view_->openSessionDialog(); });
  QAction* saveSession = file->addAction("Save s&ession...");
  saveSession->setShortcut(QKeySequence("Ctrl+Shift+S"));
  connect(saveSession, &QAction::triggered, this, [this] { view_->saveSessionDialog(); });
  QAction* contours = file->addAction("Save &contours...");
  connect(contours, &QAction::triggered, this, [this] { view_->saveContoursDialog(); });
  QAction* shot = file->addAction("Save screens&hot...");
  shot->setShortcut(QKeySequence("Ctrl+S"));
  connect(shot, &QAction::triggered, this, [this] { view_->saveScreenshot(); });
  file->addSeparator();
  QAction* quit = file->addAction("&Quit");
  quit->setShortcut(QKeySequence::Quit);
  connect(quit, &QAction::triggered, this, &QWidget::close);
  QMenu* viewMenu = menuBar()->addMenu("&View");
  QAction* full = viewMenu->addAction("&Full screen");
  full->setShortcut(QKeySequence(Qt::Key_F11));
  connect(full, &QAction::triggered, this, [this] { toggleFullScreen(); });
  view_->setFocus();
}

void ViewerWindow::toggleFullScreen() {
  if (isFullScreen()) {
    showNormal();
    menuBar()->show();
  } else {
    menuBar()->hide();  // the whole screen for the view; F11 or Esc... F11 comes back
    showFullScreen();
  }
}

void ViewerWindow::rebuildRecentMenu() {
  recentMenu_->clear();
  for (const QString& path : view_->recentFiles()) {
    QAction* a = recentMenu_->addAction(QFileInfo(path).fileName());
    a->setToolTip(path);
    connect(a, &QAction::triggered, this, [this, path] {
      if (path.endsWith(".json", Qt::CaseInsensitive))
        view_->openSession(path);
      else
        view_->openFile(path);
    });
  }
  recentMenu_->setEnabled(!view_->recentFiles().isEmpty());
}

void ViewerWindow::closeEvent(QCloseEvent* event) {
  saveRememberedState(session_, view_->layers(), saveGeometry(), saveState(), view_->recentFiles());
  QMainWindow::closeEvent(event);
}

void ViewerWindow::dragEnterEvent(QDragEnterEvent* event) {
  const QMimeData* mime = event->mimeData();
  if (mime->hasUrls() && !mime->urls().isEmpty() && mime->urls().first().isLocalFile())
    event->acceptProposedAction();
}

void ViewerWindow::dropEvent(QDropEvent* event) {
  const QMimeData* mime = event->mimeData();
  if (!mime->hasUrls() || mime->urls().isEmpty()) return;
  view_->openFile(mime->urls().first().toLocalFile());
  event->acceptProposedAction();
}

}  // namespace gvflab::viewer
