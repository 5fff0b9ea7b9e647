"""gvflab.read(): an image or volume file read by the CLI's own readers, with its geometry."""
from typing import NamedTuple, Optional, Tuple

import numpy as np

from . import _gvflab


class ReadResult(NamedTuple):
    """A file as ``read()`` found it: its samples and where they sit in the world.

    World position (LPS mm) of sample ``index`` (one number per array axis):
    ``origin + direction @ (spacing * index)``. gvf(), snake() and surface_snake() take it in
    place of an array and use its spacing unless ``spacing=`` is given, as the CLI does.
    """

    array: np.ndarray  # float32 in [0, 1]: rows x cols, or planes x rows x cols
    spacing: Tuple[float, ...]  # per array axis, world units (mm); 1 where the file has none
    origin: Optional[Tuple[float, float, float]]  # world (x, y, z) of sample 0; None: unknown
    direction: Optional[np.ndarray]  # 3 x ndim, column k array axis k's direction; None: unknown

    def __array__(self, dtype=None):
        return self.array if dtype is None else self.array.astype(dtype)


def read(path):
    """Reads an image or volume file as the CLI does, with its spacing, origin and direction.

    The same input checks and readers as ``gvflab FILE`` (PNG, JPEG, BMP, GIF, PBM/PGM/PPM,
    MetaImage .mha/.mhd incl. compressed, NIfTI .nii/.nii.gz/.hdr, NRRD, TIFF pages and stacks,
    DICOM files and series folders): the header is checked before any sample is read, and a
    file the CLI refuses is refused with the CLI's sentence naming it.

    Parameters
    ----------
    path : str or os.PathLike
        A file, or a folder holding one DICOM series. A file with several pages, frames or
        planes is a volume.

    Returns
    -------
    gvflab.ReadResult
        A named tuple ``(array, spacing, origin, direction)``: ``array`` float32 in [0, 1]
        (``rows x cols``, colour made grey, or ``planes x rows x cols``) in the file's storage
        order (never reoriented); ``spacing`` one value per array axis (1 where the file gives
        none); ``origin`` (x, y, z) and ``direction`` (3 x ndim) in world LPS millimetres, or
        None when the file gives no geometry.

    Raises
    ------
    gvflab.InputError
        Missing, empty, truncated or corrupt files, a header that is not the format its name
        says, unsupported types, too large for this computer (also a ValueError).

    Examples
    --------
    >>> import gvflab, tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "tiny.pgm")
    >>> with open(path, "wb") as f:
    ...     _ = f.write(b"P5 3 2 255\\n" + bytes([0, 51, 102, 153, 204, 255]))
    >>> image = gvflab.read(path)
    >>> image.array.shape, image.spacing, image.origin
    ((2, 3), (1.0, 1.0), None)
    """
    return ReadResult(*_gvflab.read(path))


def with_geometry(image, spacing):
    """(array, spacing): a ReadResult's array, its spacing the default when spacing is None."""
    if isinstance(image, ReadResult):
        return image.array, image.spacing if spacing is None else spacing
    return image, spacing
