#pragma once
// Small ImGui pieces every panel uses.
#include <string>

namespace gvflab::viewer {

// A wrapped tooltip with text for the item just drawn, while it is hovered.
void itemTooltip(const std::string& text);

}  // namespace gvflab::viewer
