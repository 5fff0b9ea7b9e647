#include "viewer/window/gl_view.hpp"

#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <QCoreApplication>
#include <QWheelEvent>
#include <algorithm>

#include "viewer/model/lesson.hpp"
#include "viewer/render/gl_driver_pin.hpp"
#include "viewer/render/gl_sharing.hpp"
#include "viewer/render/layer_registry.hpp"
#include "viewer/ui/canvas_overlays.hpp"
#include "viewer/ui/device_pace_panel.hpp"
#include "viewer/ui/imgui_qt_bridge.hpp"
#include "viewer/window/navigation.hpp"
#include "viewer/window/viewer_window.hpp"

namespace gvflab::viewer {
namespace {

Vec2 toVec2(QPointF p) { return {static_cast<float>(p.x()), static_cast<float>(p.y())}; }

}  // namespace

GlView::GlView(Session& session, const ViewerStartup& startup, QWidget* parent)
    : QOpenGLWidget(parent),
      session_(session),
      startup_(startup.window),
      modes_(session, startup.snakes, startup.region, startup.race, startup.raceBudgetMs, errors_,
             startup.surfaces) {
  setFocusPolicy(Qt::StrongFocus);
  setMouseTracking(true);
  // Redraw continuously: the solver iterates every frame.
  connect(&frameTimer_, &QTimer::timeout, this, [this] { update(); });
  frameTimer_.start(10);
  connect(this, &QOpenGLWidget::frameSwapped, this, [this] {
    if (std::exchange(awaitingSwap_, false)) phase("compose");  // not for menus' compositions
  });
  clock_.start();
  layers_ = startup_.layers;
  recording_ = std::make_unique<RecordingControl>(session_);
  startupRecording_ = startup_.record.has_value();
  // The viewer's own pace: a frame budget unless the command line fixed the steps per frame.
  if (startup_.defaultFrameBudget) session_.setFrameBudgetMs(12.0);
  devices_ = listDevices();
  if (!session.startupError().empty()) errors_.add(session.startupError());
  if (startup_.demo) {  // --demo NAME: the model came from its flags; here its canvas
    const app::Demo& d = app::findDemo(*startup_.demo);
    demo_ = DemoShown{d.title, d.explanation, startup.region.enabled};
    errors_.guard("Showing the demo's slice", [&] { applyDemoSlice(d, session_); });
    explanationOpen_ = true;
    modes_.snakes().showCapture = d.layers.capture;
    modes_.snakes().requestCapture();
  }
}

GlView::~GlView() {
  makeCurrent();
  modes_.releaseGl();
  recording_.reset();  // finishes the file with the context still current
  presenter_.reset();
  renderer_.reset();
  if (imguiReady_) {
    ImGui_ImplOpenGL3_Shutdown();
    ImGui::DestroyContext();
  }
  doneCurrent();
}

void GlView::initializeGL() {
  pinGlDriverModules();
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
  errors_.guard("Setting up OpenGL rendering", [&] { renderer_ = std::make_unique<Renderer>(); });
  makePresenter();
}

void GlView::makePresenter() {
  const GlContextHandles handles = currentGlContextHandles();
  const TransferEnvironment env = transferFromEnvironment();
  if (!env.problem.empty()) errors_.add(env.problem);
  const ExternalMemoryGl external = currentExternalMemoryGl();
  TransferChoice choice = chooseTransfer(session_.device(), handles, external, env.request);
  if (choice.path == TransferPath::ZeroCopy &&
      session_.context().options().extraProperties.empty()) {
    // Sharing needs a CL context made for this GL context: make it, on the same device.
    if (!errors_.guard("Sharing OpenGL with OpenCL", [&] {
          session_.switchDevice(session_.device().name, glSharingProperties(handles));
        }))
      choice =
          chooseTransfer(session_.device(), handles, external, TransferRequest::AfterSharingFailed);
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
    modes_.snakes().advanceFrame();  // snakes move to the new context, contours kept
  });
  if (ok) makePresenter();
}

ViewGeometry GlView::viewGeometry() const {
  const PanelLayout panels = panelLayout(static_cast<float>(width()), panelsShown_);
  return {{static_cast<float>(width()), static_cast<float>(height())},
          static_cast<float>(devicePixelRatio()),
          panels.left,
          panels.right,
          modes_.sideViewShown(),
          view_,
          demo_ && explanationOpen_ ? explanationBottom_ + 4 : 0.0f};
}

bool GlView::viewTakesPointer(QPointF logical) const {
  return imguiReady_ && !ImGui::GetIO().WantCaptureMouse &&
         viewGeometry().overView(toVec2(logical));
}

bool GlView::inSideView(QPointF logical) const {
  return viewTakesPointer(logical) && viewGeometry().inSideView(toVec2(logical));
}

void GlView::paintGL() {
  startFrame(clock_.nsecsElapsed() * 1e-9);
  buildUi(frameSeconds_);
  handleRequests();
  phase("ui");
  reloadKernels();
  advanceSolver();
  phase("solver");
  advanceModes();
  phase("snakes");
  uploadIfChanged();
  phase("upload");
  drawView();
  phase("draw");
  renderUi();
  phase("imgui");
  record();
  phase("record");
  // A software GL draws when the frame is finished, not in the calls: waiting here puts that work
  // in the rest of the frame the budget sees, and in --stats as "gl" (docs/BENCHMARKS.md, "Frame
  // time on llvmpipe"). Qt's composition and the swap come after ("compose").
  gl().glFinish();
  phase("gl");
  session_.noteFrameRest((clock_.nsecsElapsed() - solverEnd_) * 1e-6);
  awaitingSwap_ = true;
  countFrame();
}

void GlView::startFrame(double now) {
  frameStart_ = now;
  frameSeconds_ = lastFrameTime_ < 0 ? 1.0f / 60 : static_cast<float>(now - lastFrameTime_);
  lastFrameTime_ = now;
  // Frame time as seen on screen: from one frame's start to the next (first frames skipped).
  if (lastFrameStart_ >= 0 && scripted_.frames() > 2)
    stats_.addFrame(1000.0 * (now - lastFrameStart_));
  lastFrameStart_ = now;
  readouts_.frameMs = 1000.0 * frameSeconds_;
  readouts_.framesPerSecond +=
      (1.0 / std::max(frameSeconds_, 1e-4f) - readouts_.framesPerSecond) * 0.1;
  phaseMark_ = clock_.nsecsElapsed();
}

void GlView::phase(const char* name) {
  const auto t = clock_.nsecsElapsed();
  if (scripted_.frames() > 2) stats_.addPhase(name, (t - phaseMark_) * 1e-6);
  phaseMark_ = t;
}

void GlView::reloadKernels() {
  errors_.guard("Reloading the kernels", [&] {
    if (session_.reloadKernelsIfChanged()) shownFieldVersion_ = -1;
  });
}

void GlView::advanceSolver() {
  const auto solverStart = clock_.nsecsElapsed();
  const double elapsedMs = (solverStart * 1e-9 - frameStart_) * 1000.0;
  if (!errors_.guard("Iterating the solver", [&] { session_.advanceFrame(elapsedMs); }))
    session_.setRunning(false);  // do not repeat a failing step every frame
  solverEnd_ = clock_.nsecsElapsed();
  if (scripted_.frames() > 2) stats_.addIterations(session_.lastFrameIterations());
}

void GlView::advanceModes() {
  modes_.advance(errors_);
  if (scripted_.frames() > 2) stats_.addIterations(modes_.frameIterations());  // the race's solvers
  if (modes_.ownsImage() != ownImageShown_) {  // the view switches images: fit it
    ownImageShown_ = modes_.ownsImage();
    view_.zoom = 1, view_.pan = {};
    shownImageVersion_ = -1;
  }
}

void GlView::drawView() {
  const ViewGeometry g = viewGeometry();
  const Viewport window = g.windowRect();
  const Viewport area = g.splitArea();  // below the caption where the view is split
  const Viewport slice = g.split().slice;
  auto& f = gl();
  f.glViewport(0, 0, window.width, window.height);
  f.glClearColor(0.11f, 0.11f, 0.13f, 1.0f);
  f.glClear(GL_COLOR_BUFFER_BIT);
  if (renderer_ && presenter_) {
    view_.viewSize = {static_cast<float>(slice.width), static_cast<float>(slice.height)};
    view_.imageSize = {static_cast<float>(session_.image().width),
                       static_cast<float>(session_.image().height)};
    if (modes_.ownsImage()) view_.imageSize = modes_.ownImageSize();
  }
  drawViewArea(area, window.height, view_, false);
}

void GlView::renderUi() {
  ImGui::Render();
  renderUiLayers();
  ImGuiQtBridge::applyCursor(this);
}

void GlView::record() {
  // View-only frames were taken in captureView(), before the panels were drawn.
  if (recording_->active() && recording_->withPanel())
    recording_->capture(viewGeometry().windowRect(), errors_);
  // Ends by itself a set time after every snake stopped (when asked in the section).
  const auto& snakes = modes_.snakes().contours();
  const bool stopped = !snakes.empty() && std::none_of(snakes.begin(), snakes.end(), [](auto& c) {
    return c.state == SnakeState::Moving;
  });
  if (recording_->active() && recording_->endIfSettled(stopped)) note(recording_->lastMessage());
}

void GlView::toggleRecording() {
  makeCurrent();
  if (recording_->active()) {
    note("Recording: " + recording_->stop());
    return;
  }
  const Viewport v = viewGeometry().viewRect(), w = viewGeometry().windowRect();
  recording_->startFromSettings(errors_, v.width, v.height, w.width, w.height);
  if (recording_->active()) note("Recording started (V stops it)");
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
  const float dpr = static_cast<float>(devicePixelRatio());
  if (panelsShown_) {
    const PanelLayout layout = panelLayout(static_cast<float>(width()), true);
    drawPanel(
        session_, layers_, readouts_, errors_, requests_, layout.left, static_cast<float>(height()),
        [this] { drawExtraSections(); },
        [this, layout] {
          modes_.drawSnakeSections(errors_);
          if (layout.layersInLeft)
            drawDisplaySections(layers_, readouts_.rangeMax, modes_.fieldCaption(), layerInfos());
        });
    if (!layout.layersInLeft)
      drawDisplayPanel(layers_, readouts_.rangeMax, static_cast<float>(width()) - layout.right,
                       static_cast<float>(height()), modes_.fieldCaption(), layerInfos());
  }
  const bool snakesHidden = modes_.hidesSnakes();
  const Viewport slice = viewGeometry().split().slice;  // the legend and hints stay on the slice
  const PanelPlace place{
      viewGeometry().viewLeftPixels() / dpr,
      static_cast<float>(slice.width) / dpr,
      static_cast<float>(slice.height) / dpr,
      panelsShown_,
      !snakesHidden && modes_.sessionPictureShown(),
      modes_.firstStartHintAllowed() && !(demo_ && explanationOpen_),
      canvasTop(),
      &view_,
      dpr,
      panelLayout(static_cast<float>(width()), true).layersInLeft ? "gvflab" : "display"};
  modes_.drawPanels(place, errors_);
  // The readout of the session's field; the race shows its own maps and plot instead.
  if (cursor_ && presenter_ && modes_.sessionPictureShown() && !inSideView(*cursor_)) {
    const Vec2 p = viewGeometry().toImage(toVec2(*cursor_));
    if (auto r = readoutAt(p.x, p.y, session_.image())) {
      // The one pixel from the device (read again when it or the field changed).
      const FieldTextureRef shown = presenter_->texture();
      if (shown.width == session_.image().width && shown.height == session_.image().height)
        errors_.guard("Reading the field under the cursor", [&] {
          if (auto v = presenter_->vectorAt(r->x, r->y)) setReadoutVector(*r, (*v)[0], (*v)[1]);
        });
      drawCursorReadout(*r, viewGeometry().viewLeftPixels() / dpr,
                        static_cast<float>(slice.height) / dpr,
                        100.0f * view_.pixelsPerImagePixel(), static_cast<float>(slice.width) / dpr,
                        uploadedForce_ == SnakeForce::Traditional);
    }
  }
  drawCanvasOverlays();
}

void GlView::drawCanvasOverlays() {
  const float dpr = static_cast<float>(devicePixelRatio());
  const ViewGeometry g = viewGeometry();
  const CanvasRect view{g.viewLeftPixels() / dpr, 0, g.viewWidthPixels() / dpr,
                        static_cast<float>(height())};
  if (demo_ && explanationOpen_)
    explanationBottom_ = drawExplanation(demo_->title, demo_->explanation[0], demo_->explanation[1],
                                         &explanationOpen_, view);
  toast_.draw(errors_, clock_.nsecsElapsed() * 1e-9, view);
  if (!modes_.hidesSnakes() && !lessonRunning(session_, modes_.snakes())) drawPauseBadge(view);
  // While recording, its control stays on the view (the panel's section may scroll away).
  if (recording_->drawBadge(view.left, view.width,
                            demo_ && explanationOpen_ ? explanationBottom_ : 0))
    QTimer::singleShot(0, this, [this] { toggleRecording(); });
  drawShortcutOverlay(&helpOpen_, view);
}

float GlView::canvasTop() const {
  const float explanation = demo_ && explanationOpen_ ? explanationBottom_ : 0.0f;
  // The recording badge sits below the explanation; the legend below both.
  return explanation + (recording_->active() ? ImGui::GetFrameHeightWithSpacing() + 14 : 0.0f);
}

void GlView::note(const std::string& message) {
  toast_.note(message, clock_.nsecsElapsed() * 1e-9);
}

void GlView::replay() {
  makeCurrent();
  modes_.replay(errors_);
}

void GlView::loadDemo(const std::string& name) {
  makeCurrent();
  errors_.guard("Opening the demo '" + name + "'", [&] {
    const app::Demo& d = app::findDemo(name);
    modes_.leaveForDemo(errors_);
    const DemoShown shown = applyDemo(d, session_, modes_.snakes(), layers_, &modes_.surfaces());
    if (shown.regionSnake) modes_.setRegionSnake(true);
    demo_ = shown;
    explanationOpen_ = true;
    view_.fit();
  });
  update();
}

void GlView::drawExtraSections() {
  if (ImGui::CollapsingHeader("Recording")) {  // closed at first: the lesson's sections are above
    const Viewport v = viewGeometry().viewRect(), w = viewGeometry().windowRect();
    recording_->drawSection(errors_, v.width, v.height, w.width, w.height);
  }
  if (ImGui::CollapsingHeader("Device and pace")) {
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
                  [&] { session_.openPhantom(*r.phantom, startup_.phantomSize); });
  // A modal dialog inside paintGL would re-enter it; open it after this frame.
  if (r.openFileDialog) QTimer::singleShot(0, this, [this] { files_.showOpenDialog(); });
}

void GlView::uploadIfChanged() {
  if (!renderer_ || !presenter_) return;
  if (session_.imageVersion() != shownImageVersion_ && !modes_.ownsImage()) {
    bool ok = errors_.guard("Showing the image", [&] { renderer_->setImage(session_.image()); });
    if (ok) {
      shownImageVersion_ = session_.imageVersion();
      // Another slice of the same size keeps the zoom; a new image is fitted.
      const std::array<int, 2> size = {session_.image().width, session_.image().height};
      if (size != shownImageSize_) view_.zoom = 1, view_.pan = {};
      shownImageSize_ = size;
    }
  }
  // The field layers show the selected snake's force: the GVF field or grad f.
  const SnakeForce force = modes_.shownForce();
  // The whole field in host memory only for the streamlines (traced on the host); when they
  // are switched on, the next upload brings it even if the field stands still.
  const bool hostWanted = layers_.showStreamlines && !modes_.hidesField();
  presenter_->setHostFieldWanted(hostWanted);
  const long forces = modes_.snakes().forcesVersion();
  if (session_.fieldVersion() != shownFieldVersion_ || uploadedForce_ != force ||
      uploadedForces_ != forces || (hostWanted && presenter_->hostField().empty())) {
    bool ok = errors_.guard("Copying the field to OpenGL", [&] {
      const GvfInput& plane = session_.planeInput();  // the image, or a volume's slice
      presenter_->upload(session_.context().queue(), modes_.snakes().forceField(force), plane.width,
                         plane.height);
    });
    if (ok) {
      shownFieldVersion_ = session_.fieldVersion();
      uploadedForce_ = force;
      uploadedForces_ = forces;
    } else {
      session_.setRunning(false);
    }
  }
}

void GlView::countFrame() {
  if (scripted_.countFrame()) QTimer::singleShot(0, this, [this] { finishAndQuit(); });
}

void GlView::finishAndQuit() {
  makeCurrent();  // the recording ends with the context current
  const auto* renderer = reinterpret_cast<const char*>(gl().glGetString(GL_RENDERER));
  QCoreApplication::exit(scripted_.finish(
      {session_, presenter_.get(), renderer, stats_, modes_, *recording_, errors_}));
}

void GlView::leaveEvent(QEvent* event) {
  cursor_.reset();
  QOpenGLWidget::leaveEvent(event);
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

PointerEvent GlView::pointer(const QMouseEvent& event) {
  const ViewGeometry g = viewGeometry();
  const Vec2 at = toVec2(event.position());
  const Vec2 image = g.toImage(at);
  return {event.button(),
          event.modifiers(),
          event.position(),
          g.toViewPixels(at),
          {image.x, image.y},
          g.pickRadius(),
          static_cast<float>(devicePixelRatio()),
          view_,
          errors_};
}

template <class Hook>
bool GlView::offer(Hook hook) {
  for (ViewerMode* m : modes_.topFirst())
    if (hook(*m)) return true;
  return false;
}

void GlView::mousePressEvent(QMouseEvent* event) {
  if (!viewTakesPointer(event->position())) return;
  if (inSideView(event->position())) {
    sideDrag_ = true;
    return modes_.sidePress(event->button(), event->modifiers(),
                            viewGeometry().toSidePixels(toVec2(event->position())));
  }
  PointerEvent p = pointer(*event);
  offer([&](ViewerMode& m) { return m.mousePress(p); });
}

void GlView::mouseMoveEvent(QMouseEvent* event) {
  cursor_ = event->position();
  if (sideDrag_)
    return modes_.sideMove(viewGeometry().toSidePixels(toVec2(event->position())),
                           static_cast<float>(viewGeometry().split().side.height));
  PointerEvent p = pointer(*event);
  offer([&](ViewerMode& m) { return m.mouseMove(p); });
}

void GlView::mouseReleaseEvent(QMouseEvent* event) {
  if (std::exchange(sideDrag_, false)) return modes_.sideRelease();
  PointerEvent p = pointer(*event);
  offer([&](ViewerMode& m) { return m.mouseRelease(p); });
}

void GlView::mouseDoubleClickEvent(QMouseEvent* event) {
  if (!viewTakesPointer(event->position())) return;
  if (inSideView(event->position())) return modes_.sideDoubleClick();
  PointerEvent p = pointer(*event);
  offer([&](ViewerMode& m) { return m.mouseDoubleClick(p); });
}

void GlView::wheelEvent(QWheelEvent* event) {
  if (!viewTakesPointer(event->position())) return;
  float steps = static_cast<float>(event->angleDelta().y()) / 120.0f;
  if (inSideView(event->position())) return modes_.sideWheel(steps);
  view_.zoomAround(viewGeometry().toViewPixels(toVec2(event->position())), std::pow(1.15f, steps));
}

void GlView::keyPressEvent(QKeyEvent* event) {
  if (!imguiReady_ || ImGui::GetIO().WantCaptureKeyboard) return;
  const bool ctrl = event->modifiers() & Qt::ControlModifier;
  const bool shift = event->modifiers() & Qt::ShiftModifier;
  const KeyPress press{event->key(), ctrl, shift, errors_};
  if (offer([&](ViewerMode& m) { return m.key(press); })) return;
  if (!ctrl && navigationKey(view_, event->key())) return;
  switch (event->key()) {
    case Qt::Key_Space:  // the field and the snakes together, as F1 says
      toggleRunning(session_, modes_.snakes());
      break;
    case Qt::Key_S:
      if (ctrl) {
        QTimer::singleShot(0, this, [this] { saveScreenshot(); });
        break;
      }
      [[fallthrough]];
    case Qt::Key_Period:
      stepOnce(session_, modes_.snakes());
      break;
    case Qt::Key_L:
      layers_.logScale = !layers_.logScale;
      break;
    case Qt::Key_F11:
      if (auto* w = dynamic_cast<ViewerWindow*>(window())) w->toggleFullScreen();
      break;
    case Qt::Key_R:  // the replay: the field from V0 and every snake from its start
      modes_.replay(errors_);
      break;
    case Qt::Key_Tab:
      togglePanels();
      break;
    case Qt::Key_V:  // start / stop recording with the Recording section's settings
      if (!ctrl) toggleRecording();
      break;
    case Qt::Key_F1:
    case Qt::Key_Question:
      toggleHelp();
      break;
    case Qt::Key_Escape:  // after the snake tool, whose polygon in progress Esc cancels first
      helpOpen_ = false;
      break;
    case Qt::Key_E:
      toggleExplanation();
      break;
    default:  // a layer's own key (I, M, G, T: LayerInfo::toggleKey)
      if (!toggleLayerByKey(layerInfos(), event->key(), layers_))
        QOpenGLWidget::keyPressEvent(event);
      break;
  }
}

}  // namespace gvflab::viewer
