#include "headless/user_gvf_input.hpp"

#include <optional>
#include <string>

#include "cli/flag_table.hpp"
#include "gvflab/error.hpp"
#include "gvflab/quoted.hpp"
#include "io/field_file.hpp"
#include "io/image_loader.hpp"
#include "io/volume_loader.hpp"

namespace gvflab::app {
namespace {

std::string sizeText(int w, int h, int d) {
  return std::to_string(w) + "x" + std::to_string(h) + (d > 1 ? "x" + std::to_string(d) : "");
}

int depthOf(const auto& grid) {
  if constexpr (requires { grid.depth; })
    return grid.depth;
  else
    return 1;
}

}  // namespace

bool hasUserGvfInput(const Options& o) { return o.edgeMap || o.v0File; }

GvfInput buildUserGvfInput(ComputeContext& ctx, const Options& o, const RunInput& in) {
  const std::string edgeName = o.edgeMap ? "--edge-map " + quotedText(*o.edgeMap) : "";
  const std::string v0Name = o.v0File ? "--v0 " + quotedText(*o.v0File) : "";
  const std::string inputSize = sizeText(in.width(), in.height(), in.is3d ? in.volume.depth : 1);
  auto sameSize = [&](const std::string& name, int w, int h, int d) {
    if (w != in.width() || h != in.height() || d != (in.is3d ? in.volume.depth : 1))
      throw InputError(name + " is " + sizeText(w, h, d) + "; the input " +
                       (in.is3d ? "volume" : "image") + " is " + inputSize + ".");
  };
  // Shapes from the headers alone, before a sample of either is read.
  if (o.v0File) {
    const FieldShape s =
        parseNamed<InputError>("--v0", [&] { return userFieldShape(*o.v0File, in.is3d ? 3 : 2); });
    sameSize(v0Name, s.width, s.height, s.depth);
  }
  if (o.edgeMap) {
    if (parseNamed<InputError>("--edge-map", [&] { return isVolumeFile(*o.edgeMap); }) != in.is3d)
      throw InputError(edgeName +
                       (in.is3d ? " is an image; the input is a volume ("
                                : " is a volume; the input is an image (") +
                       inputSize + ").");
    const FieldShape s =
        parseNamed<InputError>("--edge-map", [&] { return inputShape(*o.edgeMap); });
    sameSize(edgeName, s.width, s.height, s.depth);
  }
  // The same steps for an image and a volume (with its field type and readers).
  const auto finish = [&](const auto& input, auto readV0, auto loadEdgeMap) -> GvfInput {
    std::optional<decltype(readV0(std::string()))> v0;
    if (o.v0File) {
      v0 = parseNamed<InputError>("--v0", [&] { return readV0(*o.v0File); });
      sameSize(v0Name, v0->width, v0->height, depthOf(*v0));
    }
    if (!o.edgeMap) {
      GvfInput built = buildGvfInput(ctx, input, o.gvf.sigma, o.gvf.v0Mode, o.gvf.spacing);
      replaceV0(ctx, built, *v0, v0Name);
      return built;
    }
    auto f = parseNamed<InputError>("--edge-map", [&] { return loadEdgeMap(*o.edgeMap); });
    sameSize(edgeName, f.width, f.height, depthOf(f));
    f.geometry.spacing = o.gvf.spacing.value_or(input.geometry.spacing);  // the input's grid
    return gvfInputFrom(ctx, f, v0 ? &*v0 : nullptr, edgeName, v0Name);
  };
  if (in.is3d) return finish(in.volume, readField3D, loadVolume);
  return finish(in.image, readField2D, loadImage);
}

}  // namespace gvflab::app
