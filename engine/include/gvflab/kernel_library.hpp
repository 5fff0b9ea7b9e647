#pragma once
// The OpenCL kernel sources (kernels/*.cl): embedded at build time, or read from a directory
// for live editing. Programs are built once and cached; kernels are created by the caller once.
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "gvflab/cl.hpp"

namespace gvflab {

class KernelLibrary {
 public:
  KernelLibrary(cl::Context context, cl::Device device,
                std::optional<std::filesystem::path> kernelDir);

  // Builds (once per file and options) and returns the program of a kernel file, e.g.
  // "gvf_euler2d.cl". Lines `#include "x.clh"` are replaced by that file's text, so a file
  // compiles on its own with `-I kernels`. options are extra compiler options such as
  // "-DSTORAGE_F16". Throws KernelBuildError with the log, or InputError for a missing file.
  cl::Program program(const std::string& file, const std::string& options = "");
  cl::Kernel kernel(const std::string& file, const std::string& name,
                    const std::string& options = "");

  // Source text of a file (from the directory when one is set, else the embedded copy).
  std::string source(const std::string& file) const;
  std::vector<std::string> fileNames() const;
  const std::optional<std::filesystem::path>& directory() const { return dir_; }

  // Called with the file's name before each program is compiled, on the building thread (one
  // observer for the process; empty: none). With a cold compiler cache a first start compiles
  // for many seconds: the viewer shows which file on its start-up window.
  using BuildObserver = std::function<void(const std::string& file)>;
  static void setBuildObserver(BuildObserver observer);

  // Rebuilds every cached program from the current sources. On a failure the old programs
  // stay in place and the KernelBuildError is rethrown. Returns true when anything changed.
  bool reload();

 private:
  cl::Program build(const std::string& file, const std::string& src,
                    const std::string& options) const;
  std::string expanded(const std::string& file, int depth = 0) const;
  cl::Context context_;
  cl::Device device_;
  std::optional<std::filesystem::path> dir_;
  struct Entry {
    std::string source;  // expanded text the program was built from
    cl::Program program;
  };
  std::map<std::pair<std::string, std::string>, Entry> cache_;  // (file, options) -> entry
};

}  // namespace gvflab
