// gvflab --help, written from the flag table (cli/flag_table.hpp): every flag with its
// argument, range and default, grouped, then the formats read and written.
#include <cmath>
#include <sstream>

#include "cli/flag_table.hpp"
#include "cli/options.hpp"
#include "io/file_formats.hpp"

namespace gvflab::app {
namespace {

constexpr std::size_t kHelpColumn = 24;  // where the flags' help text starts
constexpr std::size_t kWidth = 100;

std::string numberText(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

// "--name, -a ARG": the flag as the user types it.
std::string flagLead(const Flag& f) {
  std::string lead = f.name;
  if (!f.alias.empty()) lead += ", " + f.alias;
  if (!f.arg.empty()) lead += " " + f.arg;
  return lead;
}

// The words of text, wrapped at kWidth, each line after the first indented to kHelpColumn.
void wrapInto(std::ostringstream& out, std::size_t column, const std::string& text) {
  std::istringstream words(text);
  std::string word;
  while (words >> word) {
    if (column > kHelpColumn && column + 1 + word.size() > kWidth) {
      out << "\n" << std::string(kHelpColumn, ' ');
      column = kHelpColumn;
    } else if (column > kHelpColumn) {
      out << ' ';
      ++column;
    }
    out << word;
    column += word.size();
  }
  out << "\n";
}

}  // namespace

std::string flagDefault(const Flag& f) {
  if (f.spec && !f.spec->choices.empty())  // named choices: the default's name
    return gvflab::choiceName(*f.spec);
  if (f.spec) return std::isnan(f.spec->defaultValue) ? "" : numberText(f.spec->defaultValue);
  if (!f.shown) return "";
  static const Options defaults = parseOptions({});
  return f.shown(defaults);
}

std::string flagHelp(const Flag& f) {
  std::string text;
  if (f.spec) text = f.spec->help;
  if (!f.help.empty()) text += (text.empty() ? "" : " ") + f.help;
  const std::string byDefault = flagDefault(f);
  if (f.spec && !f.spec->choices.empty()) {
    text += " (default " + byDefault + "; or its number from " + numberText(f.spec->minValue) + ")";
  } else if (f.spec) {
    text += " [" + numberText(f.spec->minValue) + ", " + numberText(f.spec->maxValue) + "]";
    if (!byDefault.empty()) text += ", default " + byDefault;
  } else if (!byDefault.empty()) {
    text += " (default " + byDefault + ")";
  }
  return text;
}

std::string helpText() {
  std::ostringstream h;
  h << "gvflab - live Gradient Vector Flow and active contours on OpenCL\n\n"
       "Usage:\n"
       "  gvflab [IMAGE | VOLUME] [options]     open the viewer (default: the U phantom)\n"
       "  gvflab --headless (IMAGE | VOLUME | --phantom NAME | --session S.json) [options]\n"
       "  gvflab --list-devices | --help | --version\n\n"
       "Formats read (from the format table, io/file_formats.cpp):\n";
  const auto formats = [&h](const std::string& role, FormatRole r, const std::string& note) {
    const std::string lead = "  " + role;
    h << lead << std::string(kHelpColumn - lead.size(), ' ');
    wrapInto(h, kHelpColumn, formatList(r) + note);
  };
  formats("IMAGE", FormatRole::ImageInput, "");
  formats("VOLUME", FormatRole::VolumeInput, ", or a folder of one DICOM series: GVF runs in 3D");
  for (int g = 0; g <= static_cast<int>(FlagGroup::Region); ++g) {
    h << "\n" << flagGroupTitle(static_cast<FlagGroup>(g)) << ":\n";
    for (const Flag& f : flagTable()) {
      if (static_cast<int>(f.group) != g) continue;
      const std::string lead = "  " + flagLead(f);
      h << lead;
      std::size_t column = lead.size();
      if (column + 2 > kHelpColumn) {
        h << "\n";
        column = 0;
      }
      h << std::string(kHelpColumn - column, ' ');
      wrapInto(h, kHelpColumn, flagHelp(f));
    }
  }
  return h.str();
}

}  // namespace gvflab::app
