#pragma once
// Draws the race: the Euler and multigrid magnitude maps side by side in one view area, each
// through the viewer's Renderer into its own viewport (no copies), with one colour range for
// both (the paper's Fig. 7: the same intensity transformation), and a caption under
// each (solver, iterations, OpenCL ms). The fields reach GL through one Presenter per lane.
#include <imgui.h>

#include <array>
#include <memory>

#include "viewer/model/race_session.hpp"
#include "viewer/render/presenter.hpp"
#include "viewer/render/renderer.hpp"

namespace gvflab::viewer {

ImU32 raceLaneColor(int lane);  // Euler orange, multigrid blue

class RaceView {
 public:
  // GL context current. choice: the CL->GL path of the viewer's own presenter (its
  // Presenter::choice()), so the lanes' fields stay on the GPU where the view's does; context:
  // the session's OpenCL context, needed by the zero-copy paths (Presenter's constructor).
  RaceView(const TransferChoice& choice, cl::Context& context);
  explicit RaceView(const DeviceInfo& device);  // the host copy: for tests without a viewer

  // Copies both lanes' plane fields to GL when the race's fields (or the plane) moved.
  void upload(RaceSession& race, Session& session);
  // area: the view rectangle in framebuffer pixels (GL origin bottom-left). layers: the
  // viewer's settings; with autoRange the range is the larger of the two maxima.
  // captionStrip: framebuffer pixels kept free under the maps. Returns the range used.
  float draw(Renderer& renderer, const Viewport& area, const LayerSettings& layers,
             int captionStrip = 0, int gap = 8);
  // Under each map of the last draw: solver, iterations, OpenCL ms (ImGui's background list,
  // inside an ImGui frame). dpr: framebuffer pixels per ImGui unit.
  void drawCaptions(const RaceSession& race, int framebufferHeight, int captionStrip,
                    float dpr) const;
  // The two viewports of the last draw (for tests and the labels).
  const std::array<Viewport, 2>& viewports() const { return viewports_; }
  const Presenter& presenter(int i) const { return *presenters_[i]; }
  // The OpenCL context the lanes' transfers were made for (a new one needs a new view).
  cl_context context() const { return context_; }
  // Before the race's fields are freed (a rebuild): the presenters let go of them.
  void forgetFields();

 private:
  std::array<std::unique_ptr<Presenter>, 2> presenters_;
  std::array<Viewport, 2> viewports_{};
  long shownField_ = -1, shownImage_ = -1;
  const RaceSession* shownRace_ = nullptr;
  cl_context context_ = nullptr;
};

}  // namespace gvflab::viewer
