#pragma once
// The capture-range map: from every pixel centre, follow the unit-length external force (the
// same per-pixel-normalised, bilinear force a snake node feels) in unit steps, up to N steps,
// until the edge map reaches a threshold. A pixel is captured when it gets there; its value is
// the number of steps, or -1. The area is the number of captured pixels.
#include <memory>
#include <vector>

#include "gvflab/cl.hpp"
#include "gvflab/gvf_input.hpp"
#include "gvflab/params.hpp"
#include "gvflab/typed_kernel.hpp"

namespace gvflab {

class ComputeContext;

struct CaptureParams {
  double threshold = 0.3;  // edge map value that counts as the object boundary
  int maxSteps = 0;        // 0: width + height

  static CaptureParams defaults();  // from captureParamSpecs()
  int stepsFor(int width, int height) const { return maxSteps > 0 ? maxSteps : width + height; }
};

// capture-threshold, capture-steps (keys are the CLI flags).
const std::vector<ParamSpec>& captureParamSpecs();
const std::vector<ParamField<CaptureParams>>& captureParamFields();

class CaptureRange {
 public:
  // Keeps a handle on input.edge (the edge map f); the input's size fixes the map's size.
  CaptureRange(std::shared_ptr<ComputeContext> ctx, const GvfInput& input);

  // Recomputes the map for a float2 field of the input's size; returns the captured area.
  // Throws ParameterError for a threshold outside [0, 1] or negative steps.
  long compute(const cl::Buffer& field, const CaptureParams& params);

  // The same map in bands of rows, for a caller that spreads it over frames (the race view):
  // begin() copies the field on the device (every band then follows the one field, however the
  // solver moves it meanwhile) and clears the count; computeRows() queues the next band, rows
  // rounded up to the work-group's, without waiting, and returns the rows queued (0 when none
  // are left); finish() waits for the count and returns the area. Same map and area as
  // compute(). bandEvent(): the last band's kernel (for its OpenCL time).
  void begin(const cl::Buffer& field, const CaptureParams& params);
  int computeRows(int rows);
  int rowsLeft() const { return height_ - nextRow_; }
  int rowMultiple() const;  // bands are multiples of this many rows
  long finish();
  const cl::Event& bandEvent() const { return bandEvent_; }

  const cl::Buffer& steps() const { return steps_; }  // int per pixel: steps, or -1
  std::vector<int> readSteps();
  long area() const { return area_; }
  int maxSteps() const { return maxSteps_; }  // of the last compute
  int width() const { return width_; }
  int height() const { return height_; }

 private:
  std::shared_ptr<ComputeContext> ctx_;
  int width_, height_;
  cl::Buffer edge_, steps_, count_;
  cl::Buffer snapshot_;  // begin()'s copy of the field
  cl::Event bandEvent_;
  int nextRow_ = 0;
  float bandThreshold_ = 0;
  // field, edge, steps, count, width, height, threshold, max_steps
  TypedKernel<cl::Buffer, cl::Buffer, cl::Buffer, cl::Buffer, cl_int, cl_int, cl_float, cl_int>
      kernel_;
  long area_ = 0;
  int maxSteps_ = 0;
};

// RGB bytes for display or PNG: edge pixels (0 steps) white, captured pixels from yellow (near)
// to dark blue (maxSteps away), pixels never captured black.
std::vector<unsigned char> captureMapRgb(const std::vector<int>& steps, int maxSteps);

}  // namespace gvflab
