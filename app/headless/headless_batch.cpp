#include "headless/headless_batch.hpp"

#include <glob.h>
#include <limits.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <sstream>

#include "cli/flag_table.hpp"
#include "gvflab/cancel.hpp"
#include "gvflab/device.hpp"
#include "gvflab/error.hpp"
#include "gvflab/input_file.hpp"
#include "gvflab/log.hpp"
#include "gvflab/quoted.hpp"
#include "headless/headless.hpp"
#include "headless/run_progress.hpp"
#include "headless/stop_signals.hpp"
#include "io/input_gate.hpp"

namespace gvflab::app {
namespace {

namespace fs = std::filesystem;

bool isGlob(const std::string& s) { return s.find_first_of("*?[") != std::string::npos; }

void addGlob(const std::string& pattern, std::vector<std::string>& out) {
  glob_t g{};
  const int rc = ::glob(pattern.c_str(), 0, nullptr, &g);
  if (rc == 0)
    for (std::size_t i = 0; i < g.gl_pathc; ++i) out.emplace_back(g.gl_pathv[i]);
  globfree(&g);
  if (rc == GLOB_NOMATCH)
    throw ParameterError("--batch: " + quotedText(pattern) + " matches no file.");
  if (rc != 0) throw ParameterError("--batch: " + quotedText(pattern) + " cannot be listed.");
}

// A list is read through the input gate: a regular file (a FIFO or device is refused, not
// waited on), at most kMaxListBytes, lines of at most PATH_MAX bytes without NUL bytes, at most
// kMaxListEntries names; a refusal names the list and the line, never echoes a line whole.
constexpr std::uint64_t kMaxListBytes = 16u << 20;
constexpr std::size_t kMaxListEntries = 100000;

void addList(const std::string& listPath, std::vector<std::string>& out) {
  const std::string list = "--batch: the list " + quotedText(listPath);
  std::string text;
  try {
    text = InputFile(listPath).readAll(kMaxListBytes, "list");
  } catch (const InputError& e) {
    throw ParameterError(list + " cannot be read: " + e.what());
  }
  const fs::path folder = fs::path(listPath).parent_path();
  const std::size_t before = out.size();
  std::istringstream in(text);
  std::string line;
  for (std::size_t number = 1; std::getline(in, line); ++number) {
    const std::string where = list + ", line " + std::to_string(number);
    if (line.size() >= PATH_MAX)
      throw ParameterError(where + ", is " + std::to_string(line.size()) +
                           " bytes long; a file name has at most " + std::to_string(PATH_MAX - 1) +
                           ".");
    if (line.find('\0') != std::string::npos)
      throw ParameterError(where + ", holds a NUL byte, which no file name has.");
    const auto first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '#') continue;
    line = line.substr(first, line.find_last_not_of(" \t\r") + 1 - first);
    if (out.size() - before == kMaxListEntries)
      throw ParameterError(list + " names more than " + std::to_string(kMaxListEntries) +
                           " files.");
    out.push_back(fs::path(line).is_absolute() ? line : (folder / line).string());
  }
  if (out.size() == before) throw ParameterError(list + " names no file.");
}

// Captures what a run prints on stdout into `into` (when it ends, also by an exception), to
// print it prefixed by its input.
class CapturedStdout {
 public:
  explicit CapturedStdout(std::string& into)
      : into_(into), saved_(std::cout.rdbuf(text_.rdbuf())) {}
  ~CapturedStdout() {
    std::cout.rdbuf(saved_);
    into_ = text_.str();
  }
  CapturedStdout(const CapturedStdout&) = delete;
  CapturedStdout& operator=(const CapturedStdout&) = delete;

 private:
  std::string& into_;
  std::ostringstream text_;
  std::streambuf* saved_;
};

void printPrefixed(const std::string& prefix, const std::string& text) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) std::cout << prefix << line << "\n";
}

struct Failure {
  std::string input, reason;
};

std::string summaryText(std::size_t done, std::size_t total, const std::vector<Failure>& failures,
                        const std::string& interruptedAt) {
  std::ostringstream out;
  out << "batch: " << done << " of " << total << " inputs done";
  if (!interruptedAt.empty()) out << ", interrupted at " << interruptedAt;
  if (!failures.empty()) out << ", " << failures.size() << " failed:";
  out << "\n";
  for (const Failure& f : failures) out << "  " << f.input << ": " << f.reason << "\n";
  return out.str();
}

// Before anything runs: DIR is a folder, no two inputs write one file, no output is an input.
void checkBatch(const Options& o, const std::vector<std::string>& inputs) {
  std::error_code ec;
  if (!fs::is_directory(*o.outputDir, ec))
    throw ParameterError("--output-dir " + quotedText(*o.outputDir) + " is not a folder.");
  // Links resolved; a path that cannot be resolved is left to the run's own checks.
  const auto resolved = [](const std::string& p) {
    std::error_code e;
    return fs::weakly_canonical(p, e);
  };
  // Every file the batch reads (inputs and what they pull in, the lists, the session, the edge
  // map and V0) -> how messages name it.
  std::map<fs::path, std::string> inputPaths;
  const auto reads = [&](const std::string& what, const std::string& path) {
    for (const ReadFile& f : filesReadFor(what, path))
      if (const fs::path p = resolved(f.path.string()); !p.empty())
        inputPaths.emplace(p, f.what == what ? what : f.what + " " + quotedText(f.path.string()));
  };
  for (const auto& in : inputs) reads("the input " + quotedText(in), in);
  for (const auto& spec : o.batch)
    if (spec.size() > 1 && spec[0] == '@')
      reads("the list " + quotedText(spec.substr(1)), spec.substr(1));
  if (o.session) reads("--session " + quotedText(*o.session), *o.session);
  if (o.edgeMap) reads("--edge-map " + quotedText(*o.edgeMap), *o.edgeMap);
  if (o.v0File) reads("--v0 " + quotedText(*o.v0File), *o.v0File);
  std::map<fs::path, std::string> writer;  // resolved output -> the input writing it
  for (const auto& in : inputs) {
    Options one = batchRunOptions(o, in);
    for (const Flag& f : flagTable()) {
      if (!f.output || !f.output(one)) continue;
      const fs::path out = resolved(*f.output(one));
      if (out.empty()) continue;
      if (const auto it = inputPaths.find(out); it != inputPaths.end())
        throw ParameterError("--batch: " + f.name + " of " + quotedText(in) + " would write " +
                             quotedText(*f.output(one)) + ", which is " + it->second +
                             ": an output never replaces what the run reads.");
      const auto [it, fresh] = writer.emplace(out, in);
      if (!fresh && it->second != in)
        throw ParameterError("--batch: " + quotedText(it->second) + " and " + quotedText(in) +
                             " would both write " + quotedText(*f.output(one)) +
                             " (the same name " + quotedText(inputStem(in)) +
                             "); rename one or run them apart.");
    }
  }
}

}  // namespace

std::vector<std::string> batchInputs(const std::vector<std::string>& specs) {
  std::vector<std::string> out;
  for (const auto& s : specs) {
    if (s.size() > 1 && s[0] == '@')
      addList(s.substr(1), out);
    else if (isGlob(s))
      addGlob(s, out);
    else
      out.push_back(s);
  }
  return out;
}

std::string inputStem(const std::string& path) {
  fs::path p(path);
  while (!p.has_filename() && p.has_parent_path() && p != p.parent_path()) p = p.parent_path();
  std::string name = p.filename().string();
  for (const std::string_view two : {".nii.gz", ".tar.gz"})  // two extensions, one format
    if (name.size() > two.size() && name.ends_with(two))
      return name.substr(0, name.size() - two.size());
  const std::string stem = fs::path(name).stem().string();
  return stem.empty() ? name : stem;
}

Options batchRunOptions(const Options& o, const std::string& input) {
  Options one = o;
  one.batch.clear();
  one.outputDir.reset();
  one.image = input;
  const std::string stem = inputStem(input);
  for (const Flag& f : flagTable()) {
    if (!f.output) continue;
    std::optional<std::string>& path = f.output(one);
    if (!path) continue;
    if (path->find('/') != std::string::npos)
      throw ParameterError("With --batch, " + f.name + " names a file in --output-dir (" +
                           "{stem} is the input's name), not a path: " + quotedText(*path) + ".");
    std::string name = *path;
    if (name.find("{stem}") == std::string::npos) name = "{stem}-" + name;
    for (auto at = name.find("{stem}"); at != std::string::npos; at = name.find("{stem}", at))
      name.replace(at, 6, stem), at += stem.size();
    path = (fs::path(*o.outputDir) / name).string();
  }
  return one;
}

int runHeadlessBatch(const Options& o) {
  const std::vector<std::string> inputs = batchInputs(o.batch);
  checkBatch(o, inputs);
  // One context for the batch: the device is opened and its kernels built once.
  std::shared_ptr<ComputeContext> ctx = ComputeContext::create(contextOptions(o));
  log::debug("batch: " + std::to_string(inputs.size()) + " inputs on " + ctx->info().name);
  const bool progress = !o.quiet, terminal = isatty(STDERR_FILENO) != 0;
  const std::size_t total = inputs.size();
  std::size_t done = 0;
  std::vector<Failure> failures;
  for (std::size_t i = 0; i < total; ++i) {
    const std::string& input = inputs[i];
    const std::string label =
        "[" + std::to_string(i + 1) + "/" + std::to_string(total) + "] " + input;
    setStopStage("preparing the run");
    setStopNote(" for " + quotedText(input) + " (input " + std::to_string(i + 1) + " of " +
                std::to_string(total) + "; the outputs of the " + std::to_string(done) +
                " done before it are kept)");
    // A signal that ends the process at once still prints the summary the README promises.
    setStopSummary(summaryText(done, total, failures, input));
    if (progress && terminal) std::fprintf(stderr, "\r\033[K%s", label.c_str());
    RunProgress::setLabel(label + ": ");
    std::string reason, printed;
    try {
      CapturedStdout capture(printed);
      log::debug("batch: " + label);
      runHeadless(batchRunOptions(o, input), {}, ctx);
    } catch (const Interrupted&) {
      setStopSummary("");
      if (progress && terminal) std::fprintf(stderr, "\r\033[K");
      printPrefixed(input + ": ", printed);
      std::cout << summaryText(done, total, failures, input) << std::flush;
      throw;
    } catch (const Error& e) {
      reason = e.what();
    } catch (const std::bad_alloc&) {
      reason = "out of memory.";
    } catch (const std::exception& e) {
      reason = std::string("unexpected error: ") + e.what();
    }
    if (progress && terminal) std::fprintf(stderr, "\r\033[K");
    printPrefixed(input + ": ", printed);
    std::cout.flush();
    if (reason.empty()) {
      ++done;
    } else {
      failures.push_back({input, reason});
      log::error(reason);
    }
    if (progress && !terminal)
      std::fprintf(stderr, "%s: %s\n", label.c_str(), reason.empty() ? "done" : "failed");
  }
  RunProgress::setLabel("");
  setStopNote("");
  setStopSummary("");
  if (progress && terminal) std::fprintf(stderr, "\r\033[K");
  std::cout << summaryText(done, total, failures, "") << std::flush;
  return failures.empty() ? 0 : 1;
}

}  // namespace gvflab::app
