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
