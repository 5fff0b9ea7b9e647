#pragma once
// Small ImGui pieces every panel uses.
#include <initializer_list>
#include <string>

#include "viewer/model/compare_forces.hpp"

namespace gvflab::viewer {

// A wrapped tooltip with text for the item just drawn, while it is hovered.
void itemTooltip(const std::string& text);

// The width the labels right of the widgets need (the widest, in the current font, plus the
// inner spacing): pass -labelColumn({...}) to ImGui::PushItemWidth so no label is clipped.
float labelColumn(std::initializer_list<const char*> labels);
// The room a "(?)" help marker takes on the same line.
float helpMarkerWidth();
// ImGui::SameLine() when a button (or a checkbox) labelled `label` still fits on the line, else
// nothing (it goes on the next line instead of being clipped by a narrow panel).
void sameLineIfFits(const char* label, bool checkbox = false);
// On the line of a Compare button: "with" and a box per force, at most CompareForces::kMax on.
void compareForceBoxes(CompareForces& forces);

}  // namespace gvflab::viewer
