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
std::vector<std::string> volumePhantomNames();

// Throws InputError for an unknown name or a size below 16 or above 512.
Volume makeVolumePhantom(const std::string& name, int size = 64);

}  // namespace gvflab
