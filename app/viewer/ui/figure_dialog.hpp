#pragma once
// Ctrl+S: a small Qt dialog for a figure: size (the view's by default), legend, caption,
// panels or the composite (render/composite_figure.hpp), and the file it goes to.
#include <QString>
#include <QWidget>
#include <optional>

#include "viewer/render/figure.hpp"

namespace gvflab::viewer {

struct FigureRequest {
  QString path;
  FigureOptions options;
};

// Empty when cancelled. viewWidth x viewHeight: what "Size of the view" puts back.
std::optional<FigureRequest> askFigure(QWidget* parent, const FigureOptions& initial, int viewWidth,
                                       int viewHeight);

}  // namespace gvflab::viewer
