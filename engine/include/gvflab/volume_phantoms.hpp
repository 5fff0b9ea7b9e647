#pragma once
// Procedural test volumes, the 3D counterparts of phantoms.hpp.
#include <string>
#include <vector>

#include "gvflab/image.hpp"

namespace gvflab {

// "cup": a solid cup with a deep narrow well bored from its top (the U of the 2D lesson in 3D:
// a GVF surface started around it enters the well, a traditional one stays over the rim);
// "sphere": a solid ball of radius 0.3 * size at the centre. Values in [0, 1], bright object on
// a dark background, unit spacing.
//
// Both are size^3 and drawn in voxel coordinates (surface_mesh.hpp: voxel (i, j, k) is centred
// on (i + 0.5, j + 0.5, k + 0.5), the volume spans [0, size] on each axis). A voxel's value is
// 1 more than half a voxel inside the solid, 0 more than half a voxel outside, and ramps
// linearly with the distance to the solid's surface between (edges smoothed over one voxel).
//
// The cup, in fractions of size: a cylinder whose axis is the line x = y = size / 2 along z,
// of radius kCupRadius, from z = kCupBottom to z = kCupTop, with a well of radius
// kCupWellRadius on the same axis bored from the top face (the well opens towards high z, the
// last planes) down to z = kCupTop - kCupWellDepth. At 64^3: radius 20.5, z in [11.5, 52.5],
// a well 12.8 voxels wide and 32 deep above a floor 9 voxels thick, walls 14 voxels thick.
// The cup's rim and base corners lie 0.453 size from the volume's centre (29 voxels at 64^3),
// so a sphere about the centre enclosing it has a radius between that and 0.5 size.
inline constexpr double kCupRadius = 0.32;
inline constexpr double kCupBottom = 0.18;
inline constexpr double kCupTop = 0.82;
inline constexpr double kCupWellRadius = 0.10;
inline constexpr double kCupWellDepth = 0.50;
// The ball of "sphere": centre (size / 2, size / 2, size / 2), radius kBallRadius * size.
inline constexpr double kBallRadius = 0.30;

std::vector<std::string> volumePhantomNames();

// Throws InputError for an unknown name or a size below 16 or above 512.
Volume makeVolumePhantom(const std::string& name, int size = 64);

}  // namespace gvflab
