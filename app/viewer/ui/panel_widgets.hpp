#pragma once
// Small ImGui pieces every panel uses.
#include <imgui.h>

#include <initializer_list>
#include <string>

#include "io/snake_palette.hpp"
#include "viewer/model/compare_forces.hpp"

namespace gvflab::viewer {

inline ImVec4 toImVec4(const SnakeRgba& c) { return ImVec4(c[0], c[1], c[2], c[3]); }

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
// A scrolling table of `rows` rows with its header row frozen on top (at most 6.5 rows high);
// false when it is not shown (then nothing to end).
bool beginListTable(const char* id, std::initializer_list<const char*> columns, std::size_t rows,
                    ImGuiTableFlags extra = 0);
// A row's first cell: its number, selecting the item (the whole row) when clicked.
bool idCell(int id, bool selected);
// On the line of a Compare button: "with" and a box per force, at most CompareForces::kMax on.
void compareForceBoxes(CompareForces& forces);

}  // namespace gvflab::viewer
