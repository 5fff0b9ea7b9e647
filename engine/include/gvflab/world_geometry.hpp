#pragma once
// Where an image's samples sit in the world (scanner or patient space), carried by every image,
// volume and field from the reader that found it to every writer, so outputs overlay inputs.
//
// Convention (ITK's and DICOM's): world coordinates are LPS millimetres (x to the patient's
// left, y posterior, z superior). Readers of RAS formats (NIfTI) convert on the way in and
// writers convert back, so a round trip keeps the file's own numbers.
// Samples stay in the file's storage order (never reoriented): array axis i (x fastest, then
// y, then z) steps spacing[i] along the unit vector column i of `direction`.
//   world(i, j, k) = origin + direction · diag(spacing) · (i, j, k)
// Images (2D) use the x and y entries; z stays spacing 1, direction (0, 0, 1).
#include <array>

namespace gvflab {

struct WorldGeometry {
  std::array<double, 3> spacing{1.0, 1.0, 1.0};  // > 0, world units per step along x, y, z
  std::array<double, 3> origin{0.0, 0.0, 0.0};   // world position of sample (0, 0, 0)
  // Row-major 3x3; column i is the world direction of array axis i.
  std::array<double, 9> direction{1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0};
  // False for the default (a format without geometry, a phantom, a NumPy array): writers then
  // write unit spacing and identity as today and say nothing of a space.
  bool known = false;
  // The space NIfTI's xform codes name (1 scanner, 2 aligned, 3 Talairach, 4 MNI 152, 5 another
  // template; 0 unused), kept from a NIfTI input so that its outputs name the same space. Every
  // other reader leaves scanner, which is what their worlds are.
  int niftiSformCode = 1;
  int niftiQformCode = 1;

  bool isDefault() const {
    return spacing == std::array<double, 3>{1.0, 1.0, 1.0} &&
           origin == std::array<double, 3>{0.0, 0.0, 0.0} &&
           direction == std::array<double, 9>{1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0};
  }
};

}  // namespace gvflab
