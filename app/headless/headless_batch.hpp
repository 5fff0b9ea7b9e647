#pragma once
// gvflab --headless --batch INPUT... --output-dir DIR: one headless run per input, on one
// OpenCL context, each checked and written as a run of its own (cli/run_checks.hpp,
// io/run_outputs.hpp: a failing input leaves nothing of its own and stops no other).
//   inputs   files, globs (sorted matches; none is refused) and @LIST files (one file a line,
//            relative to the list's folder; blank lines and # comments skipped), in order.
//   outputs  every output flag (Flag::output) names a file in DIR: F becomes STEM-F, or F with
//            each {stem} replaced; STEM is the input's name without its extension (.nii.gz,
//            .mhd, ...). Two inputs of one stem, or an output that is an input, are refused
//            before anything runs.
//   stdout   each run's lines, prefixed "INPUT: ", then the summary: "batch: N of M inputs
//            done" and, when some failed, ", K failed:" and one line per failure with its
//            reason.
//   stderr   errors ("gvflab: REASON") as they come; unless --quiet, a progress line: on a
//            terminal one line, updated; otherwise "[I/M] INPUT: done|failed" per input.
//   status   0 when every input was done, 1 when any failed, 128 + signal when interrupted
//            (the inputs before are kept; the one running leaves nothing).
#include <string>
#include <vector>

#include "cli/options.hpp"

namespace gvflab::app {

// The files --batch names, in order. Throws ParameterError (a glob that matches nothing, a
// list that cannot be read or names none).
std::vector<std::string> batchInputs(const std::vector<std::string>& specs);
// "scans/a.nii.gz" -> "a".
std::string inputStem(const std::string& path);
// One input's options: its image, and each output flag's file in --output-dir. Throws
// ParameterError when an output flag names a folder.
Options batchRunOptions(const Options& options, const std::string& input);

// Runs the batch; returns the exit status (0 or 1). Throws gvflab::Error before the first run
// (inputs, outputs, device) and Interrupted after a signal (with the summary printed).
int runHeadlessBatch(const Options& options);

}  // namespace gvflab::app
