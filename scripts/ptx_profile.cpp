// Runs a kernel of NVIDIA's OpenCL, as PTX dumped by GVFLAB_CL_DUMP_DIR, through the CUDA
// driver API, so that Nsight Compute (which does not profile OpenCL) can read its counters:
// the 3D Euler tiles (gvf_euler3d_tiled.cl), the byte floor's stream (stream_floor.cl) and the
// tiles' pattern floor (tile_floor3d.cl).
// Built and run on an NVIDIA host by scripts/gpu-profile.sh; not part of the CMake build.
//   ptx_profile euler3d DUMP SIZE PASSES REPEATS   (SIZE³ volume, PASSES launches ping-ponged)
//   ptx_profile tilefloor DUMP SIZE PASSES REPEATS (the same, for tile_floor3d.cl)
//   ptx_profile floor DUMP POINTS REPEATS          (three float32 fields of 3 x POINTS values)
// Prints the registers and local memory the driver gave the kernel and its best time.
#include <cuda.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace {

void check(CUresult r, const char* what) {
  if (r == CUDA_SUCCESS) return;
  const char* s = nullptr;
  cuGetErrorString(r, &s);
  std::fprintf(stderr, "ptx_profile: %s failed: %s\n", what, s ? s : "unknown error");
  std::exit(1);
}

// A -DNAME=value of the build options the dump's first line holds.
int option(const std::string& line, const std::string& name, int fallback) {
  std::smatch m;
  if (std::regex_search(line, m, std::regex("-D" + name + "=([0-9]+)"))) return std::stoi(m[1]);
  return fallback;
}

// OpenCL reads its launch environment from %envreg registers that a CUDA launch never sets:
// 0-2 the group offsets and 3-5 the global offsets (zero here), 6-8 the group counts.
std::string withoutEnvRegs(const std::string& ptx) {
  std::string out;
  const std::regex reg("%envreg([0-9]+)\\b");
  std::size_t last = 0;
  for (auto it = std::sregex_iterator(ptx.begin(), ptx.end(), reg); it != std::sregex_iterator();
       ++it) {
    const int k = std::stoi((*it)[1]);
    if (k > 8) {
      std::fprintf(stderr, "ptx_profile: %%envreg%d has no CUDA equivalent here\n", k);
      std::exit(1);
    }
    out += ptx.substr(last, it->position() - last);
    out += k <= 5 ? std::string("0") : std::string("%nctaid.") + "xyz"[k - 6];
    last = it->position() + it->length();
  }
  return out + ptx.substr(last);
}

struct Timer {
  CUevent begin = nullptr, end = nullptr;
  Timer() {
    check(cuEventCreate(&begin, 0), "cuEventCreate");
    check(cuEventCreate(&end, 0), "cuEventCreate");
  }
  template <class Launches>
  double bestMs(int repeats, Launches launches) {
    double best = 1e300;
    for (int r = 0; r <= repeats; ++r) {  // the first run warms up
      check(cuEventRecord(begin, nullptr), "cuEventRecord");
      launches();
      check(cuEventRecord(end, nullptr), "cuEventRecord");
      check(cuEventSynchronize(end), "cuEventSynchronize");
      float ms = 0;
      check(cuEventElapsedTime(&ms, begin, end), "cuEventElapsedTime");
      if (r > 0 || repeats == 0) best = std::min(best, double(ms));
    }
    return best;
  }
};

CUdeviceptr deviceCopy(const std::vector<unsigned char>& host) {
  CUdeviceptr p = 0;
  check(cuMemAlloc(&p, host.size()), "cuMemAlloc");
  check(cuMemcpyHtoD(p, host.data(), host.size()), "cuMemcpyHtoD");
  return p;
}

// Small random values: float32, or 16-bit storage (normal halves; any snorm16 is valid).
std::vector<unsigned char> randomField(std::size_t values, bool half) {
  std::vector<unsigned char> host(values * (half ? 2 : 4));
  std::uint32_t s = 12345;
  for (std::size_t i = 0; i < values; ++i) {
    s = s * 1664525u + 1013904223u;
    if (half) {
      const auto h =
          static_cast<std::uint16_t>(((s >> 16) & 0x83ffu) | (0x2800u + ((s >> 8) & 0x0c00u)));
      std::memcpy(&host[i * 2], &h, 2);
    } else {
      const float v = ((s >> 8) * (1.0f / 16777216.0f) - 0.5f) * 0.2f;
      std::memcpy(&host[i * 4], &v, 4);
    }
  }
  return host;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  const bool tiled = mode == "euler3d" || mode == "tilefloor";
  if (!((tiled && argc == 6) || (mode == "floor" && argc == 5))) {
    std::fprintf(stderr,
                 "usage: ptx_profile euler3d|tilefloor DUMP SIZE PASSES REPEATS | floor DUMP "
                 "POINTS REPEATS\n");
    return 2;
  }
  std::ifstream file(argv[2], std::ios::binary);
  if (!file) {
    std::fprintf(stderr, "ptx_profile: cannot read %s\n", argv[2]);
    return 1;
  }
  std::stringstream text;
  text << file.rdbuf();
  const std::string ptx = withoutEnvRegs(text.str());
  const std::string options = ptx.substr(0, ptx.find('\n'));  // "// <build options>"
  std::smatch entry;
  if (!std::regex_search(ptx, entry, std::regex("\\.entry\\s+([A-Za-z0-9_]+)"))) {
    std::fprintf(stderr, "ptx_profile: no kernel in %s\n", argv[2]);
    return 1;
  }
  check(cuInit(0), "cuInit");
  CUdevice device = 0;
  check(cuDeviceGet(&device, 0), "cuDeviceGet");
  CUcontext context = nullptr;
  check(cuDevicePrimaryCtxRetain(&context, device), "cuDevicePrimaryCtxRetain");
  check(cuCtxSetCurrent(context), "cuCtxSetCurrent");
  CUmodule module = nullptr;
  check(cuModuleLoadData(&module, ptx.c_str()), "cuModuleLoadData");
  CUfunction kernel = nullptr;
  check(cuModuleGetFunction(&kernel, module, entry[1].str().c_str()), "cuModuleGetFunction");
  int registers = 0, shared = 0;
  cuFuncGetAttribute(&registers, CU_FUNC_ATTRIBUTE_NUM_REGS, kernel);
  cuFuncGetAttribute(&shared, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, kernel);
  std::printf("%s %s: %d registers, %d B local\n", entry[1].str().c_str(), options.c_str(),
              registers, shared);
  Timer timer;
  if (tiled) {
    const int size = std::atoi(argv[3]), passes = std::atoi(argv[4]);
    const int tx = option(options, "TX", 0), ty = option(options, "TY", 0);
    const int rows = option(options, "ROWS", 1), zChunk = option(options, "ZCHUNK", size);
    const bool half = options.find("STORAGE_F16") != std::string::npos ||
                      options.find("STORAGE_SNORM16") != std::string::npos ||
                      options.find("-DT=ushort") != std::string::npos;
    // Pairs of columns (gvf_euler3d_tiled_h2c.cl): a lane holds two columns, the frame one lane.
    const int columns = options.find("PAIR_COLUMNS") != std::string::npos ? 2 * tx - 4 : tx - 4;
    if (columns <= 0 || ty <= 4 || size < 3 || passes < 1) {
      std::fprintf(stderr, "ptx_profile: not a 3D tile's dump, or a size below 3\n");
      return 1;
    }
    const auto host = randomField(3ull * size * size * size, half);
    CUdeviceptr v[2] = {deviceCopy(host), deviceCopy(host)}, v0 = deviceCopy(host);
    const unsigned gx = (size + columns - 1) / columns, gy = (size + ty - 5) / (ty - 4),
                   gz = (size + zChunk - 1) / zChunk;
    int w = size, h = size, d = size;
    // The last argument: the Euler tiles' mu, or tile_floor3d's keep_loads (0).
    float mu = 0.2f;
    int keepLoads = 0;
    void* last = mode == "euler3d" ? static_cast<void*>(&mu) : static_cast<void*>(&keepLoads);
    const double ms = timer.bestMs(std::atoi(argv[5]), [&] {
      for (int p = 0; p < passes; ++p) {
        CUdeviceptr in = v[p & 1], out = v[1 - (p & 1)];
        void* args[] = {&in, &v0, &out, &w, &h, &d, last};
        check(cuLaunchKernel(kernel, gx, gy, gz, tx, ty / rows, 1, 0, nullptr, args, nullptr),
              "cuLaunchKernel");
      }
    });
    std::printf("%s %d³, %u x %u x %u groups of %d x %d: %.3f ms for %d passes\n", mode.c_str(),
                size, gx, gy, gz, tx, ty / rows, ms, passes);
  } else {
    const std::size_t points = std::strtoull(argv[3], nullptr, 10);
    std::smatch lane;
    std::regex_search(options, lane, std::regex("-DT=([a-z]+)([0-9]?)"));
    const std::size_t width = lane[2].str().empty() ? 1 : std::stoul(lane[2]);
    const std::size_t laneBytes = (lane[1] == "ushort" ? 2 : 4) * width;
    const std::size_t bytes = points * 12, lanes = bytes / laneBytes;
    const int ilp = option(options, "ILP", 1);
    std::vector<unsigned char> zeros(bytes);
    CUdeviceptr f[3] = {deviceCopy(zeros), deviceCopy(zeros), deviceCopy(zeros)};
    unsigned long long n = lanes;
    int round = 0;
    const auto groups = static_cast<unsigned>((lanes / ilp + 255) / 256);
    const double ms = timer.bestMs(std::atoi(argv[4]), [&] {
      void* args[] = {&f[round & 1], &f[2], &f[(round + 1) & 1], &n};
      ++round;
      check(cuLaunchKernel(kernel, groups, 1, 1, 256, 1, 1, 0, nullptr, args, nullptr),
            "cuLaunchKernel");
    });
    std::printf("floor: %.4f ms a pass, %.0f GB/s\n", ms, 3.0 * double(bytes) / (ms * 1e6));
  }
  return 0;
}
