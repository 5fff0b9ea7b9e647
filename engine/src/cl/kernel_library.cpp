#include "gvflab/kernel_library.hpp"

#include <fstream>
#include <sstream>
#include <string_view>

#include "gvflab/device.hpp"
#include "gvflab/error.hpp"

namespace gvflab {
namespace embedded {
const std::vector<std::pair<std::string_view, std::string_view>>& kernelSources();
}

KernelLibrary::KernelLibrary(cl::Context context, cl::Device device,
                             std::optional<std::filesystem::path> kernelDir)
    : context_(std::move(context)), device_(std::move(device)), dir_(std::move(kernelDir)) {
  if (dir_ && !std::filesystem::is_directory(*dir_))
    throw InputError("The kernel directory '" + dir_->string() + "' does not exist.");
}

std::vector<std::string> KernelLibrary::fileNames() const {
  std::vector<std::string> names;
  for (const auto& [name, text] : embedded::kernelSources()) names.emplace_back(name);
  return names;
}

std::string KernelLibrary::source(const std::string& file) const {
  if (dir_) {
    std::ifstream in(*dir_ / file, std::ios::binary);
    if (!in)
      throw InputError("Cannot read kernel file '" + (*dir_ / file).string() + "'.");
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
  }
  for (const auto& [name, text] : embedded::kernelSources())
    if (name == file) return std::string(text);
  throw InputError("There is no kernel file named '" + file + "'.");
}

cl::Program KernelLibrary::build(const std::string& file, const std::string& src) const {
  cl::Program program(context_, src);
  try {
    program.build({device_}, "-cl-std=CL1.2");
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

cl::Program KernelLibrary::program(const std::string& file) {
  auto it = cache_.find(file);
  if (it != cache_.end()) return it->second.second;
  std::string src = source(file);
  cl::Program prog = build(file, src);
  cache_[file] = {src, prog};
  return prog;
}

cl::Kernel KernelLibrary::kernel(const std::string& file, const std::string& name) {
  cl::Program prog = program(file);
  try {
    return cl::Kernel(prog, name.c_str());
  } catch (const cl::Error& e) {
    throw KernelBuildError(file, "the file has no kernel named '" + name + "' (" +
                                     clErrorName(e.err()) + ")");
  }
}

bool KernelLibrary::reload() {
  std::map<std::string, std::pair<std::string, cl::Program>> fresh;
  bool changed = false;
  for (const auto& [file, entry] : cache_) {
    std::string src = source(file);
    if (src == entry.first) {
      fresh[file] = entry;
      continue;
    }
    fresh[file] = {src, build(file, src)};  // throws before anything is replaced
    changed = true;
  }
  cache_ = std::move(fresh);
  return changed;
}

}  // namespace gvflab
