#include "headless/user_gvf_input.hpp"

#include "cli/flag_table.hpp"
#include "gvflab/error.hpp"
#include "gvflab/quoted.hpp"
#include "io/field_file.hpp"
#include "io/image_loader.hpp"
#include "io/input_shape.hpp"
#include "io/volume_loader.hpp"

namespace gvflab::app {
namespace {

std::string sizeText(int w, int h, int d) {
  return std::to_string(w) + "x" + std::to_string(h) + (d > 1 ? "x" + std::to_string(d) : "");
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
  if (in.is3d) {
    std::optional<Field3D> v0;
    if (o.v0File) {
      v0 = parseNamed<InputError>("--v0", [&] { return readField3D(*o.v0File); });
      sameSize(v0Name, v0->width, v0->height, v0->depth);
    }
    if (!o.edgeMap) {
      GvfInput built = buildGvfInput(ctx, in.volume, o.gvf.sigma, o.gvf.v0Mode, o.gvf.spacing);
      replaceV0(ctx, built, *v0, v0Name);
      return built;
    }
    Volume f = parseNamed<InputError>("--edge-map", [&] { return loadVolume(*o.edgeMap); });
    sameSize(edgeName, f.width, f.height, f.depth);
    f.geometry.spacing = o.gvf.spacing.value_or(in.volume.geometry.spacing);  // the input's grid
    return gvfInputFrom(ctx, f, v0 ? &*v0 : nullptr, edgeName, v0Name);
  }
  std::optional<Field2D> v0;
  if (o.v0File) {
    v0 = parseNamed<InputError>("--v0", [&] { return readField2D(*o.v0File); });
    sameSize(v0Name, v0->width, v0->height, 1);
  }
  if (!o.edgeMap) {
    GvfInput built = buildGvfInput(ctx, in.image, o.gvf.sigma, o.gvf.v0Mode, o.gvf.spacing);
    replaceV0(ctx, built, *v0, v0Name);
    return built;
  }
  Image2D f = parseNamed<InputError>("--edge-map", [&] { return loadImage(*o.edgeMap); });
  sameSize(edgeName, f.width, f.height, 1);
  f.geometry.spacing = o.gvf.spacing.value_or(in.image.geometry.spacing);  // the input's grid
  return gvfInputFrom(ctx, f, v0 ? &*v0 : nullptr, edgeName, v0Name);
}

}  // namespace gvflab::app
