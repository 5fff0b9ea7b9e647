"""What a researcher reads beside a snake: its inside as a mask, and the edge map it ran on.

``snake_mask`` rasterises contours by the rule of the CLI's ``--save-mask`` (the engine's
``gvflab/polygon_fill.hpp``); ``edge_map`` returns the engine's own f, the one ``gvf()`` and
``snake()`` build from an image.
"""
import numpy as np

from . import _gvflab
from ._inputs import check_array
from ._signatures import engine_defaults

_EDGE = engine_defaults(_gvflab.edge_map)


def _points_of(contour):
    """The (row, col) points of a SnakeResult, a RegionResult or an N x 2 array."""
    if hasattr(contour, "boundary_condition") and contour.boundary_condition != "periodic":
        raise _gvflab.ParameterError(
            f"an open snake (boundary_condition='{contour.boundary_condition}') encloses no "
            f"area; snake_mask takes closed contours.")
    for attribute in ("points", "polygon"):
        if hasattr(contour, attribute):
            return np.asarray(getattr(contour, attribute), dtype=np.float64)
    return contour


def snake_mask(contours, shape):
    """The pixels inside closed contours, as the CLI's ``--save-mask`` writes them.

    Pixel [r, c] is inside when the contour winds around its centre (r, c) (the nonzero
    winding rule, so a loop a snake folds over itself stays inside); a centre exactly on an
    edge follows the region snake's rule, so two contours sharing an edge never both hold it.

    Parameters
    ----------
    contours : gvflab.SnakeResult, gvflab.RegionResult, array_like or list of them
        One closed contour (a result of ``snake()`` or ``region_snake()``, or an N x 2 array of
        (row, col) points), or a list of them.
    shape : (int, int)
        (rows, cols) of the mask: the image's shape.

    Returns
    -------
    numpy.ndarray
        One contour: ``rows x cols`` bool. A list: ``rows x cols`` uint16 labels, contour k
        (from 1, in the list's order) where it covers a pixel, the later one where contours
        overlap, 0 outside every contour.

    Raises
    ------
    gvflab.ParameterError
        A contour that is not N x 2 (N >= 3) and finite, an open snake, a list of more than
        65535 contours, or a shape that is not (rows, cols) of 1 to 16384 each.

    Examples
    --------
    >>> import gvflab
    >>> mask = gvflab.snake_mask(gvflab.circle((32, 32), 10), (64, 64))
    >>> mask.dtype, 300 < mask.sum() < 330
    (dtype('bool'), True)
    """
    rows, cols = (int(s) for s in shape)
    if isinstance(contours, (list, tuple)) and not contours:
        raise _gvflab.ParameterError("snake_mask takes a contour or a list of them, not [].")
    if isinstance(contours, (list, tuple)) and np.ndim(_points_of(contours[0])) == 2:
        if len(contours) > 65535:
            raise _gvflab.ParameterError(
                f"a label image holds at most 65535 contours, not {len(contours)}.")
        labels = np.zeros((rows, cols), dtype=np.uint16)
        for k, contour in enumerate(contours, start=1):
            labels[_gvflab.polygon_mask(_points_of(contour), (rows, cols)) != 0] = k
        return labels
    return _gvflab.polygon_mask(_points_of(contours), (rows, cols)).astype(bool)


def edge_map(image_or_volume, *, channel_axis=None, sigma=_EDGE["sigma"], device=_EDGE["device"]):
    """The edge map f that ``gvf()`` and ``snake()`` build from an image or volume.

    f = |grad(G_sigma * I)|^2 rescaled to [0, 1] (``kernels/edge_map.cl``), computed on the
    OpenCL device; pass it (changed, or as it is) back as ``gvf(edge_map=...)``.

    Parameters
    ----------
    image_or_volume : array_like
        As for ``gvf()`` (dtypes, sizes, NaN refused).
    channel_axis : int or None, optional
        As for ``gvf()``.
    sigma : float, optional
        Gaussian sigma in pixels before the gradient (0: no smoothing), as ``gvf()``'s.
    device : str, optional
        As for ``gvf()``.

    Returns
    -------
    numpy.ndarray
        float32 in [0, 1], the image's shape (``rows x cols`` or ``planes x rows x cols``).

    Raises
    ------
    gvflab.InputError, gvflab.ParameterError, gvflab.ResourceError, gvflab.DeviceError
        As for ``gvf()``.

    Examples
    --------
    >>> import gvflab
    >>> f = gvflab.edge_map(gvflab.phantom("u", 64))
    >>> f.shape, float(f.max())
    ((64, 64), 1.0)
    """
    check_array(image_or_volume, channel_axis, "image_or_volume", stacklevel=2)
    return _gvflab.edge_map(image_or_volume, channel_axis=channel_axis, sigma=sigma,
                            device=device)

# The rays' offset from the voxel centres' lattice: no vertex or edge of a moved mesh sits on
# it, so a ray never grazes a vertex or an edge and each crossing counts once.
_RAY_OFFSET = (1.234567e-6, 2.345678e-6)


def surface_mask(surface, shape):
    """The voxels inside a closed surface of ``surface_snake()``, as a bool volume.

    Voxel [p, r, c] is inside when a ray from its centre (p, r, c) along the cols crosses the
    surface an odd number of times (the even-odd rule; a closed surface that does not cross
    itself, as ``surface_snake()`` returns them, has one inside). A centre exactly on the
    surface is inside where the surface faces the lower indices, outside where it faces the
    higher ones, so two surfaces sharing a face never both hold a voxel.

    Parameters
    ----------
    surface : gvflab.SurfaceResult or (vertices, faces)
        A result of ``surface_snake()``, or its N x 3 (plane, row, col) vertices and M x 3
        faces of a closed mesh.
    shape : (int, int, int)
        (planes, rows, cols) of the mask: the volume's shape.

    Returns
    -------
    numpy.ndarray
        ``planes x rows x cols`` bool.

    Raises
    ------
    gvflab.ParameterError
        Vertices that are not N x 3 and finite, faces that are not M x 3 indices into them,
        or a shape that is not three sides of at least 1.

    Examples
    --------
    >>> import gvflab
    >>> ball = gvflab.volume_phantom("sphere", 32)
    >>> mask = gvflab.surface_mask(gvflab.surface_snake(ball, (15.5, 15.5, 15.5), 13), ball.shape)
    >>> mask.dtype, mask.shape
    (dtype('bool'), (32, 32, 32))
    """
    vertices, faces = ((surface.vertices, surface.faces) if hasattr(surface, "faces")
                       else surface)
    vertices = np.asarray(vertices, dtype=np.float64)
    faces = np.asarray(faces)
    sides = tuple(int(s) for s in shape)
    if len(sides) != 3 or min(sides) < 1:
        raise _gvflab.ParameterError(
            f"shape must be (planes, rows, cols), each at least 1, not {tuple(shape)}.")
    if vertices.ndim != 2 or vertices.shape[1] != 3 or not np.isfinite(vertices).all():
        raise _gvflab.ParameterError("the surface's vertices must be N x 3 finite numbers "
                                     "(plane, row, col).")
    if (faces.ndim != 2 or faces.shape[1] != 3 or not np.issubdtype(faces.dtype, np.integer)
            or faces.size and (faces.min() < 0 or faces.max() >= len(vertices))):
        raise _gvflab.ParameterError("the surface's faces must be M x 3 indices into its "
                                     "vertices.")
    planes, rows, cols = sides
    # crossings[p, r, k]: rays of row (p, r) crossing the surface just before voxel col k.
    crossings = np.zeros((planes, rows, cols + 1), dtype=np.int32)
    for a, b, c in vertices[faces]:
        lo = np.ceil(np.minimum(np.minimum(a, b), c)[:2] - _RAY_OFFSET).astype(int)
        hi = np.floor(np.maximum(np.maximum(a, b), c)[:2] - _RAY_OFFSET).astype(int)
        lo, hi = np.maximum(lo, 0), np.minimum(hi, (planes - 1, rows - 1))
        if (lo > hi).any():
            continue
        p, r = np.meshgrid(np.arange(lo[0], hi[0] + 1), np.arange(lo[1], hi[1] + 1),
                           indexing="ij")
        p, r = p.ravel(), r.ravel()
        # Barycentric coordinates of the rays' (p, r) in the face's projection.
        qp, qr = p + _RAY_OFFSET[0] - a[0], r + _RAY_OFFSET[1] - a[1]
        e1, e2 = b[:2] - a[:2], c[:2] - a[:2]
        det = e1[0] * e2[1] - e1[1] * e2[0]
        if det == 0:
            continue  # a face seen edge-on: the rays pass beside it
        u = (qp * e2[1] - qr * e2[0]) / det
        v = (e1[0] * qr - e1[1] * qp) / det
        hit = (u >= 0) & (v >= 0) & (u + v <= 1)
        col = a[2] + u[hit] * (b[2] - a[2]) + v[hit] * (c[2] - a[2])
        # Voxel centres at or beyond the crossing see it: it counts from there. With the
        # rays' offset, a centre on a box's face is inside on the low side of every axis.
        first = np.clip(np.ceil(col).astype(int), 0, cols)
        np.add.at(crossings, (p[hit], r[hit], first), 1)
    return (np.cumsum(crossings[:, :, :cols], axis=2) % 2).astype(bool)
