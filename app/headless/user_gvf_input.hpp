#pragma once
// A researcher's own GVF inputs for a headless run (as ITK's GradientVectorFlowImageFilter and
// OpenCL-GVF take them): --edge-map F, the edge map f (an image or volume file of the input's
// size, read as an input is: values in [0, 1]), and --v0 F, the initial field V0 (a field file
// of the input's size: 2 channels, 3 for a volume). Without --v0 F, V0 = grad f; without
// --edge-map, f is built from the image as usual.
#include "cli/options.hpp"
#include "cli/run_checks.hpp"
#include "gvflab/gvf_input.hpp"

namespace gvflab::app {

bool hasUserGvfInput(const Options& options);

// f and V0 on the device. Throws InputError naming the flag and the file: unreadable, a
// volume for an image (or the reverse), another size than the input's, NaN, wrong channels.
GvfInput buildUserGvfInput(ComputeContext& ctx, const Options& options, const RunInput& input);

}  // namespace gvflab::app
