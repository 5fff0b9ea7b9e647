"""Checks of the arrays the public functions take that only Python can make: a masked array's
mask, and an (H, W, 3|4) array given without channel_axis (read as a volume of 3 or 4 planes,
which is almost never what an RGB image meant)."""
import numpy as np

from . import _gvflab
from ._warnings import warn


def check_array(array, channel_axis, name, stacklevel, image=True):
    """Refuses a masked array; warns for a likely RGB(A) image without channel_axis.

    Parameters
    ----------
    array : array_like
    channel_axis : int or None
    name : str
        The keyword, for messages ('image', 'image_or_volume', 'volume').
    stacklevel : int
        Frames above the caller where the warning points.
    image : bool, optional
        False for a function that takes volumes only (no RGB warning).

    Raises
    ------
    gvflab.InputError
        For a numpy.ma.MaskedArray with any masked value: the engine has no notion of a mask,
        so it would be ignored.
    """
    if np.ma.isMaskedArray(array) and np.ma.getmaskarray(array).any():
        raise _gvflab.InputError(
            f"{name} is a masked array with masked values; gvflab does not take masks (they "
            f"would be ignored). Fill them ({name}.filled(value)) or pass the data "
            f"({name}.data) to run on every value.")
    shape = getattr(array, "shape", None)
    if image and channel_axis is None and shape is not None and len(shape) == 3 and shape[-1] in (3, 4):
        warn(f"{name} has shape {tuple(shape)}: it runs as a volume of {shape[0]} planes of "
             f"{shape[1]} x {shape[2]}; for an RGB(A) image pass channel_axis=-1 (to silence "
             f"this for a real volume, use warnings.filterwarnings)", stacklevel + 1)
