// memory: device memory of the solver's fields against the side (the first paper's Figs. 6
// and 7), checked against its 24 B/px (2D float32), 12 B/px (2D 16-bit), 36 and 18 B/voxel.
#include <iomanip>

#include "bench_common.hpp"
#include "gvflab/error.hpp"
#include "gvflab/phantoms.hpp"

namespace gvflab::bench {
namespace {

struct Row {
  int dims;
  int side;
};

}  // namespace

int runMemory(const BenchArgs& args, std::ostream& out) {
  auto ctx = ComputeContext::create({args.device, {}, {}});
  // A real solver first: its deviceBytes() is what the rows below add up field by field.
  {
    GvfInput in = buildGvfInput(*ctx, makePhantom("u", 64), 1.0);
    for (Precision p : {Precision::F32, Precision::F16}) {
      SolverConfig config;
      config.precision = p;
      config.memory = MemoryKind::Buffer;
      auto solver = makeEulerSolver(ctx, in, 0.1, config);
      const EulerSolver& s = *solver;
      const double bpp = static_cast<double>(s.deviceBytes()) / in.pixelCount();
      if (bpp != bytesPerPoint(2, p))
        throw Error("solver memory " + std::to_string(bpp) + " B/px disagrees with the model");
    }
  }
  std::vector<Row> rows;
  for (int s = 256; s <= 16384; s *= 2) rows.push_back({2, s});
  for (int s = 64; s <= 1024; s *= 2) rows.push_back({3, s});
  if (!args.json)
    out << "| grid | precision | MiB | B / point | paper | status |\n|---|---|---|---|---|---|\n";
  for (const Row& r : rows)
    for (Precision p : {Precision::F32, Precision::F16, Precision::SNorm16}) {
      const FieldShape shape{r.side, r.side, r.dims == 3 ? r.side : 1};
      const double paper = bytesPerPoint(r.dims, p);
      std::string status = "allocated";
      double mib = 0, bpp = 0;
      try {
        SolverConfig config;
        config.precision = p;
        checkFits(*ctx, shape, config);
        std::uint64_t bytes = 0;
        for (int f = 0; f < 3; ++f) bytes += FieldStorage(*ctx, shape, p, false).bytes();
        mib = static_cast<double>(bytes) / (1 << 20);
        bpp = static_cast<double>(bytes) / static_cast<double>(shape.count());
        if (bpp != paper) status = "differs from the paper";
      } catch (const ResourceError& e) {
        status = std::string("refused: ") + e.what();
      }
      const std::string grid = std::to_string(r.side) + (r.dims == 3 ? "^3" : "^2");
      if (args.json)
        printJsonLine(out, {{"case", "memory"},
                            {"device", ctx->info().name},
                            {"dims", r.dims},
                            {"size", r.side},
                            {"precision", precisionName(p)},
                            {"mib", mib},
                            {"bytes_per_point", bpp},
                            {"paper_bytes_per_point", paper},
                            {"status", status}});
      else
        out << std::fixed << std::setprecision(1) << "| " << grid << " | " << precisionName(p)
            << " | " << mib << " | " << bpp << " | " << paper << " | " << status << " |\n";
    }
  return 0;
}

}  // namespace gvflab::bench
