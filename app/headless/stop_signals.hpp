#pragma once
// SIGINT and SIGTERM in headless runs: one handler for the whole process, installed before the
// command line is read. Until the run starts writing its outputs, a signal ends the process at
// once (exit 128 + signal: 130 for SIGINT, 143 for SIGTERM) with one line on stderr: nothing
// has been written yet, and a blocking read or a long loop inside a library (an image decoder,
// teem, nifti) cannot delay it. While outputs are written (a StopDeferral is alive), the
// handler only records the signal; the run polls it (gvflab::throwIfCancelled), throws
// gvflab::Interrupted and rolls its outputs back before main exits 128 + signal. A second
// signal while deferred ends the process at once.
#include <string>

namespace gvflab::app {

void installStopSignals();
// The viewer: Ctrl+C ends it as any program (Qt's own event loop, no polling).
void restoreDefaultSignals();
// What the run is doing, for the line printed when a signal ends it at once
// ("Interrupted after SIGINT while <stage>; nothing was written."). A string literal.
void setStopStage(const char* stage);
// --batch: said after "nothing was written" when a signal ends the process at once (" for
// 'b.png'; the 2 inputs before it are complete"); "" for none. Copied (at most 511 bytes).
void setStopNote(const std::string& note);

// --batch: what stdout gets when a signal ends the process at once (the interrupted summary,
// "batch: 2 of 5 inputs done, interrupted at 'c.png'"); "" for none. Copied (at most 8 KiB).
void setStopSummary(const std::string& summary);

// For its lifetime signals are only recorded (nestable).
class StopDeferral {
 public:
  StopDeferral();
  ~StopDeferral();
  StopDeferral(const StopDeferral&) = delete;
  StopDeferral& operator=(const StopDeferral&) = delete;
};

}  // namespace gvflab::app
