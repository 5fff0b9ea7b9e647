#pragma once
// σ from the image's noise, for runs that were given none (issue 39): on a noisy image the
// default σ = 1 leaves noise edges in f that stop a GVF snake in a concavity; a σ that grows as
// the signal-to-noise ratio falls smooths them away. A σ the user gave is never replaced.
#include <string>

#include "gvflab/image.hpp"
#include "gvflab/params.hpp"

namespace gvflab {

// Robust estimates on the image's own values (host, double precision).
struct NoiseEstimate {
  // Standard deviation of white noise: the median absolute response of Immerkær's
  // Laplacian-difference mask (blind to planes and, being a median, to the few edge pixels),
  // scaled to a Gaussian's σ.
  double noise = 0;
  // The image's contrast: 99th minus 1st percentile of a 5x5 box mean (noise shrunk 5-fold).
  double contrast = 0;
  double snr() const { return noise > 0 ? contrast / noise : kCleanSnr; }
  static constexpr double kCleanSnr = 1e9;  // no measurable noise
};
NoiseEstimate estimateNoise(const Image2D& image);

// The σ a run uses, and why.
struct SigmaChoice {
  double sigma = 1.0;
  bool fromNoise = false;  // chosen by sigmaForSnr, not given
  NoiseEstimate estimate;  // measured when fromNoise
  std::string reason;      // one sentence for the panel and the report
};

// σ for a signal-to-noise ratio on an image whose shorter side is shortSide: kSigmaPerSnr / snr,
// at least the spec's default (1, which clean images keep) and at most kMaxNoiseSigma and
// shortSide / kSidePerSigma (a small image's concavities are narrow: blur closes them), in
// quarter pixels. Calibrated on generated U shapes (tests/cl/test_noise_sigma.cpp): the GVF
// snake reaches the notch floor at SNR 5-30 with it; with σ = 1 it stalls in deep notches
// below SNR ~15.
inline constexpr double kSigmaPerSnr = 30.0;
inline constexpr double kMaxNoiseSigma = 4.0;
inline constexpr double kSidePerSigma = 80.0;
double sigmaForSnr(double snr, int shortSide);

// params.sigma as given unless params.sigmaFromNoise; then sigmaForSnr of the image's estimate.
SigmaChoice chooseSigma(const Image2D& image, const GvfParams& params);
// Volumes keep params.sigma (no estimate in 3D yet); the reason says so when it was asked for.
SigmaChoice chooseSigma(const Volume& volume, const GvfParams& params);

}  // namespace gvflab
