#pragma once
// Every flag of the gvflab command line, declared once: its name, argument, group, range and
// default (numbers: a ParamSpec of the engine's or cliParamSpecs()), help, and what it sets.
// parseOptions reads the command line through this table and helpText() prints it, so the
// parser, the ranges, the defaults and --help cannot disagree.
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "cli/options.hpp"
#include "gvflab/error.hpp"
#include "gvflab/params.hpp"

namespace gvflab::app {

// Sections of --help, in the order they are printed.
enum class FlagGroup { Modes, Input, Field, Outputs, Figures, Recording, Viewer, Snakes, Region };
const char* flagGroupTitle(FlagGroup group);

struct Flag;

// What a flag's action sees: the options being built and the command line around the flag.
struct FlagContext {
  Options& options;
  std::vector<std::string>& args;  // --demo splices its flags in after itself
  std::size_t& index;              // args[index] is the flag
  std::size_t demoEnd = 0;         // args before this index came from a --demo
  bool givenImage = false;         // an image on this command line (not a --session's)
  bool givenPhantom = false;       // --phantom on this command line
  const Flag* flag = nullptr;

  // The next argument (index moves onto it): "--FLAG needs a value." when there is none.
  std::string value();
  // value() as a number checked against the flag's spec ("--FLAG needs a number, not ...",
  // "--FLAG: KEY = V is outside its range [A, B].").
  double number();
  bool fromDemo() const { return index < demoEnd; }
};

struct Flag {
  std::string name;   // "--mu"
  std::string alias;  // "-q", or empty
  std::string arg;    // what follows it in --help ("V", "F.png", "[X,Y,W,H]"); empty: a switch
  FlagGroup group = FlagGroup::Modes;
  const ParamSpec* spec = nullptr;  // numbers: range, default and help from the engine's tables
  std::string help;                 // the help text when there is no spec (or after the spec's own)
  // Shows the option's value in o; its value in the default Options is the "default" printed
  // by --help. Empty function: no default to print.
  std::function<std::string(const Options& o)> shown;
  bool once = false;  // a second one is refused (one file per output flag)
  // An output file's option: with --batch its value names each input's file in --output-dir
  // (headless/headless_batch.cpp). Every flag that writes a file per run sets it.
  std::function<std::optional<std::string>&(Options& o)> output;
  std::function<void(FlagContext&)> apply;

  bool takesValue() const { return !arg.empty() && arg.front() != '['; }
};

// The engine's parsers and the readers word their errors for any caller; on the command line
// name the flag (an E, a ParameterError or an InputError, is rethrown prefixed).
template <class E = ParameterError, class F>
auto parseNamed(const std::string& flag, F parse) {
  try {
    return parse();
  } catch (const E& e) {
    throw E(flag + ": " + e.what());
  }
}

// Builders of the table's entries. valued: a flag whose value is handled by apply (text, a file
// name, a choice); number: a number checked against spec (its range, default and help), then
// stored by set; once: a second one is refused; shown: its value for --help's default.
Flag valued(std::string name, std::string arg, FlagGroup group, std::string help,
            std::function<void(FlagContext&)> apply);
Flag number(const ParamSpec& spec, FlagGroup group, std::function<void(Options&, double)> set);
Flag once(Flag f);
Flag shown(Flag f, std::function<std::string(const Options&)> show);

const std::vector<Flag>& flagTable();
// The table's entry for a flag as written ("--mu", "-q"), or nullptr.
const Flag* findFlag(const std::string& given);

// What --help prints for a flag: its default ("" when it has none) and its whole text (help,
// range, default).
std::string flagDefault(const Flag& flag);
std::string flagHelp(const Flag& flag);

}  // namespace gvflab::app
