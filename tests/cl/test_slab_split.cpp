// One volume over several devices (issue 41): z-slabs with halos exchanged every k iterations
// give the one-device field and the double reference's, on two PoCL sub-devices (or, where the
// device cannot be partitioned, two contexts of the one device), so CI tests it without GPUs;
// with the devices in one context (halos copied device to device), bit for bit the same.
#include <doctest/doctest.h>

#include "gvflab/device.hpp"
#include "gvflab/error.hpp"
#include "gvflab/gvf_pipeline.hpp"
#include "gvflab/multigrid_reference.hpp"
#include "gvflab/reference.hpp"
#include "gvflab/slab_split.hpp"
#include "test_skip.hpp"
#include "test_support.hpp"
#include "volume_support.hpp"

using namespace gvflab;

namespace {

// oneContext: the two in one context, where the split copies halos device to device.
std::vector<std::shared_ptr<ComputeContext>> twoDevices(bool oneContext = false) {
  auto open = [](bool one) {
    try {
      auto parts = openSubDevices({}, 2, one);
      MESSAGE("split over two sub-devices of " << parts.front()->info().name);
      return parts;
    } catch (const DeviceError& e) {
      MESSAGE("no sub-devices (" << e.what() << "): the one device in two queues");
      const auto first = ComputeContext::create({});
      return std::vector{first, one ? ComputeContext::createOn(first->device(), first->info(), {},
                                                               &first->context())
                                    : ComputeContext::create({})};
    }
  };
  static const auto apart = open(false), together = open(true);
  return oneContext ? together : apart;
}

// The split `S` of `in` (made on devices[0]) over `devices`.
template <class S, class... Rest>
S splitOf(const std::vector<std::shared_ptr<ComputeContext>>& devices, const GvfInput& in,
          Rest&&... rest) {
  return S(devices, {in.width, in.height, in.depth}, planesOf(devices.front(), in),
           std::forward<Rest>(rest)...);
}

double tolerance(Precision p) {  // as test_euler_variants: absolute, after tens of steps
  return p == Precision::F16 ? 4e-3 : p == Precision::SNorm16 ? 6e-4 : 5e-5;
}

}  // namespace

TEST_CASE("slabs own every plane once and hold k planes beyond each inner cut") {
  const auto plan = planSlabs(19, 3, 2);
  REQUIRE(plan.size() == 3);
  CHECK(plan[0].z0 == 0);
  CHECK(plan[2].z1 == 19);
  for (std::size_t i = 0; i < plan.size(); ++i) {
    if (i) CHECK(plan[i].z0 == plan[i - 1].z1);
    CHECK(plan[i].lo == (i ? plan[i].z0 - 2 : 0));
    CHECK(plan[i].hi == (i + 1 < plan.size() ? plan[i].z1 + 2 : 19));
  }
  CHECK(planSlabs(5, 1, 4).front().depth() == 5);
  CHECK_THROWS_WITH_AS(planSlabs(7, 4, 2), doctest::Contains("fewer planes than the halo"),
                       ParameterError);
  CHECK_THROWS_AS(planSlabs(7, 0, 2), ParameterError);
}

TEST_CASE("Euler split over two devices equals one device and the double reference") {
  const auto devices = twoDevices(), together = twoDevices(true);
  const Volume vols[] = {test::randomVolumeOf(21, 14, 19, 41), test::ballVolumeOf(18, 16, 23)};
  const double mu = 0.1;
  const int iterations = 23;  // not a multiple of any halo below: a short last round
  for (const Volume& vol : vols) {
    const GvfInput in = buildGvfInput(*devices.front(), vol, 1.0);
    const GvfInput inTogether = buildGvfInput(*together.front(), vol, 1.0);
    const auto v0 = reference::initialField(test::toGridOf(vol), 1.0, V0Mode::EdgeGradient);
    const auto ref = reference::eulerIterate(v0, v0, mu, iterations);
    for (const Precision p : {Precision::F32, Precision::F16, Precision::SNorm16})
      for (const MemoryKind m : {MemoryKind::Buffer, MemoryKind::Local})
        for (const int halo : {1, 4}) {
          CAPTURE(vol.depth);
          CAPTURE(std::string(precisionName(p)));
          CAPTURE(std::string(memoryName(m)));
          CAPTURE(halo);
          EulerSolver one(devices.front(), in, mu, {.precision = p, .memory = m});
          one.step(iterations);
          auto split = splitOf<SlabEulerSolver>(devices, in, mu,
                                                EulerOptions{.precision = p, .memory = m}, halo);
          split.step(10);
          split.step(iterations - 10);
          CHECK(split.iterations() == iterations);
          CHECK(split.exchanges() == (10 + halo - 1) / halo + (iterations - 10 + halo - 1) / halo);
          const auto a = one.readField3D().data, b = split.readField3D().data;
          CHECK(test::maxAbsDiff(b, std::vector<double>(a.begin(), a.end())) < 1e-6);
          CHECK(test::maxAbsDiff(b, ref.values) < tolerance(p));
          CHECK(split.error() == doctest::Approx(one.error()).epsilon(1e-5));
          split.reset();  // V = V0 again, halos included
          split.step(iterations);
          CHECK(test::maxAbsDiff(split.readField3D().data,
                                 std::vector<double>(a.begin(), a.end())) < 1e-6);
          auto copied = splitOf<SlabEulerSolver>(together, inTogether, mu,
                                                 EulerOptions{.precision = p, .memory = m}, halo);
          copied.step(iterations);
          CHECK(copied.readField3D().data == split.readField3D().data);
        }
  }
}

TEST_CASE("multigrid split over two devices equals one device and the double reference") {
  const auto devices = twoDevices(), together = twoDevices(true);
  // Depth 27: odd, so the last slab ends on the volume's odd boundary; 32 allows 3 split levels.
  const Volume vols[] = {test::randomVolumeOf(20, 18, 32, 43), test::ballVolumeOf(18, 16, 27)};
  const reference::MultigridParams p{.mu = 0.1};  // the solver's default sweeps
  for (const Volume& vol : vols) {
    const GvfInput in = buildGvfInput(*devices.front(), vol, 1.0);
    const GvfInput inTogether = buildGvfInput(*together.front(), vol, 1.0);
    const auto v0 = reference::initialField(test::toGridOf(vol), 1.0, V0Mode::EdgeGradient);
    const auto ref = reference::multigridIterate(v0, v0, p, 3);
    for (const Precision prec : {Precision::F32, Precision::SNorm16})
      for (const int levels : {1, 2, 3}) {
        CAPTURE(vol.depth);
        CAPTURE(std::string(precisionName(prec)));
        CAPTURE(levels);
        const MultigridOptions options{.precision = prec};
        MultigridSolver one(devices.front(), in, p.mu, options);
        one.step(3);
        auto split = splitOf<SlabMultigridSolver>(devices, in, p.mu, options, levels);
        CHECK(split.splitLevels() == levels);
        CHECK(split.halo() == 1 << levels);
        split.step(3);
        CHECK(split.iterations() == 3);
        CHECK(split.exchanges() > 0);
        const auto a = one.readField3D().data, b = split.readField3D().data;
        // The same sweeps reading the same values; one device counts the black points'
        // residuals after a 3D sweep as 0 (float rounding), the split levels compute them.
        const double gap = prec == Precision::F32 ? 1e-6 : 1e-4;  // snorm16: a few steps
        CHECK(test::maxAbsDiff(b, std::vector<double>(a.begin(), a.end())) < gap);
        CHECK(test::maxAbsDiff(b, ref.values) < (prec == Precision::F32 ? 5e-5 : 6e-4));
        CHECK(split.error() == doctest::Approx(one.error()).epsilon(1e-5));
        split.reset();
        split.step(3);
        CHECK(split.readField3D().data == b);
        auto copied = splitOf<SlabMultigridSolver>(together, inTogether, p.mu, options, levels);
        copied.step(3);
        CHECK(copied.readField3D().data == split.readField3D().data);
      }
  }
  // The split levels chosen: down to a level of side <= 64, within the slabs' depth.
  const GvfInput in = buildGvfInput(*devices.front(), test::randomVolumeOf(12, 10, 16, 7), 1.0);
  auto chosen = splitOf<SlabMultigridSolver>(devices, in, 0.1, MultigridOptions{});
  CHECK(chosen.splitLevels() == 1);
  CHECK(chosen.structure() == "z-slabs on 2 devices, halo 2, levels 0-0 of 4 split");
  CHECK_THROWS_WITH_AS(splitOf<SlabMultigridSolver>(devices, in, 0.1, MultigridOptions{}, 4),
                       doctest::Contains("fewer planes than the halo"), ParameterError);
}

TEST_CASE("the split names its slabs and devices, and counts bytes per device") {
  const auto devices = twoDevices();
  const GvfInput in = buildGvfInput(*devices.front(), test::randomVolumeOf(12, 10, 16, 7), 1.0);
  auto split = splitOf<SlabEulerSolver>(devices, in, 0.1, EulerOptions{}, 2);
  CHECK(split.structure() == "z-slabs on 2 devices, halo 2");
  const auto facts = split.facts();
  const SolverFact* fact = findFact(facts, "split");
  REQUIRE(fact);
  const std::string text = std::get<std::string>(fact->value);
  CHECK(text.find("z 0-7 on ") == 0);
  CHECK(std::get<std::string>(findFact(facts, "split_exchange")->value) == "host");
  const GvfInput inTogether =
      buildGvfInput(*twoDevices(true).front(), test::randomVolumeOf(12, 10, 16, 7), 1.0);
  const auto copied =
      splitOf<SlabEulerSolver>(twoDevices(true), inTogether, 0.1, EulerOptions{}, 2).facts();
  CHECK(std::get<std::string>(findFact(copied, "split_exchange")->value) == "copy");
  CHECK(text.find("; z 8-15 on ") != std::string::npos);
  const auto each = split.deviceBytesEach();
  REQUIRE(each.size() == 2);
  // Each slab holds 8 + 2 planes in three float32 fields; ε is summed per slab and the field
  // read to the host slab by slab, so none holds more for them; once field() was asked for,
  // the first also holds it gathered.
  CHECK(each[1] == 3ull * 12 * 10 * 10 * 3 * 4);
  CHECK(each[0] == each[1]);
  CHECK(split.deviceBytes() == each[0] + each[1]);
  split.error();
  split.readField3D();
  CHECK(split.deviceBytesEach() == each);
  split.field();
  CHECK(split.deviceBytesEach()[0] == each[1] + 1ull * 12 * 10 * 16 * 3 * 4);
  // Too large for any device's slab: refused per device, before anything is allocated.
  CHECK_THROWS_AS(checkSlabsFit(devices, {4096, 4096, 4096}, Precision::F32, 4), ResourceError);
  CHECK_NOTHROW(checkSlabsFit(devices, {12, 10, 16}, Precision::F32, 2));
  CHECK_THROWS_AS(splitOf<SlabEulerSolver>(
                      devices, in, 0.1,
                      EulerOptions{.precision = Precision::F32, .memory = MemoryKind::Image}, 2),
                  ParameterError);
}

TEST_CASE("a 16-bit split made slab by slab equals one device and keeps 18 bytes a voxel") {
  // No device holds the whole volume (how a 2048^3 one runs on two H200s): each slab's V0 is
  // made on its device in pieces of its planes, and its solver keeps only 16-bit storage.
  const auto devices = twoDevices();
  const Volume vol = test::randomVolumeOf(20, 18, 26, 47);
  std::vector<cl::Buffer> made;  // the pieces' float32 V0, to see that they are let go
  int thickest = 0;
  const SlabInputSource source = [&](ComputeContext& device, const Slab& slab) {
    thickest = std::max(thickest, slab.depth());
    Volume planes(vol.width, vol.height, slab.depth());
    const std::size_t plane = std::size_t(vol.width) * vol.height;
    std::copy_n(vol.voxels.begin() + std::ptrdiff_t(plane * slab.lo), planes.size(),
                planes.voxels.begin());
    GvfInput in = gvfInputFrom(device, planes);
    made.push_back(in.v0);
    return in;
  };
  const GvfInput whole = gvfInputFrom(*devices.front(), vol);
  const double mu = 0.1;
  for (const Precision p : {Precision::F16, Precision::SNorm16})
    for (const MemoryKind m : {MemoryKind::Buffer, MemoryKind::Local}) {
      CAPTURE(std::string(precisionName(p)));
      CAPTURE(std::string(memoryName(m)));
      made.clear();
      EulerSolver one(devices.front(), whole, mu, {.precision = p, .memory = m});
      one.step(17);
      SlabEulerSolver split(devices, {vol.width, vol.height, vol.depth}, source, mu,
                            {.precision = p, .memory = m}, 3);
      // Pieces of at most one slab field (16 planes x 6 bytes = 3 planes x 32 bytes of input
      // while built), with a plane more either side.
      CHECK(made.size() == 12);
      CHECK(thickest == 5);
      for (const cl::Buffer& v0 : made) CHECK(v0.getInfo<CL_MEM_REFERENCE_COUNT>() == 1);
      const auto each = split.deviceBytesEach();
      for (std::size_t i = 0; i < 2; ++i) {  // 13 owned + 3 halo planes in three 6-byte fields
        const FieldShape slab{vol.width, vol.height, split.slabs()[i].depth()};
        CHECK(slab.depth == 16);
        CHECK(each[i] == 3 * fieldBytes(slab, p));
        CHECK(each[i] == slab.count() * 18);
      }
      split.step(17);
      const auto a = one.readField3D().data;
      // The same 16-bit V0 and the same kernels: the one-device field (1e-6 allows no step of
      // 16-bit rounding).
      CHECK(test::maxAbsDiff(split.readField3D().data, std::vector<double>(a.begin(), a.end())) <
            1e-6);
      CHECK(split.error() == doctest::Approx(one.error()).epsilon(1e-6));
    }
}

namespace {
// The check below needs one 16-bit field of global memory / 28 voxels in one allocation.
bool allocTooSmall(const DeviceInfo& info) {
  return info.globalMemBytes / 28 * 6 > info.maxAllocBytes;
}
const test::SkipWhen smallAlloc{"split-fit-peak", "the device's largest allocation is too small",
                                [] { return allocTooSmall(chooseDevice("")); }};
}  // namespace

TEST_CASE("the split's fit check counts a 16-bit slab's peak, not its float32 input beside it" *
          doctest::test_suite("split-fit-peak")) {
  // A slab of V voxels needs its three 16-bit fields, 18 bytes a voxel (its input comes in
  // pieces of at most one field's bytes), not 34 with a float32 input beside them.
  const auto devices = twoDevices();
  const DeviceInfo& info = devices.front()->info();
  REQUIRE_FALSE(allocTooSmall(info));  // a sub-device as its parent
  const std::uint64_t voxels = info.globalMemBytes / 28;
  const int side = 1024, depth = int(voxels / (side * side));
  const FieldShape slab{side, side, depth};
  CHECK_NOTHROW(checkSlabsFit({devices.front()}, slab, Precision::F16, 1));
  CHECK_THROWS_AS(checkSlabsFit({devices.front()}, slab, Precision::F32, 1), ResourceError);
}

TEST_CASE(
    "the split's error is each slab's owned planes summed, as one device's and the reference's") {
  // A halo plane counted twice, or a slab's planes left out, moves ε by a plane's share (1/22
  // here), far beyond the tolerance; the residual is large near the cut (the ball's edge).
  const auto devices = twoDevices();
  const Volume vol = test::ballVolumeOf(14, 12, 22);
  const GvfInput in = buildGvfInput(*devices.front(), vol, 1.0);
  const auto v0 = reference::initialField(test::toGridOf(vol), 1.0, V0Mode::EdgeGradient);
  const double mu = 0.1;
  EulerSolver one(devices.front(), in, mu, {});
  auto split = splitOf<SlabEulerSolver>(devices, in, mu, EulerOptions{}, 3);
  auto multigrid = splitOf<SlabMultigridSolver>(devices, in, mu, MultigridOptions{}, 1);
  MultigridSolver oneMultigrid(devices.front(), in, mu, {});
  for (const int steps : {0, 1, 7}) {
    CAPTURE(steps);
    one.step(steps);
    split.step(steps);
    const auto ref = reference::eulerIterate(v0, v0, mu, int(one.iterations()));
    CHECK(split.error() == doctest::Approx(one.error()).epsilon(1e-6));
    CHECK(split.error() == doctest::Approx(reference::gvfError(ref, v0, mu)).epsilon(1e-4));
    multigrid.step(steps ? 1 : 0);  // its halo plane left stale by the last sweep, made fresh
    oneMultigrid.step(steps ? 1 : 0);
    CHECK(multigrid.error() == doctest::Approx(oneMultigrid.error()).epsilon(1e-6));
  }
}

TEST_CASE("a volume split from its planes equals one device's pipeline and no device holds it") {
  // Each device told it has less memory than the whole volume's input needs while built (32
  // bytes a voxel; every input build checks its allocation first): the split builds each
  // slab's f and V0 from the volume's planes on its own device, in pieces, so it still runs.
  // On anisotropic voxels (f built on a grid refined in z, where the whole volume's refined
  // build fits the first device, as on one device) the refined samples' positions round apart.
  const Volume vols[] = {test::ballVolumeOf(16, 14, 40), test::randomVolumeOf(12, 14, 44, 5)};
  for (const Volume& vol : vols)
    for (const SolverKind kind : {SolverKind::Euler, SolverKind::Multigrid})
      for (const V0Mode mode : {V0Mode::EdgeGradient, V0Mode::ImageGradient})
        for (const bool refined : {false, true}) {
          CAPTURE(vol.depth);
          CAPTURE(std::string(solverKindName(kind)));
          CAPTURE(refined);
          std::vector<std::shared_ptr<ComputeContext>> devices = twoDevices();
          if (!refined)
            for (auto& d : devices) {
              DeviceInfo info = d->info();
              info.globalMemBytes = std::uint64_t(vol.size()) * 32 - 1;
              d = ComputeContext::createOn(d->device(), info, d->options());
            }
          GvfParams params;
          params.v0Mode = mode;
          if (refined)
            params.spacing = {1.0, 1.0, 2.5};
          else
            CHECK_THROWS_AS(buildGvfInput(*devices.front(), vol, 1.0), ResourceError);
          SolverConfig config;
          config.kind = kind;
          GvfPipeline one =
              buildGvfPipeline(twoDevices().front(), vol, params, config, MuRule::FitDefault);
          GvfPipeline split = buildSplitPipeline(devices, vol, params, config, MuRule::FitDefault);
          CHECK(split.solver->structure().find("z-slabs on 2 devices") == 0);
          CHECK_FALSE(split.input.v0());
          const double within = refined ? 1e-4 : 1e-6;
          CHECK(split.input.maxV0Squared ==
                doctest::Approx(one.input.maxV0Squared).epsilon(within));
          CHECK(split.mu.mu == doctest::Approx(one.mu.mu).epsilon(within));
          one.solver->step(5);
          split.solver->step(5);
          const auto a = one.solver->readField3D().data;
          CHECK(test::maxAbsDiff(split.solver->readField3D().data,
                                 std::vector<double>(a.begin(), a.end())) < within);
          CHECK(split.solver->error() == doctest::Approx(one.solver->error()).epsilon(within));
        }
}
