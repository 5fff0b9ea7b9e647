"""gvflab's warnings: what the CLI says on stderr as a warning, Python says with warnings.warn.

A result that is not what was asked for (a field whose error did not reach its target, a
storage the device could not give) warns with ``gvflab.GvflabWarning``, so that
``warnings.simplefilter("error", gvflab.GvflabWarning)`` turns every such case into an error
and ``warnings.catch_warnings`` silences them.
"""
import warnings


class GvflabWarning(UserWarning):
    """A gvflab result that differs from what was asked for (see gvflab._warnings)."""


def warn(message, stacklevel):
    """warnings.warn(message, GvflabWarning) at the caller's caller (stacklevel over this)."""
    warnings.warn(message, GvflabWarning, stacklevel=stacklevel + 1)


def warn_gvf_report(report, iterations_keyword, stacklevel):
    """Warns as the CLI does when a GVF solve fell short, naming Python's keyword.

    Parameters
    ----------
    report : gvflab.GvfReport or None
        None (no GVF solve, e.g. the traditional force) warns nothing.
    iterations_keyword : str
        'iterations' for gvf(), 'gvf_iterations' for the snakes.
    stacklevel : int
        Frames above the caller of this function where the warning points.
    """
    if report is None:
        return
    if report.target_error is not None and not report.reached:
        if report.settled:
            warn(f"the GVF error settled at {report.error:g}, above the target "
                 f"{report.target_error:g} (the solver's floor here; see target_error); "
                 f"report.reached is False", stacklevel + 1)
        else:
            warn(f"the GVF error did not reach {report.target_error:g} within "
                 f"{report.iterations} iterations (error {report.error:g}; raise "
                 f"{iterations_keyword}); report.reached is False", stacklevel + 1)
    if report.note:
        warn(f"the GVF solver fell back from the storage asked for: {report.note}",
             stacklevel + 1)


def warn_region_restart(result, stacklevel):
    """Warns, as the CLI does, when the region snake started again inside the object."""
    if result.restarted:
        warn("the region snake grew out of the start drawn around an object (taking the "
             "background as its target) and started again inside the object; "
             "result.restarted is True", stacklevel + 1)
