#pragma once
// One table per enum that names its values, so a name and its parser cannot drift apart
// (a switch per direction did, and repeated itself across the tree).
#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>

#include "gvflab/error.hpp"
#include "gvflab/quoted.hpp"

namespace gvflab {

template <class E, std::size_t N>
using EnumNames = std::array<std::pair<E, const char*>, N>;

// The value's name; the first entry's name for a value the table does not list.
template <class E, std::size_t N>
constexpr const char* enumName(const EnumNames<E, N>& names, E value) {
  for (const auto& [v, name] : names)
    if (v == value) return name;
  return names.front().second;
}

// "a, b or c": the table's names for a refusal.
template <class E, std::size_t N>
std::string enumChoices(const EnumNames<E, N>& names) {
  std::string list;
  for (std::size_t i = 0; i < N; ++i)
    list += std::string(i == 0 ? "" : i + 1 == N ? " or " : ", ") + names[i].second;
  return list;
}

// The value named `text`; otherwise ParameterError "<what> must be a, b or c, not 'text'.".
template <class E, std::size_t N>
E parseEnum(const EnumNames<E, N>& names, const std::string& text, std::string_view what) {
  for (const auto& [v, name] : names)
    if (text == name) return v;
  throw ParameterError(std::string(what) + " must be " + enumChoices(names) + ", not " +
                       quotedText(text) + ".");
}

}  // namespace gvflab
