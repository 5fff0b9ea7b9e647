#pragma once
// --composite F.png --composite-forces: the forces side by side (issue 43), one panel per force
// the snakes hold (at most four, two columns): its capture-range map over the image, its snakes,
// and beneath it each snake's state and iterations and the force's capture area.
#include <QImage>
#include <array>

#include "cli/options.hpp"
#include "headless/headless.hpp"
#include "viewer/model/layer_settings.hpp"

namespace gvflab::app {

// Throws ParameterError for more than four forces, DeviceError without OpenGL.
QImage drawForcesComposite(const Options& options, const viewer::LayerSettings& layers,
                           const HeadlessOutcome& run, std::array<int, 2> size);

}  // namespace gvflab::app
