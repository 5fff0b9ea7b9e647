// gvflab-bench CASE [options]: engine benchmarks timed with OpenCL events.
#include <algorithm>
#include <charconv>
#include <iostream>
#include <string>
#include <vector>

#include "bench_common.hpp"
#include "gvflab/error.hpp"

namespace {

const char* kUsage =
    "Usage: gvflab-bench CASE [--size N] [--iterations K] [--repeats R] [--device D] [--json]\n"
    "                    [--launch auto|single|tiled] [--mpix M] [--snr S] [--d-max D]\n"
    "                    [--min-segment L]\n"
    "Cases:\n"
    "  devices   list the OpenCL devices\n"
    "  euler2d   explicit Euler GVF on an N x N image, K iterations; reports ms/iteration,\n"
    "            bytes moved and the fraction of the copy bandwidth measured in the same run\n";

int parseInt(const std::string& flag, const std::string& text, int lo, int hi) {
  int v = 0;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || p != text.data() + text.size() || v < lo || v > hi)
    throw gvflab::ParameterError(flag + " needs a whole number in [" + std::to_string(lo) + ", " +
                                 std::to_string(hi) + "], not '" + text + "'.");
  return v;
}

double parseDouble(const std::string& flag, const std::string& text, double lo, double hi) {
  double v = 0;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || p != text.data() + text.size() || !(v >= lo && v <= hi))
    throw gvflab::ParameterError(flag + " needs a number in [" + std::to_string(lo) + ", " +
                                 std::to_string(hi) + "], not '" + text + "'.");
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    std::cout << kUsage;
    return args.empty() ? 2 : 0;
  }
  try {
    gvflab::bench::BenchArgs b;
    for (std::size_t i = 1; i < args.size(); ++i) {
      auto value = [&]() -> std::string {
        if (i + 1 >= args.size()) throw gvflab::ParameterError(args[i] + " needs a value.");
        return args[++i];
      };
      if (args[i] == "--size") b.size = parseInt("--size", value(), 16, 16384);
      else if (args[i] == "--iterations") b.iterations = parseInt("--iterations", value(), 1, 1 << 24);
      else if (args[i] == "--repeats") b.repeats = parseInt("--repeats", value(), 1, 1000);
      else if (args[i] == "--device") b.device = value();
      else if (args[i] == "--mpix") b.mpix = parseDouble("--mpix", value(), 0.01, 1000);
      else if (args[i] == "--snr") b.snr = parseDouble("--snr", value(), 0, 100);
      else if (args[i] == "--d-max") b.dMax = parseInt("--d-max", value(), 1, 1024);
      else if (args[i] == "--min-segment") b.minSegment = parseDouble("--min-segment", value(), 2, 1e5);
      else if (args[i] == "--json") b.json = true;
      else if (args[i] == "--launch") {
        std::string l = value();
        if (l == "single") b.launch = gvflab::EulerLaunch::Single;
        else if (l == "tiled") b.launch = gvflab::EulerLaunch::Tiled;
        else if (l == "auto") b.launch = gvflab::EulerLaunch::Auto;
        else throw gvflab::ParameterError("--launch must be single, tiled or auto.");
      }
      else throw gvflab::ParameterError("Unknown option '" + args[i] + "'.\n" + kUsage);
    }
    if (args[0] == "devices") {
      for (const auto& d : gvflab::listDevices()) std::cout << d.describe() << "\n";
      return 0;
    }
    if (args[0] == "euler2d") return gvflab::bench::runEuler2d(b, std::cout);
    if (args[0] == "region") {
      if (std::find(args.begin(), args.end(), "--repeats") == args.end()) b.repeats = 3;
      return gvflab::bench::runRegion(b, std::cout);
    }
    std::cerr << "gvflab-bench: unknown case '" << args[0] << "'.\n" << kUsage;
    return 2;
  } catch (const gvflab::Error& e) {
    std::cerr << "gvflab-bench: " << e.what() << "\n";
    return 1;
  } catch (const cl::Error& e) {
    std::cerr << "gvflab-bench: OpenCL error " << e.what() << " (" << e.err() << ")\n";
    return 1;
  }
}
