#pragma once
// Procedural test images: the classic shapes used to show what GVF does.
#include <string>
#include <vector>

#include "gvflab/image.hpp"

namespace gvflab {

// "u": a U with a deep, narrow concavity (Xu & Prince's classic); "room": a closed room with
// one doorway; "blob": a smooth blob in Gaussian noise (seeded, so always the same image).
std::vector<std::string> phantomNames();

// Throws InputError for an unknown name or a size below 16 or above 16384.
Image2D makePhantom(const std::string& name, int size = 256);

}  // namespace gvflab
