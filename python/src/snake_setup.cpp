#include "snake_setup.hpp"

#include "arrays.hpp"

namespace py = pybind11;

namespace gvflab::python {

GvfRequest snakeGvfRequest(std::optional<double> mu, std::optional<long> iterations,
                           std::optional<double> targetError, std::optional<std::string> solver,
                           const std::string& precision) {
  GvfRequest request;
  request.mu = mu, request.iterations = iterations, request.targetError = targetError;
  request.solver = std::move(solver), request.precision = precision;
  return request;
}

SnakeField::SnakeField(const PixelArray& pixels, SnakeForce force, const GvfRequest& request,
                       double sigma, const std::string& device,
                       const std::optional<std::vector<double>>& spacing, const py::object& edgeMap,
                       const py::object& progress, long progressEvery, const RunLoad& load) {
  const std::optional<GridSpacing> grid =
      spacing ? std::optional(gridSpacingOf(*spacing, pixels.dims())) : std::nullopt;
  lease = computeContext(device);
  checkGvfFits(*lease.ctx, pixels.fieldShape(), request, load, grid, force == SnakeForce::Gvf);
  // The traditional force is ∇f: V0 in the edge-gradient mode, of the caller's f if given.
  input = gvfInputOf(*lease.ctx, pixels, sigma, py::none(), edgeMap, grid);
  if (force != SnakeForce::Gvf) return;
  gvf = runGvf(lease.ctx, input, request, progress, progressEvery);
  gvf->report.sigma = sigma;
}

}  // namespace gvflab::python
