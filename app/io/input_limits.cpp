#include "io/input_limits.hpp"

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "gvflab/error.hpp"

namespace gvflab::app {
namespace {

// MemAvailable from /proc/meminfo (what can be had without swapping); free pages elsewhere.
std::uint64_t availableBytes() {
  std::ifstream in("/proc/meminfo");
  std::string key;
  std::uint64_t kib = 0;
  std::string unit;
  while (in >> key >> kib >> unit)
    if (key == "MemAvailable:") return kib * 1024;
  const long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? std::uint64_t(pages) * std::uint64_t(page) : UINT64_MAX;
}

}  // namespace

std::string byteCount(std::uint64_t bytes) {
  if (bytes < 1024) return std::to_string(bytes) + " bytes";
  const char* units[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double v = static_cast<double>(bytes);
  int u = -1;
  while (v >= 1024 && u < 5) v /= 1024, ++u;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f %s", v, units[u]);
  return buf;
}

void checkHostMemory(const std::filesystem::path& path, std::uint64_t bytes) {
  const std::uint64_t available = availableBytes();
  if (bytes > available)
    throw InputError("'" + path.string() + "' is too large for this computer: reading it needs " +
                     byteCount(bytes) + " of memory, " + byteCount(available) +
                     " is available.");
}

}  // namespace gvflab::app
