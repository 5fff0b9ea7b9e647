"""The public functions: real signatures and numpydoc docstrings over gvflab._gvflab.

Each function passes its arguments on unchanged (``_gvflab.NAME(**locals())``); every check
and conversion happens in the compiled module. Defaults are the compiled binding's, which
reads them from the engine's parameter tables (``gvflab.DEFAULTS``); None means "decided by
the engine's rule" as the docstring says.
"""
from . import _gvflab
from ._inputs import check_array
from ._signatures import engine_defaults
from ._warnings import warn_gvf_report, warn_region_restart
from .files import with_geometry

_GVF = engine_defaults(_gvflab.gvf)
_SNAKE = engine_defaults(_gvflab.snake)
_REGION = engine_defaults(_gvflab.region_snake)
_CIRCLE = engine_defaults(_gvflab.circle)
_PHANTOM = engine_defaults(_gvflab.phantom)
_SURFACE = engine_defaults(_gvflab.surface_snake)
_VOLUME_PHANTOM = engine_defaults(_gvflab.volume_phantom)


def devices():
    """Every OpenCL device of every platform.

    Returns
    -------
    list of gvflab.Device
        Each with ``name``, ``platform``, ``version``, ``is_gpu``, ``global_mem_bytes``,
        ``max_alloc_bytes`` and ``compute_units``; pass part of a name as ``device=`` to
        choose one.

    Raises
    ------
    gvflab.DeviceError
        When OpenCL itself cannot be queried.

    Examples
    --------
    >>> import gvflab
    >>> names = [d.name for d in gvflab.devices()]
    """
    return _gvflab.devices()


def phantom(name, size=_PHANTOM["size"]):
    """A procedural test image, the CLI's ``--phantom``.

    Parameters
    ----------
    name : str
        'u' (a U with a deep concavity), 'room' (a room with a doorway) or 'blob' (a noisy
        blob); see ``phantom_names()``.
    size : int, optional
        Rows and columns, 16 to 16384.

    Returns
    -------
    numpy.ndarray
        ``size x size`` float32 in [0, 1].

    Raises
    ------
    gvflab.InputError
        For an unknown name or a size out of range.

    Examples
    --------
    >>> import gvflab
    >>> gvflab.phantom("u", 64).shape
    (64, 64)
    """
    return _gvflab.phantom(**locals())


def phantom_names():
    """The names ``phantom()`` takes.

    Returns
    -------
    list of str

    Examples
    --------
    >>> import gvflab
    >>> "u" in gvflab.phantom_names()
    True
    """
    return _gvflab.phantom_names()


def volume_phantom(name, size=_VOLUME_PHANTOM["size"]):
    """A procedural test volume, the 3D counterpart of ``phantom()``.

    Parameters
    ----------
    name : str
        'cup' (a solid cup with a deep narrow well bored from its top, which opens towards the
        last planes: the U of the 2D lesson in 3D) or 'sphere' (a solid ball of radius
        0.3 * size at the centre); see ``volume_phantom_names()``.
    size : int, optional
        Planes, rows and cols, 16 to 512.

    Returns
    -------
    numpy.ndarray
        ``size x size x size`` float32 (planes, rows, cols) in [0, 1], a bright object on a dark
        background whose edges ramp over one voxel.

    Raises
    ------
    gvflab.InputError
        For an unknown name or a size out of range.

    Examples
    --------
    >>> import gvflab
    >>> gvflab.volume_phantom("sphere", 32).shape
    (32, 32, 32)
    """
    return _gvflab.volume_phantom(**locals())


def volume_phantom_names():
    """The names ``volume_phantom()`` takes.

    Returns
    -------
    list of str

    Examples
    --------
    >>> import gvflab
    >>> "cup" in gvflab.volume_phantom_names()
    True
    """
    return _gvflab.volume_phantom_names()


def circle(center, radius, *, spacing=_CIRCLE["spacing"]):
    """Nodes of a circle, a start contour for ``snake()``.

    Parameters
    ----------
    center : (float, float)
        (row, col) of the centre; pixel [r, c]'s centre is at (r, c).
    radius : float
        In pixels.
    spacing : float, optional
        Distance between nodes in pixels (at least 8 nodes); the default is the CLI's for
        ``--snake circle:...``, the middle of the snake's dmin and dmax.

    Returns
    -------
    numpy.ndarray
        N x 2 float64 (row, col).

    Examples
    --------
    >>> import gvflab
    >>> points = gvflab.circle((32, 32), 20)
    >>> points.shape[1]
    2
    """
    return _gvflab.circle(**locals())


def gvf(image_or_volume, *, channel_axis=None, mu=None, sigma=_GVF["sigma"], iterations=None,
        target_error=None, solver=None, precision=_GVF["precision"], memory=None,
        v0=_GVF["v0"], mg_a=_GVF["mg_a"], mg_b=_GVF["mg_b"], mg_c=_GVF["mg_c"],
        mg_cycle=_GVF["mg_cycle"], device=_GVF["device"], progress=None,
        progress_every=_GVF["progress_every"], edge_map=None, spacing=None, devices=None):
    """Gradient Vector Flow of a 2D image or a 3D volume, computed on an OpenCL device.

    The device work runs without the GIL: other Python threads (a GUI's event loop) keep
    running; calls on the same device from several threads take turns.

    Parameters
    ----------
    image_or_volume : array_like or gvflab.ReadResult
        ``rows x cols`` (2D) or ``planes x rows x cols`` (3D), any strides (views and
        broadcast arrays are fine); or what ``read()`` returned, whose spacing is then the
        default for ``spacing``. dtype: floats are used as they are (normally in [0, 1]);
        integers are divided by their type's maximum (uint8: 255, uint16: 65535); bool is
        0/1. At most 16384 pixels per side in 2D and 4096 in 3D, checked from the shape
        before anything is copied. NaN or infinite values are refused.
    channel_axis : int or None, optional
        As in scikit-image. None (default): no axis holds channels, so a 3D array is a
        volume, even ``H x W x 3``. An int: that axis (e.g. -1) holds 1, 3 (RGB) or 4
        (RGBA) channels, made grey by the engine's rule: ITU-R BT.601 luma,
        0.299 R + 0.587 G + 0.114 B on the stored values, alpha ignored (as the CLI's PPM
        reader does, ``gvflab/luminance.hpp``), before the dtype's scaling.
    mu : float or None, optional
        GVF diffusion weight. None (default): ``DEFAULTS['gvf']['mu']``, lowered to the
        solver's largest mu on this input where that is lower (Euler's stability bound,
        1/6 or less in 3D), as the CLI does without ``--mu``; ``report.mu`` says what ran. A
        number is checked as given: Euler takes at most its stability bound (1/4 in 2D,
        1/6 in 3D, lower on strong edges), multigrid any mu > 0.
    sigma : float, optional
        Gaussian sigma in pixels before the edge map (0: no smoothing).
    iterations : int or None, optional
        With ``target_error``: the most to run. Alone: exactly that many (Euler unless
        ``solver`` names one).
    target_error : float or None, optional
        Stop once the error (multigrid paper, eq. 9: the mean residual) is at most this.
        With ``iterations``, ``target_error`` and ``solver`` all None the field is solved to
        1e-6 by multigrid, so snakes run on a finished field.
    solver : {None, 'euler', 'multigrid'}, optional
        None: multigrid for a run to a target, Euler for a fixed count.
    precision : {'f32', 'f16', 'snorm16'}, optional
        Field storage on the device.
    memory : {None, 'buffer', 'image', 'local'}, optional
        Euler's memory; None: the device's best.
    v0 : {'edge', 'image'} or array_like, optional
        'edge': V0 = grad f, f the normalised edge map; 'image': V0 = grad of the smoothed
        image; or your own initial field, shaped as the result (``rows x cols x 2``,
        ``planes x rows x cols x 3``, components in index order), finite.
    mg_a, mg_b, mg_c : int, optional
        Multigrid cycles, pre- and post-smoothing sweeps.
    mg_cycle : {'auto', 'fmg', 'vcycles', 'twogrid'}, optional
        Multigrid's iterations. 'fmg': each is full multigrid, then a V-cycle (the multigrid
        paper). 'vcycles': only the first is, each later one ``mg_a`` V-cycles on V: sooner
        on smooth or noisy fields, later on sharp shapes with large flat regions (the U
        phantom: 5 iterations to 1e-6 against 2). 'twogrid': sweeps on the input's grid
        around a full-multigrid coarse solve: cheaper, one iteration more on most 2D scenes.
        'auto' (default): 'twogrid' for volumes, 'fmg' for images, where each measured
        faster.
    device : str, optional
        '' or 'gpu' (a GPU if any), 'cpu', or part of a device name (see ``devices()``).
    progress : callable or None, optional
        Gets a ``gvflab.Progress`` every ``progress_every`` iterations and at the end, with
        the GIL held; an exception it raises stops the run and propagates.
    progress_every : int, optional
        Iterations between progress calls (at least 1).
    edge_map : array_like or None, optional
        Your own edge map f (the image's shape; floats as they are, integers divided by
        their type's maximum; keep it in [0, 1] for the default mu and snakes), used instead
        of the one built from the image with sigma; V0 is then grad f unless ``v0`` is an
        array. The image still sets the size.
    spacing : sequence of float or None, optional
        None (unit spacing) or the sample spacing per array axis, (rows, cols) or
        (planes, rows, cols), in world units (e.g. mm), each 1e-6 to 1e6: gradients and the
        Laplacian are taken in these units, so the field is per world unit and Euler's mu
        bound shrinks with fine spacing.
    devices : None, 'all' or list of str, optional
        A volume's solve split in z-slabs over several devices (docs/SCALING.md):
        'all' (every GPU of the device's platform) or numbers as ``['0.0', '0.1']`` (the
        first holds the input, as ``device`` would). ``report.split`` names the slabs. 2D
        inputs refuse it; a list that comes to one device runs as one. Without it, a volume
        whose solve does not fit the device is split over 'all' when that names several.

    Returns
    -------
    field : numpy.ndarray
        float32, ``rows x cols x 2`` (2D) or ``planes x rows x cols x 3`` (3D), components in
        index order: ``field[r, c] = (d_row, d_col)``; ``field_xy(field)`` is the (x, y)
        view.
    report : gvflab.GvfReport
        solver, iterations, error, reached, mu, opencl_ms, wall_ms, device, ...

    Raises
    ------
    gvflab.InputError
        Wrong number of dimensions or channels, a dtype that is not real, an empty or
        oversized array, NaN or infinite values (also a ValueError).
    gvflab.ParameterError
        A parameter out of range, unknown or beyond the solver's bound (also a ValueError).
    gvflab.ResourceError
        The data does not fit the device (also a MemoryError), checked before copying.
    gvflab.DeviceError
        No OpenCL device matches ``device``, or an OpenCL call failed.

    Examples
    --------
    >>> import gvflab
    >>> field, report = gvflab.gvf(gvflab.phantom("u", 64), iterations=50)
    >>> field.shape
    (64, 64, 2)
    >>> import numpy as np
    >>> rgb = np.zeros((32, 48, 3), np.uint8)
    >>> gvflab.gvf(rgb, channel_axis=-1, iterations=5)[0].shape
    (32, 48, 2)
    """
    image_or_volume, spacing = with_geometry(image_or_volume, spacing)  # gvflab.read()'s spacing
    check_array(image_or_volume, channel_axis, "image_or_volume", stacklevel=2)
    field, report = _gvflab.gvf(**locals())
    warn_gvf_report(report, "iterations", stacklevel=2)
    return field, report


def snake(image, initial_points, *, channel_axis=None, force=_SNAKE["force"],
          alpha=_SNAKE["alpha"], beta=_SNAKE["beta"], gamma=_SNAKE["gamma"],
          kappa=_SNAKE["kappa"], pressure=_SNAKE["pressure"], dmin=_SNAKE["dmin"],
          dmax=_SNAKE["dmax"], tolerance=_SNAKE["tolerance"], window=_SNAKE["window"],
          hold_gap=_SNAKE["hold_gap"], resample=_SNAKE["resample"],
          normalize=_SNAKE["normalize"], iterations=_SNAKE["iterations"], mu=None,
          sigma=_SNAKE["sigma"], gvf_iterations=None, target_error=None, solver=None,
          precision=_SNAKE["precision"], device=_SNAKE["device"], progress=None,
          progress_every=_SNAKE["progress_every"],
          boundary_condition=_SNAKE["boundary_condition"], spacing=None, edge_map=None,
          force_params=None):
    """Moves parametric snakes (Kass et al.; Xu & Prince) on an OpenCL device.

    The device work runs without the GIL, as in ``gvf()``.

    Parameters
    ----------
    image : array_like or gvflab.ReadResult
        ``rows x cols``, as for ``gvf()`` (dtypes, sizes, ``channel_axis``, ``read()``'s
        result).
    initial_points : array_like or list of array_like
        An N x 2 array of (row, col) nodes, pixel [r, c]'s centre at (r, c) as in NumPy and
        scikit-image (``xy_to_rc()`` converts x/y points), or a list of them to move several
        snakes at once. ``circle()`` makes a circle.
    channel_axis : int or None, optional
        As for ``gvf()``: None, no channel axis (the image must be 2D); an int, the axis of
        1, 3 or 4 channels made grey by BT.601 luma.
    force : {'gvf', 'traditional', 'ggvf', 'vfc', 'distance'}, optional
        'gvf': the GVF field, solved first with mu, sigma, gvf_iterations, target_error,
        solver and precision as ``gvf()`` does; 'traditional': grad f of the edge map;
        'ggvf': generalized GVF (Xu & Prince 1998); 'vfc': vector field convolution (Li &
        Acton 2007); 'distance': the distance force (Cohen & Cohen 1993), each with
        ``force_params``.
    alpha, beta, gamma, kappa, pressure : float, optional
        Elasticity, rigidity, viscosity, external force weight, balloon weight.
    dmin, dmax : float, optional
        Node spacing kept by resampling every ``resample`` iterations.
    tolerance : float, optional
        A snake stops when no node moved more than this (pixels) over ``window`` iterations.
    window : int, optional
    hold_gap : float, optional
        The longest stretch without the force's hold a converged snake may have (pixels).
    resample : int, optional
    normalize : bool, optional
        Unit-length external force.
    iterations : int, optional
        The most snake iterations to run.
    mu, sigma, gvf_iterations, target_error, solver, precision : optional
        The GVF solve, as ``gvf()``'s mu, sigma, iterations, target_error, solver and
        precision (mu None: the default fitted as the CLI does).
    device : str, optional
        As for ``gvf()``.
    progress : callable or None, optional
        Gets a ``gvflab.Progress`` (stage 'gvf', then 'snake').
    progress_every : int, optional
    boundary_condition : {'periodic', 'free', 'fixed', 'free-fixed', 'fixed-free'}, optional
        scikit-image's: 'periodic' (closed, the default), or an open snake through the points
        in their order with 'free' ends (they move; nothing pulls or bends across them, so
        alpha shortens the snake from its ends), 'fixed' ends (pinned where they start),
        'free-fixed' or 'fixed-free' (first end, last end). Open snakes need 2 points.
    spacing : sequence of float or None, optional
        The pixel spacing (rows, cols) in world units, as for ``gvf()``: the field is solved
        in those units, as the CLI does for an input whose header gives a spacing. The
        snake's nodes stay in pixels.
    edge_map : array_like or None, optional
        Your own edge map f, as for ``gvf()`` (the image's shape; keep it in [0, 1]), used
        instead of the one built from the image with sigma: the 'gvf' force is the GVF of
        grad f, the 'traditional' force grad f itself. The image still sets the size.
    force_params : dict or None, optional
        The parameters of 'ggvf', 'vfc' and 'distance' by the CLI's names with '_':
        ``ggvf_k``, ``vfc_kernel`` ('power' or 'gaussian'), ``vfc_radius``, ``vfc_gamma``,
        ``vfc_zeta``, ``distance_threshold``; each in the CLI's range, unnamed ones at the
        CLI's defaults.

    Returns
    -------
    gvflab.SnakeResult or list of gvflab.SnakeResult
        One per initial contour (a list for a list): ``points`` (N x 2 float64 (row, col)),
        ``state``, ``converged``, ``held``, ``hold_gap``, ``iterations``, ``force``,
        ``opencl_ms``, ``gvf`` (the GVF report, None for 'traditional'), ``params`` (the
        snake keywords alpha ... normalize it ran with, a dict). ``state`` is one of
        ``SNAKE_STATES``, the engine's rule as the CLI reports it: 'moving' (not stopped
        within ``iterations``), 'converged' (stopped where its force holds it), 'stalled'
        (stopped where the force is too weak to hold it) or 'collapsed' (shrank to a dot or
        a line).

    Raises
    ------
    gvflab.ParameterError
        A parameter out of range, points that are not N x 2 or lie outside the image.
    gvflab.InputError
        As for ``gvf()``.
    gvflab.ResourceError, gvflab.DeviceError
        As for ``gvf()``.

    Examples
    --------
    >>> import gvflab
    >>> image = gvflab.phantom("u", 64)
    >>> result = gvflab.snake(image, gvflab.circle((31.5, 31.5), 28), iterations=200)
    >>> result.state in gvflab.SNAKE_STATES
    True
    """
    image, spacing = with_geometry(image, spacing)  # gvflab.read()'s spacing
    check_array(image, channel_axis, "image", stacklevel=2)
    result = _gvflab.snake(**locals())
    warn_gvf_report((result[0] if isinstance(result, list) else result).gvf, "gvf_iterations",
                    stacklevel=2)
    return result


def region_snake(image, rect=None, *, channel_axis=None, noise=_REGION["noise"],
                 d_max=_REGION["d_max"], min_segment=_REGION["min_segment"],
                 max_iterations=_REGION["max_iterations"], device=_REGION["device"],
                 progress=None, progress_every=_REGION["progress_every"]):
    """Segments one region with the polygonal snake of the PLH criterion (OpenCL).

    The device work runs without the GIL, as in ``gvf()``.

    Parameters
    ----------
    image : array_like
        ``rows x cols`` (4 x 4 to 65536 columns, 2^31 pixels, checked before copying).
        uint16 goes to the device as its grey levels; other dtypes become [0, 1] as in
        ``gvf()`` and are quantised to 16 bits.
    rect : (int, int, int, int) or None, optional
        The start rectangle (row, col, rows, cols) in pixels; None: an inset of 1/8 of each
        side.
    channel_axis : int or None, optional
        As for ``gvf()``.
    noise : {'gaussian', 'gamma', 'poisson'}, optional
    d_max : int, optional
        First node move distance, halved each iteration.
    min_segment : float, optional
        Longer segments get a node in their middle.
    max_iterations : int, optional
    device : str, optional
    progress : callable or None, optional
        Gets a ``gvflab.Progress`` (stage 'region') every ``progress_every`` steps.
    progress_every : int, optional

    Returns
    -------
    gvflab.RegionResult
        ``polygon`` (N x 2 int32 (row, col) pixel indices), ``converged``, ``iterations``,
        ``steps``, ``criterion``, the target's and background's means, sigmas and pixel
        counts, ``restarted``. The target is the inside of the start: a snake that grew out
        of a rectangle drawn around an object (taking the background as its target) starts
        again inside that object, with ``restarted`` True and a ``gvflab.GvflabWarning``.

    Raises
    ------
    gvflab.ParameterError
        An unknown noise model, a bad rectangle or parameter.
    gvflab.InputError
        A wrong shape or dtype, an image too small or too large.
    gvflab.ResourceError, gvflab.DeviceError
        As for ``gvf()``; the device must offer double precision.

    Examples
    --------
    >>> import gvflab
    >>> result = gvflab.region_snake(gvflab.phantom("blob", 64))
    >>> result.polygon.shape[1]
    2
    """
    check_array(image, channel_axis, "image", stacklevel=2)
    result = _gvflab.region_snake(**locals())
    warn_region_restart(result, stacklevel=2)
    return result


def surface_snake(volume, center=None, radius=None, *, box=None, channel_axis=None,
                  force=_SURFACE["force"],
                  alpha=_SURFACE["alpha"], beta=_SURFACE["beta"], gamma=_SURFACE["gamma"],
                  kappa=_SURFACE["kappa"], pressure=_SURFACE["pressure"],
                  dmin=_SURFACE["dmin"], dmax=_SURFACE["dmax"],
                  tolerance=_SURFACE["tolerance"], window=_SURFACE["window"],
                  hold_gap=_SURFACE["hold_gap"], resample=_SURFACE["resample"],
                  normalize=_SURFACE["normalize"], iterations=_SURFACE["iterations"], mu=None,
                  sigma=_SURFACE["sigma"], gvf_iterations=None, target_error=None, solver=None,
                  precision=_SURFACE["precision"], device=_SURFACE["device"], progress=None,
                  progress_every=_SURFACE["progress_every"], spacing=None, force_params=None):
    """Moves a deformable surface (Xu & Prince's 3D GVF snake) in a volume on an OpenCL device.

    A closed triangle mesh, started on a sphere, whose vertices move under the volume's GVF
    field (or grad f) with elasticity and rigidity from mesh Laplacians, remeshed to edges
    between ``dmin`` and ``dmax`` so that it can enter concavities. The parameters and states
    are ``snake()``'s (the same engine tables and rule), as for the CLI's ``--surface``. The
    device work runs without the GIL, as in ``gvf()``.

    Parameters
    ----------
    volume : array_like or gvflab.ReadResult
        ``planes x rows x cols``, as for ``gvf()`` (dtypes, sizes, ``channel_axis``,
        ``read()``'s result); ``volume_phantom()`` makes test volumes.
    center : (float, float, float) or None
        (plane, row, col) of the start sphere's centre; voxel [p, r, c]'s centre is at
        (p, r, c), as in NumPy and scikit-image. It must lie inside the volume.
    radius : float or None
        The start sphere's radius in voxels; the sphere must stay inside the volume.
    box : ((float, float, float), (float, float, float)) or None
        Instead of a sphere, start from an axis-aligned box between two (plane, row, col)
        corners, the first below the second on every axis, inside the volume (the CLI's
        ``--surface box:``). Give either center and radius or box.
    channel_axis : int or None, optional
        As for ``gvf()``: None, no channel axis (the volume must be 3D); an int, the axis of
        1, 3 or 4 channels made grey by BT.601 luma.
    force : {'gvf', 'traditional', 'ggvf', 'vfc', 'distance'}, optional
        'gvf': the GVF field, solved first with mu, sigma, gvf_iterations, target_error,
        solver and precision as ``gvf()`` does; 'traditional': grad f of the edge map;
        'ggvf': generalized GVF (Xu & Prince 1998); 'vfc': vector field convolution (Li &
        Acton 2007); 'distance': the distance force (Cohen & Cohen 1993), each with
        ``force_params``.
    alpha, beta, gamma, kappa, pressure : float, optional
        Elasticity, rigidity, viscosity, external force weight, balloon weight (along the
        outward normal), as for ``snake()``.
    dmin, dmax : float, optional
        Edge lengths (voxels) kept by remeshing every ``resample`` iterations.
    tolerance : float, optional
        The surface stops when no vertex moved more than this (voxels) over ``window``
        iterations.
    window : int, optional
    hold_gap : float, optional
        The widest patch without the force's hold a converged surface may have (voxels).
    resample : int, optional
    normalize : bool, optional
        Unit-length external force.
    iterations : int, optional
        The most surface iterations to run.
    mu, sigma, gvf_iterations, target_error, solver, precision : optional
        The GVF solve, as ``gvf()``'s mu, sigma, iterations, target_error, solver and
        precision (mu None: the default fitted as the CLI does).
    device : str, optional
        As for ``gvf()``.
    progress : callable or None, optional
        Gets a ``gvflab.Progress`` (stage 'gvf', then 'surface').
    progress_every : int, optional
    spacing : sequence of float or None, optional
        The voxel spacing (planes, rows, cols) in world units (e.g. mm), as for ``gvf()``,
        as the CLI takes it from a file's header. The field is solved in those units and the
        surface moves in them: ``dmin``, ``dmax``, ``tolerance`` and ``hold_gap`` are then
        world lengths, and a ball sampled at 1 x 1 x 2 mm comes out round in millimetres.
        ``center``, ``radius``, ``box`` and the returned vertices stay in voxels.
    force_params : dict or None, optional
        As for ``snake()``; a volume's VFC radius is at most 16 (its default there).

    Returns
    -------
    gvflab.SurfaceResult
        ``vertices`` (N x 3 float64 (plane, row, col), voxel centres at integers), ``faces``
        (M x 3 int64 indices into ``vertices``, a closed mesh: every edge in exactly two
        faces, ``(v1 - v0) x (v2 - v0)`` pointing outwards in (plane, row, col)),
        ``state``, ``converged``, ``held``, ``hold_gap``, ``iterations``, ``force``,
        ``opencl_ms``, ``gvf`` (the GVF report, None for 'traditional'), ``params`` (the
        snake keywords alpha ... normalize it ran with, a dict). ``state`` is one of
        ``SNAKE_STATES``, as for ``snake()``: 'moving', 'converged', 'stalled' or
        'collapsed'. The CLI's ``--surface`` and ``--save-surfaces`` write (x, y, z) =
        (col + 0.5, row + 0.5, plane + 0.5) for the same vertices.

    Raises
    ------
    gvflab.ParameterError
        A parameter out of range, a centre that is not three numbers or lies outside the
        volume, a sphere or box that reaches outside it, both a sphere and a box (or
        neither), an unknown force.
    gvflab.InputError
        As for ``gvf()``, and an array that is not a volume (a 2D image: use ``snake()``).
    gvflab.ResourceError, gvflab.DeviceError
        As for ``gvf()``, and a sphere or box that would need too many vertices.

    Examples
    --------
    >>> import gvflab
    >>> volume = gvflab.volume_phantom("sphere", 32)
    >>> result = gvflab.surface_snake(volume, (15.5, 15.5, 15.5), 13, iterations=100)
    >>> result.vertices.shape[1], result.faces.shape[1]
    (3, 3)
    >>> result.state in gvflab.SNAKE_STATES
    True
    """
    volume, spacing = with_geometry(volume, spacing)  # gvflab.read()'s spacing
    check_array(volume, channel_axis, "volume", stacklevel=2, image=False)
    result = _gvflab.surface_snake(**locals())
    warn_gvf_report(result.gvf, "gvf_iterations", stacklevel=2)
    return result
