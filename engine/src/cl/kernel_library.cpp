#include "gvflab/kernel_library.hpp"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <sstream>
#include <string_view>

#include "gvflab/device.hpp"
#include "gvflab/error.hpp"
#include "gvflab/io.hpp"
#include "gvflab/log.hpp"
#include "gvflab/quoted.hpp"

namespace gvflab {
namespace embedded {
const std::vector<std::pair<std::string_view, std::string_view>>& kernelSources();
}

KernelLibrary::KernelLibrary(cl::Context context, cl::Device device,
                             std::optional<std::filesystem::path> kernelDir)
    : context_(std::move(context)), device_(std::move(device)), dir_(std::move(kernelDir)) {
  if (dir_ && !std::filesystem::is_directory(*dir_))
    throw InputError("The kernel directory " + quoted(*dir_) + " does not exist.");
}

std::vector<std::string> KernelLibrary::fileNames() const {
  std::vector<std::string> names;
  for (const auto& [name, text] : embedded::kernelSources()) names.emplace_back(name);
  return names;
}

std::string KernelLibrary::source(const std::string& file) const {
  if (dir_) {
    std::ifstream in(*dir_ / file, std::ios::binary);
    if (!in) throw InputError("Cannot read kernel file " + quoted(*dir_ / file) + ".");
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
  }
  for (const auto& [name, text] : embedded::kernelSources())
    if (name == file) return std::string(text);
  throw InputError("There is no kernel file named '" + file + "'.");
}

std::string KernelLibrary::expanded(const std::string& file, int depth) const {
  if (depth > 8) throw InputError("Kernel includes nest too deeply at '" + file + "'.");
  std::istringstream in(source(file));
  std::string line, out;
  while (std::getline(in, line)) {
    const auto q1 = line.find('"');
    if (line.rfind("#include", 0) == 0 && q1 != std::string::npos) {
      const auto q2 = line.find('"', q1 + 1);
      out += expanded(line.substr(q1 + 1, q2 - q1 - 1), depth + 1);
    } else {
      out += line;
    }
    out += '\n';
  }
  return out;
}

namespace {
// Writes the device binary of a built program (PTX on NVIDIA) for inspection with the
// vendor's tools; named after the file and a hash of the build options.
void dumpBinary(const cl::Program& program, const std::string& dir, const std::string& file,
                const std::string& options) {
  const auto binaries = program.getInfo<CL_PROGRAM_BINARIES>();
  if (binaries.empty()) return;
  const std::string path =
      dir + "/" + file + "." + std::to_string(std::hash<std::string>{}(options)) + ".bin";
  // NVIDIA's PTX ends in NUL bytes, which ptxas refuses ("Unexpected EOF"): a text binary
  // (no NUL before them) is written without them, so the dump assembles as it is.
  const auto& bin = binaries.front();
  std::size_t size = bin.size();
  while (size > 0 && bin[size - 1] == 0) --size;
  if (std::find(bin.begin(), bin.begin() + static_cast<std::ptrdiff_t>(size), 0) !=
      bin.begin() + static_cast<std::ptrdiff_t>(size))
    size = bin.size();
  std::string bytes = "// " + options + "\n";
  bytes.append(reinterpret_cast<const char*>(bin.data()), size);
  try {
    writeFileAtomically(path, bytes);  // a dump is a tool's input: never half written
  } catch (const Error& e) {
    log::warning(std::string("GVFLAB_CL_DUMP_DIR: ") + e.what());
  }
}

KernelLibrary::BuildObserver& buildObserver() {
  static KernelLibrary::BuildObserver observer;
  return observer;
}
}  // namespace

void KernelLibrary::setBuildObserver(BuildObserver observer) {
  buildObserver() = std::move(observer);
}

cl::Program KernelLibrary::build(const std::string& file, const std::string& src,
                                 const std::string& options) const {
  if (buildObserver()) buildObserver()(file);
  cl::Program program(context_, src);
  // Tuning aids, never needed to run: GVFLAB_CL_OPTIONS is appended to every build (e.g.
  // -cl-nv-verbose, or a -D that selects a kernel variant), GVFLAB_CL_BUILD_LOG=1 prints each
  // program's build log (with -cl-nv-verbose: registers per kernel) to stderr and
  // GVFLAB_CL_DUMP_DIR names a folder for the programs' device binaries.
  const char* extra = std::getenv("GVFLAB_CL_OPTIONS");
  const std::string all = "-cl-std=CL1.2 " + options + (extra ? std::string(" ") + extra : "");
  try {
    program.build({device_}, all.c_str());
    if (const char* dir = std::getenv("GVFLAB_CL_DUMP_DIR")) dumpBinary(program, dir, file, all);
    if (const char* env = std::getenv("GVFLAB_CL_BUILD_LOG"); env && *env == '1')
      log::info("[build " + file + " " + options + "]\n" +
                program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device_));
    else if (log::enabled(log::Level::Debug))
      log::debug("built kernels/" + file + " (" + all + ")");
  } catch (const cl::BuildError& e) {
    std::string log;
    for (const auto& [dev, text] : e.getBuildLog()) log += text;
    throw KernelBuildError(file, log.empty() ? "(the compiler gave no log)" : log);
  } catch (const cl::Error& e) {
    std::string log;
    try {
      log = program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device_);
    } catch (const cl::Error&) {
      log = std::string(e.what()) + " " + clErrorName(e.err());
    }
    throw KernelBuildError(file, log);
  }
  return program;
}

cl::Program KernelLibrary::program(const std::string& file, const std::string& options) {
  const auto key = std::make_pair(file, options);
  if (auto it = cache_.find(key); it != cache_.end()) return it->second.program;
  const std::string src = expanded(file);
  return (cache_[key] = {src, build(file, src, options)}).program;
}

cl::Kernel KernelLibrary::kernel(const std::string& file, const std::string& name,
                                 const std::string& options) {
  cl::Program prog = program(file, options);
  try {
    return cl::Kernel(prog, name.c_str());
  } catch (const cl::Error& e) {
    throw KernelBuildError(
        file, "the file has no kernel named '" + name + "' (" + clErrorName(e.err()) + ")");
  }
}

bool KernelLibrary::reload() {
  std::map<std::pair<std::string, std::string>, Entry> fresh;
  bool changed = false;
  for (const auto& [key, entry] : cache_) {
    const std::string src = expanded(key.first);
    const bool same = src == entry.source;  // a build throws before anything is replaced
    fresh[key] = same ? entry : Entry{src, build(key.first, src, key.second)};
    changed = changed || !same;
  }
  cache_ = std::move(fresh);
  return changed;
}

}  // namespace gvflab
