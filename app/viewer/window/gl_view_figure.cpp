// GlView's figures and view-only recordings: the view drawn without the ImGui panels and
// floating windows, at the view's size (read back between ImGui's canvas list and the
// windows) or at any size (drawn again offscreen with the same renderer and transform), with
// the legend and caption painted on (render/figure.hpp).
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <QFileInfo>
#include <algorithm>
#include <vector>

#include "viewer/window/gl_view.hpp"

namespace gvflab::viewer {
namespace {

// Draws the lists of data that are (onlyCanvas) or are not the background (canvas) list.
void renderLists(ImDrawData* data, ImDrawList* canvas, bool onlyCanvas) {
  if (!data || !data->Valid) return;
  std::vector<ImDrawList*> lists;
  ImDrawData part = *data;
  part.TotalVtxCount = part.TotalIdxCount = 0;
  for (int i = 0; i < data->CmdListsCount; ++i)
    if ((data->CmdLists[i] == canvas) == onlyCanvas) {
      lists.push_back(data->CmdLists[i]);
      part.TotalVtxCount += data->CmdLists[i]->VtxBuffer.Size;
      part.TotalIdxCount += data->CmdLists[i]->IdxBuffer.Size;
    }
  if (lists.empty()) return;
  part.CmdLists = lists.data();
  part.CmdListsCount = static_cast<int>(lists.size());
  ImGui_ImplOpenGL3_RenderDrawData(&part);
}

}  // namespace

void GlView::drawViewArea(const Viewport& area, int framebufferHeight, ViewTransform& view,
                          bool glOverlaysOnly) {
  const bool fieldHidden = modes_.hidesField();
  const bool snakesHidden = modes_.hidesSnakes();
  LayerSettings shown = layers_;
  if (fieldHidden) shown.showMagnitude = shown.showGlyphs = false;
  const float range =
      layers_.autoRange ? (presenter_ ? presenter_->maxMagnitude() : 0) : layers_.fixedRangeMax;
  // A volume's 3D view takes its part of the area (render/view_geometry.hpp); the slice the rest.
  const ViewSplit split = splitView(area, modes_.sideViewShown());
  ViewFrame frame{renderer_.get(),
                  presenter_.get(),
                  split.slice,
                  framebufferHeight,
                  static_cast<float>(devicePixelRatio()),
                  view,
                  layers_,
                  shown,
                  range,
                  fieldHidden,
                  snakesHidden,
                  shownFieldVersion_,
                  errors_};
  if (renderer_ && presenter_) errors_.guard("Drawing", [&] { modes_.drawPicture(frame); });
  modes_.drawOverlays(frame, glOverlaysOnly);
  if (split.side.width > 0) modes_.drawSideView(split.side, errors_);
}

void GlView::renderUiLayers() {
  ImDrawData* drawData = ImGui::GetDrawData();
  ImDrawList* canvas = ImGui::GetBackgroundDrawList();
  renderLists(drawData, canvas, true);
  captureView();
  renderLists(drawData, canvas, false);
  captureWindow();
}

void GlView::startRecordingIfAsked() {
  if (!startupRecording_) return;  // --record in the viewer: from the first drawn frame
  startupRecording_ = false;
  FigureOptions look;
  look.panels = startup_.recordPanel;
  look.legend = startup_.legend;
  look.caption = startup_.caption;
  recording_->setLook(look);
  recording_->setEndWhenSettled(false);  // --frames says when it ends
  const Viewport r = look.panels ? viewGeometry().windowRect() : viewGeometry().viewRect();
  errors_.guard("Starting the recording", [&] {
    recording_->start(*startup_.record, r.width, r.height, startup_.stepsPerFrame > 0, startup_.fps,
                      std::max(startup_.stepsPerFrame, 1));
  });
}

QImage GlView::readFramebuffer(const Viewport& r) {
  QImage image(r.width, r.height, QImage::Format_RGBA8888);
  auto& f = gl();
  f.glPixelStorei(GL_PACK_ALIGNMENT, 4);
  f.glReadPixels(r.x, r.y, r.width, r.height, GL_RGBA, GL_UNSIGNED_BYTE, image.bits());
  // GL rows are bottom-up; the window's alpha is not the picture's.
  return image.mirrored(false, true).convertToFormat(QImage::Format_RGB888);
}

FigureFacts GlView::figureFacts(int width, int height) const {
  const float range =
      layers_.autoRange ? (presenter_ ? presenter_->maxMagnitude() : 0) : layers_.fixedRangeMax;
  LayerSettings shown = layers_;
  if (modes_.hidesField()) shown.showMagnitude = false;
  const bool snakesHidden = modes_.hidesSnakes();
  static const std::vector<SnakeContour> none;
  FigureFacts facts =
      viewer::figureFacts(session_, snakesHidden ? none : modes_.snakes().contours(), shown, range);
  facts.snakesWaiting = !snakesHidden && modes_.snakes().waitingForField();
  facts.view = viewGeometry().viewAt(width, height);
  return facts;
}

QImage GlView::renderViewAt(int width, int height) {
  if (!figureTarget_ || figureTarget_->width() != width || figureTarget_->height() != height)
    figureTarget_ =
        std::make_unique<OffscreenTarget>(width, height, OffscreenTarget::InCurrentContext{});
  figureTarget_->bind();
  ViewTransform view = viewGeometry().viewAt(width, height);
  auto& f = gl();
  f.glViewport(0, 0, width, height);
  f.glClearColor(0.11f, 0.11f, 0.13f, 1.0f);
  f.glClear(GL_COLOR_BUFFER_BIT);
  drawViewArea({0, 0, width, height}, height, view, true);
  // Read like the view itself (glReadPixels, rows flipped), so both paths agree.
  f.glBindFramebuffer(GL_READ_FRAMEBUFFER, figureTarget_->framebuffer());
  QImage image = readFramebuffer({0, 0, width, height});
  f.glBindFramebuffer(GL_FRAMEBUFFER, defaultFramebufferObject());
  const Viewport window = viewGeometry().windowRect();
  f.glViewport(0, 0, window.width, window.height);
  return image;
}

QImage GlView::viewFigure(const FigureOptions& options) {
  const Viewport v = viewGeometry().viewRect();
  const bool ownSize = options.width > 0 && options.height > 0 &&
                       (options.width != v.width || options.height != v.height);
  QImage image = ownSize ? renderViewAt(options.width, options.height) : readFramebuffer(v);
  annotateFigure(image, options, figureFacts(image.width(), image.height()));
  return image;
}

void GlView::savePendingFigure(bool panels) {
  if (!pendingFigure_ || pendingFigure_->options.panels != panels) return;
  const PendingFigure p = *std::exchange(pendingFigure_, std::nullopt);
  errors_.guard("Saving the figure", [&] {
    const QImage image =
        panels ? readFramebuffer(viewGeometry().windowRect()) : viewFigure(p.options);
    writeFigurePng(p.path.toStdString(), image);
    note("Saved " + QFileInfo(p.path).fileName().toStdString() + " (" +
         std::to_string(image.width()) + " x " + std::to_string(image.height()) + ")");
  });
}

void GlView::captureView() {
  startRecordingIfAsked();
  savePendingFigure(false);
  if (scripted_.shootsNow(false)) scripted_.keepShot(viewFigure(scripted_.viewShotLook()));
  if (recording_->active() && !recording_->withPanel() && recording_->wantsFrame()) {
    FigureOptions look = recording_->look();
    look.width = recording_->width(), look.height = recording_->height();
    recording_->captureImage(viewFigure(look), errors_);
  }
}

void GlView::captureWindow() {
  savePendingFigure(true);
  if (scripted_.shootsNow(true)) scripted_.keepShot(readFramebuffer(viewGeometry().windowRect()));
}

void GlView::saveFigure(const QString& path, const FigureOptions& options) {
  pendingFigure_ = PendingFigure{path, options};
  update();
}

void GlView::saveScreenshot() {
  const Viewport v = viewGeometry().viewRect();
  files_.saveFigureDialog(v.width, v.height, [this](const QString& path, const FigureOptions& o) {
    saveFigure(path, o);
  });
}

}  // namespace gvflab::viewer
