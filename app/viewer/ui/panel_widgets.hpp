#pragma once
// Small ImGui pieces every panel uses.
#include <imgui.h>

#include <initializer_list>
#include <string>

#include "io/snake_palette.hpp"
#include "viewer/model/compare_forces.hpp"

namespace gvflab::viewer {

// A window over the view: no decoration, sized to its content, placed by the code.
inline constexpr ImGuiWindowFlags kOverlay =
    ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
    ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
    ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoMove;

inline const ImVec4 kDimColor(0.65f, 0.67f, 0.72f, 1.0f);  // labels of readouts

inline ImVec4 toImVec4(const SnakeRgba& c) { return ImVec4(c[0], c[1], c[2], c[3]); }

// A wrapped tooltip with text for the item just drawn, while it is hovered.
void itemTooltip(const std::string& text);

// A readout's label in kDimColor, then the cursor at x = column on its line, for the value.
void dimLabel(const char* label, float column);
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
// A contour's row's first cells: its number, selecting it (the whole row) when clicked, its
// force and its state (shownStateName) in their colours.
bool idCell(int id, bool selected, SnakeForce force, SnakeState state, bool waiting = false);
// On the line of a Compare button: "with" and a box per force, at most CompareForces::kMax on.
void compareForceBoxes(CompareForces& forces);

}  // namespace gvflab::viewer
