#include "viewer/window/scripted_run.hpp"

#include <algorithm>
#include <cstdio>
#include <iostream>

#include "gvflab/log.hpp"

namespace gvflab::viewer {

bool ScriptedRun::countFrame() {
  ++frames_;
  return startup_.quitAfterFrames > 0 && frames_ == startup_.quitAfterFrames;
}

bool ScriptedRun::shootsNow(bool panels) const {
  return startup_.screenshot && startup_.screenshotPanels == panels &&
         startup_.quitAfterFrames > 0 && frames_ + 1 == startup_.quitAfterFrames;
}

FigureOptions ScriptedRun::viewShotLook() const {
  FigureOptions look;
  look.legend = startup_.legend;
  look.caption = startup_.caption;
  if (startup_.screenshotSize)
    look.width = (*startup_.screenshotSize)[0], look.height = (*startup_.screenshotSize)[1];
  return look;
}

int ScriptedRun::finish(const RunEnd& run) const {
  int code = 0;
  if (run.recording.active()) {
    std::string message = run.recording.stop();
    std::cout << message << "\n";
    if (!run.errors.messages().empty() || message.find("stopped there") != std::string::npos)
      code = 1;
  } else if (!run.recording.lastMessage().empty()) {
    std::cout << run.recording.lastMessage() << "\n";  // it ended earlier (V, Stop, by itself)
  }
  for (const auto& m : run.errors.messages()) log::error(m);
  if (startup_.printStats && run.presenter) {
    const auto& t = run.presenter->totals();
    const double n = static_cast<double>(std::max(t.uploads, 1L));
    char cost[200];
    std::snprintf(
        cost, sizeof cost,
        "CL->GL mean %.3f ms (host read-back for the readouts %.3f ms of it), %ld uploads, "
        "%ld whole-field host copies",
        t.ms / n, t.readBackMs / n, t.uploads, t.hostFieldCopies);
    std::cout << "viewer " << run.session.image().width << "x" << run.session.image().height
              << ", GL " << (run.glRenderer ? run.glRenderer : "?") << ", "
              << run.presenter->choice().description << ", " << cost << ": " << run.stats.summary()
              << "\n";
    run.modes.printStats(std::cout);
  }
  if (startup_.screenshot) {
    try {
      if (shot_.isNull()) throw ResourceError("no frame was captured");
      writeFigurePng(*startup_.screenshot, shot_);
      std::cout << "screenshot: " << *startup_.screenshot << " (" << shot_.width() << "x"
                << shot_.height() << ")\n";
    } catch (const Error& e) {
      log::error("could not save the screenshot to '" + *startup_.screenshot + "': " + e.what());
      code = 1;
    }
  }
  return code;
}

}  // namespace gvflab::viewer
