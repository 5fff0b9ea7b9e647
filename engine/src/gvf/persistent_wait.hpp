#pragma once
// How long a work-group of the one-launch 2D Euler kernel (gvf_euler_steps_persistent) polls
// at a device-wide barrier before it concludes that not all work-groups are running and gives
// up (the solver then redoes the iterations launch by launch). A variable so that tests can
// force the give-up (0: no polling).
namespace gvflab::detail {
inline int persistentSpinLimit = 1 << 23;  // a few seconds of polling on GPUs
}  // namespace gvflab::detail
