#pragma once
// The view shared by the slice and the 3D view (volumes): side by side when that gives each
// the larger square, else the slice above the 3D view. The slice keeps the view's top-left
// corner, so screen pixels measured from there still address it.
#include "viewer/render/layer.hpp"

namespace gvflab::viewer {

struct ViewSplit {
  Viewport slice;  // GL convention (origin bottom-left), framebuffer pixels
  Viewport side;   // the 3D view; width 0 when there is none
};

// side = false: the slice takes the whole area.
ViewSplit splitView(const Viewport& area, bool side);
// Whether framebuffer pixel (x, y from the area's top-left, y down) lies in the 3D view.
bool inSideView(const ViewSplit& split, const Viewport& area, float x, float y);

}  // namespace gvflab::viewer
