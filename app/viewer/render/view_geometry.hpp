#pragma once
// Where the view sits in the window and how a pointer maps onto it: the view between the side
// panels, split with a volume's 3D view, and the image in it (zoom and pan). Plain arithmetic
// on the window's size, no GL calls: GlView makes one per use from its current state.
#include "viewer/render/layer.hpp"
#include "viewer/render/view_transform.hpp"

namespace gvflab::viewer {

// The view shared by the slice and the 3D view (volumes): side by side when that gives each
// the larger square, else the slice above the 3D view. The slice keeps the view's top-left
// corner, so screen pixels measured from there still address it.
struct ViewSplit {
  Viewport slice;  // GL convention (origin bottom-left), framebuffer pixels
  Viewport side;   // the 3D view; width 0 when there is none
};

// side = false: the slice takes the whole area.
ViewSplit splitView(const Viewport& area, bool side);
// Whether framebuffer pixel (x, y from the area's top-left, y down) lies in the 3D view.
bool inSideView(const ViewSplit& split, const Viewport& area, float x, float y);

struct ViewGeometry {
  Vec2 window;            // logical pixels (Qt's width() and height())
  float dpr = 1;          // framebuffer pixels per logical pixel
  float panelLeft = 0;    // logical pixels taken by the left panel
  float panelRight = 0;   // and by the right one
  bool sideView = false;  // a volume's 3D view shares the view
  ViewTransform view;     // the image in the slice
  // Logical pixels from the window's top that the demo's caption covers: a split view's slice
  // and 3D view sit below it (their tops are where a volume's lesson is, e.g. a well's mouth).
  float captionBottom = 0;

  Viewport windowRect() const;    // the whole window, framebuffer pixels
  Viewport viewRect() const;      // the view, framebuffer pixels, GL origin
  Viewport splitArea() const;     // what the slice and the 3D view share: below the caption
  ViewSplit split() const;        // the slice and the 3D view (volumes), or all slice
  float viewLeftPixels() const;   // framebuffer x where the view starts (right of the panel)
  float viewWidthPixels() const;  // between the two panels
  Vec2 toViewPixels(Vec2 logical) const;  // from the split area's top-left
  Vec2 toImage(Vec2 logical) const;
  bool overView(Vec2 logical) const;                  // between the panels
  bool inSideView(Vec2 logical) const;                // over the 3D view
  Vec2 toSidePixels(Vec2 logical) const;              // from the 3D view's top-left corner
  float pickRadius() const;                           // image pixels within a few screen pixels
  ViewTransform viewAt(int width, int height) const;  // the same framing at another size
};

}  // namespace gvflab::viewer
