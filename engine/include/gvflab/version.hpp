#pragma once
namespace gvflab {
const char* versionString();
}
