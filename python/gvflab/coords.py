"""Conversions between gvflab's (row, col) order and (x, y) (x to the right, y down).

Both sides put pixel [r, c]'s centre at (r, c) / (x=c, y=r) unless corner_origin is given:
gvflab's CLI, its contour files and the viewer measure from the image's top-left *corner*,
where pixel centres sit at (c + 0.5, r + 0.5).
"""
import numpy as np


def xy_to_rc(points, corner_origin=False):
    """(x, y) points to (row, col).

    Parameters
    ----------
    points : array_like
        N x 2 (x, y), x to the right, y down.
    corner_origin : bool, optional
        True for points from gvflab's CLI or contour files (origin at the image's top-left
        corner): their pixel centres are at +0.5, so 0.5 is subtracted.

    Returns
    -------
    numpy.ndarray
        N x 2 float64 (row, col).

    Raises
    ------
    ValueError
        When points is not N x 2.

    Examples
    --------
    >>> xy_to_rc([[2.5, 1.5]], corner_origin=True).tolist()
    [[1.0, 2.0]]
    """
    xy = np.asarray(points, dtype=np.float64)
    if xy.ndim != 2 or xy.shape[1] != 2:
        raise ValueError(f"points must be an N x 2 array of (x, y), not shape {xy.shape}")
    rc = xy[:, ::-1].copy()
    if corner_origin:
        rc -= 0.5
    return rc


def rc_to_xy(points, corner_origin=False):
    """(row, col) points to (x, y); the inverse of xy_to_rc.

    Parameters
    ----------
    points : array_like
        N x 2 (row, col).
    corner_origin : bool, optional
        True to add 0.5 (gvflab's CLI and contour files measure from the image's corner).

    Returns
    -------
    numpy.ndarray
        N x 2 float64 (x, y).

    Raises
    ------
    ValueError
        When points is not N x 2.

    Examples
    --------
    >>> rc_to_xy([[1.0, 2.0]]).tolist()
    [[2.0, 1.0]]
    """
    rc = np.asarray(points, dtype=np.float64)
    if rc.ndim != 2 or rc.shape[1] != 2:
        raise ValueError(f"points must be an N x 2 array of (row, col), not shape {rc.shape}")
    xy = rc[:, ::-1].copy()
    if corner_origin:
        xy += 0.5
    return xy


def field_xy(field):
    """The field with its components as (x, y) (2D) or (x, y, z) (3D): a view, no copy.

    gvflab.gvf() returns components in index order, (d_row, d_col) / (d_plane, d_row, d_col);
    this reverses the last axis, e.g. for matplotlib's quiver(U=fx[..., 0], V=fx[..., 1]).

    Parameters
    ----------
    field : array_like
        H x W x 2 or D x H x W x 3, as gvflab.gvf() returns.

    Returns
    -------
    numpy.ndarray
        A view of field with the last axis reversed.

    Raises
    ------
    ValueError
        When field is not a gvflab field.

    Examples
    --------
    >>> import numpy as np
    >>> field_xy(np.array([[[1.0, 2.0]]])).tolist()
    [[[2.0, 1.0]]]
    """
    f = np.asarray(field)
    if f.ndim not in (3, 4) or f.shape[-1] != f.ndim - 1:
        raise ValueError(f"not a gvflab field (H x W x 2 or D x H x W x 3): shape {f.shape}")
    return f[..., ::-1]
