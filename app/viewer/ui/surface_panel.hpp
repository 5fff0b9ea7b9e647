#pragma once
// The "Surfaces (3D)" section of the left panel, shown for volumes: the 3D view's switch, what
// a drag on the slice places, the force of new surfaces, the table of surfaces (force, state in
// its colour, vertices, iterations) with Compare / Delete for the selected one, and the
// surface kernels' OpenCL times (as the kernel table shows every kernel's).
#include "gvflab/profiler.hpp"
#include "viewer/model/surface_session.hpp"
#include "viewer/ui/error_log.hpp"

namespace gvflab::viewer {

struct SurfacePanelState {
  bool view3d = true;         // the 3D view beside the slice view
  bool placeSurfaces = true;  // a drag on the slice places a surface (else a 2D snake)
  bool showCuts = true;       // the surfaces' cuts on the slice view
  bool cutAway = true;        // the 3D view cut open at the coronal slice (SurfaceScene)
};

struct SurfaceActions {
  int compare = 0;  // a surface's id: add its twin
  int remove = 0;   // a surface's id: delete it
  bool clear = false;
  bool restart = false;
  bool resetCamera = false;
};

void drawSurfacePanel(SurfaceSession& surfaces, SurfacePanelState& state, SurfaceActions& actions,
                      const Profiler& profiler);

}  // namespace gvflab::viewer
