"""gvflab: Gradient Vector Flow fields and active contours on OpenCL devices.

Arrays are NumPy arrays indexed [row, col] ([plane, row, col] for volumes). Points are
(row, col) with pixel [r, c]'s centre at (r, c), as in NumPy and scikit-image; fields hold
their components in the same order, field[r, c] = (d_row, d_col). The helpers below convert
to and from (x, y), x to the right and y down.

    import gvflab
    field, report = gvflab.gvf(image, mu=0.15, iterations=500)
    contour = gvflab.snake(image, gvflab.circle((80, 64), 20), force="gvf").points
    surface = gvflab.surface_snake(volume, (32, 32, 32), 20)  # .vertices, .faces
    scan = gvflab.read("ball.nii.gz")  # .array, .spacing, .origin, .direction, as the CLI reads

Every engine error raises a subclass of gvflab.Error (ParameterError and InputError are also
ValueErrors, ResourceError a MemoryError) whose message says what is wrong. The public
functions (functions.py) have real signatures and numpydoc docstrings; gvflab.DEFAULTS holds
the engine's parameter tables their defaults come from.
"""
from ._gvflab import (  # noqa: F401
    DEFAULTS,
    Device,
    DeviceError,
    Error,
    GvfReport,
    InputError,
    KernelBuildError,
    ParameterError,
    Progress,
    RegionResult,
    ResourceError,
    SNAKE_STATES,
    SnakeResult,
    SurfaceResult,
    __version__,
)
from ._warnings import GvflabWarning  # noqa: F401
from .coords import field_xy, rc_to_xy, xy_to_rc  # noqa: F401
from .files import ReadResult, read  # noqa: F401
from .functions import (  # noqa: F401
    circle,
    devices,
    gvf,
    phantom,
    phantom_names,
    region_snake,
    snake,
    surface_snake,
    volume_phantom,
    volume_phantom_names,
)
from .masks import edge_map, snake_mask, surface_mask  # noqa: F401

__all__ = [
    "DEFAULTS", "Device", "DeviceError", "Error", "GvfReport", "GvflabWarning", "InputError",
    "KernelBuildError", "edge_map", "snake_mask", "surface_mask",
    "ParameterError", "Progress", "ReadResult", "RegionResult", "ResourceError", "SNAKE_STATES",
    "SnakeResult", "SurfaceResult", "circle", "devices", "field_xy", "gvf", "phantom",
    "phantom_names", "rc_to_xy", "read", "region_snake", "snake", "surface_snake", "volume_phantom",
    "volume_phantom_names", "xy_to_rc",
]
