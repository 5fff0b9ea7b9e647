// Volumes from files: NIfTI-1/-2 through nifti_clib (files the library wrote itself, single and
// paired, gzipped; byte orders; scaling; orientation), 3D MetaImage, the field writers (read
// back by nifti_clib); corrupt and hostile files refused with a sentence naming them.
#include <doctest/doctest.h>
#include <nifti2_io.h>
#include <zlib.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <fstream>
#include <utility>

#include "gvflab/error.hpp"
#include "gvflab/io.hpp"
#include "io/nifti_file.hpp"
#include "io/volume_loader.hpp"
#include "test_support.hpp"

using namespace gvflab;

namespace {

template <typename T>
void put(std::string& b, std::size_t at, T v, bool big) {
  unsigned char x[sizeof(T)];
  std::memcpy(x, &v, sizeof(T));
  if (big) std::reverse(x, x + sizeof(T));
  std::memcpy(&b[at], x, sizeof(T));
}

// int16 voxels v(x, y, z) = x + 10y + 100z - 50, scl_slope 2, scl_inter 1.
std::string niftiBytes(int w, int h, int d, bool big) {
  std::string b(352, '\0');
  put<std::int32_t>(b, 0, 348, big);
  const std::int16_t dim[8] = {3, std::int16_t(w), std::int16_t(h), std::int16_t(d), 1, 1, 1, 1};
  for (int i = 0; i < 8; ++i) put<std::int16_t>(b, 40 + 2 * i, dim[i], big);
  put<std::int16_t>(b, 70, 4, big);
  put<std::int16_t>(b, 72, 16, big);
  put<float>(b, 108, 352.0f, big);
  put<float>(b, 112, 2.0f, big);
  put<float>(b, 116, 1.0f, big);
  std::memcpy(&b[344], "n+1", 4);
  for (int z = 0; z < d; ++z)
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        b.resize(b.size() + 2);
        put<std::int16_t>(b, b.size() - 2, std::int16_t(x + 10 * y + 100 * z - 50), big);
      }
  return b;
}

void checkVolume(const Volume& v, int w, int h, int d) {
  REQUIRE(v.width == w);
  REQUIRE(v.depth == d);
  // Rescaled to [0, 1]: the scaling is linear, so the min and max voxels map to 0 and 1.
  CHECK(v.at(0, 0, 0) == doctest::Approx(0.0));
  CHECK(v.at(w - 1, h - 1, d - 1) == doctest::Approx(1.0));
  const double span = (w - 1) + 10.0 * (h - 1) + 100.0 * (d - 1);
  CHECK(v.at(1, 2, 1) == doctest::Approx((1 + 20 + 100) / span).epsilon(1e-5));
}

// A volume v(x, y, z) = x + 10y + 100z - 50 written by nifti_clib itself, int16 with slope 2
// and intercept 1, in the file type and name given.
void writeWithNiftiLib(const std::filesystem::path& path, int type, int w, int h, int d,
                       double slope = 2, const double (*sform)[4] = nullptr) {
  const std::int64_t dims[8] = {3, w, h, d, 1, 1, 1, 1};
  nifti_image* nim = nifti_make_new_nim(dims, NIFTI_TYPE_INT16, 1);
  REQUIRE(nim);
  auto* v = static_cast<std::int16_t*>(nim->data);
  for (int z = 0, i = 0; z < d; ++z)
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) v[i++] = std::int16_t(x + 10 * y + 100 * z - 50);
  nim->scl_slope = slope;
  nim->scl_inter = 1;
  nim->nifti_type = type;
  if (sform) {
    nim->sform_code = NIFTI_XFORM_SCANNER_ANAT;
    for (int r = 0; r < 4; ++r)
      for (int c = 0; c < 4; ++c) nim->sto_xyz.m[r][c] = sform[r][c];
  }
  REQUIRE(nifti_set_filenames(nim, path.c_str(), 0, 1) == 0);
  nifti_image_write(nim);
  nifti_image_free(nim);
}

}  // namespace

TEST_CASE("NIfTI-1 and -2 volumes written by nifti_clib load: .nii, .gz, .hdr/.img pairs") {
  auto dir = test::scratchDir("nifti_lib");
  const std::pair<const char*, int> files[] = {
      {"v1.nii", NIFTI_FTYPE_NIFTI1_1},   {"v1.nii.gz", NIFTI_FTYPE_NIFTI1_1},
      {"v2.nii", NIFTI_FTYPE_NIFTI2_1},   {"v2.nii.gz", NIFTI_FTYPE_NIFTI2_1},
      {"pair.hdr", NIFTI_FTYPE_NIFTI1_2}, {"pairz.hdr.gz", NIFTI_FTYPE_NIFTI1_2},
      {"pair2.hdr", NIFTI_FTYPE_NIFTI2_2}};
  for (const auto& [name, type] : files) {
    CAPTURE(name);
    writeWithNiftiLib(dir / name, type, 7, 5, 4);
    CHECK(app::isVolumeFile(dir / name));
    checkVolume(app::loadVolume(dir / name), 7, 5, 4);
  }
  // The .img of a pair names the pair too.
  checkVolume(app::loadVolume(dir / "pair.img"), 7, 5, 4);
}

TEST_CASE("NIfTI scaling is honoured; voxels stay in storage order, the affine is kept") {
  auto dir = test::scratchDir("nifti_orient");
  // A negative slope turns the ramp around: the first voxel becomes the brightest.
  writeWithNiftiLib(dir / "neg.nii", NIFTI_FTYPE_NIFTI1_1, 7, 5, 4, -1);
  CHECK(app::loadVolume(dir / "neg.nii").at(0, 0, 0) == doctest::Approx(1.0));
  // Whatever the sform says, the voxels come back as stored (issue 28: a permuted affine used
  // to come back transposed, its affine lost); the sform becomes the geometry, in LPS.
  const double lps[4][4] = {{-1, 0, 0, 0}, {0, -1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}};
  const double ras[4][4] = {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}};
  // Permuted and scaled: world x = -0.5 j, y = -2 k, z = 0.8 i, shifted.
  const double perm[4][4] = {{0, -0.5, 0, 10}, {0, 0, -2, -20}, {0.8, 0, 0, 30}, {0, 0, 0, 1}};
  writeWithNiftiLib(dir / "lps.nii", NIFTI_FTYPE_NIFTI1_1, 7, 5, 4, 2, lps);
  writeWithNiftiLib(dir / "ras.nii", NIFTI_FTYPE_NIFTI1_1, 7, 5, 4, 2, ras);
  writeWithNiftiLib(dir / "perm.nii", NIFTI_FTYPE_NIFTI1_1, 7, 5, 4, 2, perm);
  for (const char* name : {"lps.nii", "ras.nii", "perm.nii"}) {
    CAPTURE(name);
    const Volume v = app::loadVolume(dir / name);
    checkVolume(v, 7, 5, 4);
    CHECK(v.height == 5);
    CHECK(v.geometry.known);
  }
  using D9 = std::array<double, 9>;
  using D3 = std::array<double, 3>;
  CHECK(app::loadVolume(dir / "lps.nii").geometry.direction == D9{1, 0, 0, 0, 1, 0, 0, 0, 1});
  CHECK(app::loadVolume(dir / "ras.nii").geometry.direction == D9{-1, 0, 0, 0, -1, 0, 0, 0, 1});
  const WorldGeometry p = app::loadVolume(dir / "perm.nii").geometry;
  // Column i is axis i's direction: i runs along z, j along +x (LPS), k along +y.
  CHECK(p.direction == D9{0, 1, 0, 0, 0, 1, 1, 0, 0});
  CHECK(p.spacing[0] == doctest::Approx(0.8));
  CHECK(p.spacing[1] == doctest::Approx(0.5));
  CHECK(p.spacing[2] == doctest::Approx(2.0));
  CHECK(p.origin == D3{-10, 20, 30});
  // Neither transform: pixdim is the spacing (method 1); unit voxels say nothing.
  CHECK(!app::loadVolume(dir / "neg.nii").geometry.known);
}

TEST_CASE("NIfTI geometry: sform before qform, qform alone, pixdim alone") {
  auto dir = test::scratchDir("nifti_forms");
  const auto write = [&](const char* name, int sformCode, int qformCode, double dx) {
    const std::int64_t dims[8] = {3, 4, 3, 2, 1, 1, 1, 1};
    nifti_image* nim = nifti_make_new_nim(dims, NIFTI_TYPE_UINT8, 1);
    REQUIRE(nim);
    static_cast<std::uint8_t*>(nim->data)[1] = 9;
    nim->dx = nim->pixdim[1] = dx;
    nim->dy = nim->pixdim[2] = 3;
    nim->dz = nim->pixdim[3] = 4;
    nim->qform_code = qformCode;
    nim->quatern_b = 0, nim->quatern_c = 0, nim->quatern_d = 1;  // 180 degrees about z: LPS
    nim->qoffset_x = 5, nim->qoffset_y = 6, nim->qoffset_z = 7;
    nim->qfac = 1;
    nim->sform_code = sformCode;
    for (int r = 0; r < 4; ++r)
      for (int c = 0; c < 4; ++c) nim->sto_xyz.m[r][c] = r == c ? 1.5 : 0;
    nim->nifti_type = NIFTI_FTYPE_NIFTI1_1;
    REQUIRE(nifti_set_filenames(nim, (dir / name).c_str(), 0, 1) == 0);
    nifti_image_write(nim);
    nifti_image_free(nim);
  };
  write("both.nii", NIFTI_XFORM_ALIGNED_ANAT, NIFTI_XFORM_SCANNER_ANAT, 2);
  write("q.nii", 0, NIFTI_XFORM_SCANNER_ANAT, 2);
  write("pix.nii", 0, 0, 2);
  const WorldGeometry both = app::loadVolume(dir / "both.nii").geometry;
  CHECK(both.spacing == std::array<double, 3>{1.5, 1.5, 1.5});
  CHECK(both.direction == std::array<double, 9>{-1, 0, 0, 0, -1, 0, 0, 0, 1});
  const WorldGeometry q = app::loadVolume(dir / "q.nii").geometry;
  CHECK(q.spacing == std::array<double, 3>{2, 3, 4});
  CHECK(q.direction[0] == doctest::Approx(1));  // RAS rotated 180 degrees about z is LPS
  CHECK(q.direction[4] == doctest::Approx(1));
  CHECK(q.origin[0] == doctest::Approx(-5));
  CHECK(q.origin[1] == doctest::Approx(-6));
  CHECK(q.origin[2] == doctest::Approx(7));
  const WorldGeometry pix = app::loadVolume(dir / "pix.nii").geometry;
  CHECK(pix.known);
  CHECK(pix.spacing == std::array<double, 3>{2, 3, 4});
}

TEST_CASE("NIfTI volumes: either byte order; corrupt files refused with a sentence") {
  auto dir = test::scratchDir("nifti");
  for (bool big : {false, true}) {
    std::ofstream(dir / "v.nii", std::ios::binary) << niftiBytes(7, 5, 4, big);
    checkVolume(app::loadVolume(dir / "v.nii"), 7, 5, 4);
  }
  auto refused = [&](const std::string& name, const std::string& bytes, const char* what) {
    CAPTURE(name);
    std::ofstream(dir / name, std::ios::binary) << bytes;
    CHECK_THROWS_WITH_AS(app::loadVolume(dir / name), doctest::Contains(name.c_str()), InputError);
    CHECK_THROWS_WITH_AS(app::loadVolume(dir / name), doctest::Contains(what), InputError);
  };
  std::string truncated = niftiBytes(7, 5, 4, false);
  truncated.resize(truncated.size() - 10);
  refused("t.nii", truncated, "truncated");
  refused("junk.nii", std::string(400, 'x'), "not a NIfTI-1 or NIfTI-2");
  refused("short.nii", niftiBytes(7, 5, 4, false).substr(0, 200), "not a NIfTI-1 or NIfTI-2");
  // Sizes from a hostile header are refused before anything is allocated or read.
  std::string huge = niftiBytes(2, 2, 2, false);
  for (int i = 1; i <= 3; ++i) put<std::int16_t>(huge, 40 + 2 * i, 30000, false);
  refused("huge.nii", huge, "too large");
  std::string negative = niftiBytes(2, 2, 2, false);
  put<std::int16_t>(negative, 42, -4, false);
  refused("negative.nii", negative, "impossible size");
  std::string offset = niftiBytes(2, 2, 2, false);
  put<float>(offset, 108, 1e12f, false);
  refused("offset.nii", offset, "voxel offset");
  std::string four = niftiBytes(2, 2, 2, false);
  put<std::int16_t>(four, 40, 4, false);
  put<std::int16_t>(four, 48, 3, false);
  refused("four.nii", four, "more than one volume");
  std::string complex = niftiBytes(2, 2, 2, false);
  put<std::int16_t>(complex, 70, 32, false);
  put<std::int16_t>(complex, 72, 64, false);
  refused("complex.nii", complex, "COMPLEX64");
  // A .nii.gz promising 600^3 float64 (1.7 GB) over a few bytes: the stream is counted before
  // nifti_clib allocates the header's size (fuzz finding nifti-1: 8 GiB asked of malloc).
  std::string promise = niftiBytes(2, 2, 2, false);
  for (int i = 1; i <= 3; ++i) put<std::int16_t>(promise, 40 + 2 * i, 600, false);
  put<std::int16_t>(promise, 70, 64, false);  // float64
  put<std::int16_t>(promise, 72, 64, false);
  {
    gzFile gz = gzopen((dir / "promise.nii.gz").c_str(), "wb");
    REQUIRE(gz);
    gzwrite(gz, promise.data(), static_cast<unsigned>(promise.size()));
    gzclose(gz);
  }
  CHECK_THROWS_WITH_AS(app::loadVolume(dir / "promise.nii.gz"),
                       doctest::Contains("gzip stream holds"), InputError);
  writeWithNiftiLib(dir / "lonely.hdr", NIFTI_FTYPE_NIFTI1_2, 3, 3, 3);
  std::filesystem::remove(dir / "lonely.img");
  CHECK_THROWS_WITH_AS(app::loadVolume(dir / "lonely.hdr"), doctest::Contains("missing"),
                       InputError);
  CHECK_THROWS_WITH_AS(app::loadVolume(dir / "missing.nii"), doctest::Contains("missing.nii"),
                       InputError);
}

TEST_CASE("Fields written as NIfTI vector images read back through nifti_clib") {
  auto dir = test::scratchDir("nifti_field");
  Field3D f(4, 3, 2);
  for (std::size_t i = 0; i < f.data.size(); ++i) f.data[i] = 0.01f * float(i) - 0.3f;
  Field2D g(5, 3);
  for (std::size_t i = 0; i < g.data.size(); ++i) g.data[i] = 0.5f - 0.02f * float(i);
  app::writeNiftiField(dir / "f.nii.gz", f);
  app::writeNiftiField(dir / "g.nii", g);
  nifti_image* nim = nifti_image_read((dir / "f.nii.gz").c_str(), 1);
  REQUIRE(nim);
  CHECK(nim->intent_code == NIFTI_INTENT_VECTOR);
  CHECK(nim->datatype == NIFTI_TYPE_FLOAT32);
  CHECK(nim->dim[0] == 5);
  CHECK(nim->nx == 4);
  CHECK(nim->ny == 3);
  CHECK(nim->nz == 2);
  CHECK(nim->nu == 3);
  const auto* d = static_cast<const float*>(nim->data);
  for (std::size_t v = 0; v < f.voxelCount(); ++v)
    for (int c = 0; c < 3; ++c) REQUIRE(d[c * f.voxelCount() + v] == f.data[3 * v + c]);
  nifti_image_free(nim);
  nim = nifti_image_read((dir / "g.nii").c_str(), 1);
  REQUIRE(nim);
  CHECK(nim->nu == 2);
  CHECK(nim->nz == 1);
  const auto* e = static_cast<const float*>(nim->data);
  for (std::size_t v = 0; v < g.pixelCount(); ++v) {
    REQUIRE(e[v] == g.x(v));
    REQUIRE(e[g.pixelCount() + v] == g.y(v));
  }
  CHECK(test::readFile(dir / "g.nii").size() == 352 + g.data.size() * 4);
  // Unknown geometry: codes 0 and unit pixdim, as before geometry was kept.
  CHECK(nim->sform_code == 0);
  CHECK(nim->qform_code == 0);
  CHECK(nim->dx == 1);
  nifti_image_free(nim);
  // A known geometry: the sform and qform (scanner) give back the volume's RAS affine.
  WorldGeometry geo;
  geo.spacing = {0.8, 0.5, 2.0};
  geo.origin = {-12.5, 7.25, 40};
  const double c = std::cos(0.3), s = std::sin(0.3);
  geo.direction = {c, -s, 0, s, c, 0, 0, 0, 1};  // rotated 0.3 rad about z
  geo.known = true;
  f.geometry = geo;
  app::writeNiftiField(dir / "f.nii.gz", f);
  nim = nifti_image_read((dir / "f.nii.gz").c_str(), 0);
  REQUIRE(nim);
  CHECK(nim->sform_code == NIFTI_XFORM_SCANNER_ANAT);
  CHECK(nim->qform_code == NIFTI_XFORM_SCANNER_ANAT);
  const double lpsToRas[3] = {-1, -1, 1};
  for (int r = 0; r < 3; ++r) {
    for (int a = 0; a < 3; ++a) {
      CAPTURE(r);
      CAPTURE(a);
      const double want = lpsToRas[r] * geo.direction[r * 3 + a] * geo.spacing[a];
      CHECK(nim->sto_xyz.m[r][a] == doctest::Approx(want).epsilon(1e-6));
      CHECK(nim->qto_xyz.m[r][a] == doctest::Approx(want).epsilon(1e-6));
    }
    CHECK(nim->sto_xyz.m[r][3] == doctest::Approx(lpsToRas[r] * geo.origin[r]));
    CHECK(nim->qto_xyz.m[r][3] == doctest::Approx(lpsToRas[r] * geo.origin[r]));
  }
  CHECK(nim->nx == 4);  // storage order kept
  nifti_image_free(nim);
  // A wrong name or a missing folder: a sentence, and no file or temporary left behind.
  CHECK_THROWS_AS(app::writeNiftiField(dir / "g.nrrd", g), ParameterError);
  CHECK_THROWS_WITH_AS(app::writeNiftiField(dir / "no" / "g.nii", g),
                       doctest::Contains("does not exist"), InputError);
  CHECK(test::regularFileCount(dir) == 2);
}

TEST_CASE("3D MetaImage volumes and 3-channel fields round-trip") {
  auto dir = test::scratchDir("mha3d");
  std::string hdr =
      "ObjectType = Image\nNDims = 3\nDimSize = 3 2 2\nElementType = MET_UCHAR\n"
      "ElementDataFile = LOCAL\n";
  std::ofstream(dir / "v.mha", std::ios::binary)
      << hdr << std::string("\0\1\2\3\4\5\6\7\10\11\12\14", 12);
  CHECK(app::isVolumeFile(dir / "v.mha"));
  Volume v = app::loadVolume(dir / "v.mha");
  CHECK(v.depth == 2);
  CHECK(v.at(2, 1, 1) == doctest::Approx(1.0));
  CHECK(v.at(1, 0, 0) == doctest::Approx(1.0 / 12));
  Field3D f(4, 3, 2);
  for (std::size_t i = 0; i < f.data.size(); ++i) f.data[i] = 0.01f * float(i) - 0.3f;
  writeMetaImageField3D(dir / "f.mha", f);
  CHECK(!app::isVolumeFile(dir / "missing.png"));
  Field3D g = readMetaImageField3D(dir / "f.mha");
  CHECK(g.depth == 2);
  CHECK(g.data == f.data);
  CHECK_THROWS_AS(readMetaImageField(dir / "f.mha"), InputError);  // not a 2D field
}
