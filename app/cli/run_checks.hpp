#pragma once
// One rule, in one place: a headless run (compute or record) checks everything it reads before
// it opens any output. The named input is loaded (never replaced by a phantom), every snake is
// checked against its size, and every output path is checked; a later failure removes what the
// run wrote (io/run_outputs.hpp).
#include <functional>

#include "cli/options.hpp"
#include "gvflab/field_storage.hpp"
#include "gvflab/image.hpp"
#include "io/volume_loader.hpp"

namespace gvflab::app {

using RunInput = LoadedInput;  // 2D: the image or phantom

// Each output the options name (--save-field, --save-magnitude, --report, --save-contours,
// --capture-map, --record, --screenshot): a name within the system's length limits whose
// folder exists and is writable, a new name or a regular file (or a link to one: never a
// device, FIFO, socket or folder), and not the input image, the --session file or another
// output, after resolving links. Throws ParameterError naming the flags.
void checkOutputPaths(const Options& options);

// Every output flag is honoured by the mode that runs: --region-snake (headless) writes no
// field, magnitude, capture map or figure and runs no --snake; --record-tail needs --record.
// Refused with the reason.
void checkOutputsHonoured(const Options& options);

// The phantom, or the image or volume the command line or session names. beforeRead gets the
// size from the file's header before the data is read (the device check). Throws InputError
// naming the file, ParameterError when nothing is named.
RunInput loadRunInput(const Options& options,
                      const std::function<void(FieldShape)>& beforeRead = {});

// Every snake (--snake or the session's) against a width x height image: finite points inside
// it, enclosing an area, not too many nodes once resampled. Throws naming the snake.
void checkSnakes(const Options& options, const RunInput& input);

// Every surface (--surface or the session's) against the volume, before any mesh is built from
// a shape: a volume input, inside it, not too many vertices; --save-surfaces has surfaces.
// Throws naming the surface.
void checkSurfaces(const Options& options, const RunInput& input);

// The four above, in order; what a run does before anything else.
RunInput checkHeadlessRun(const Options& options,
                          const std::function<void(FieldShape)>& beforeRead = {});

}  // namespace gvflab::app
