"""The signatures of the compiled functions (gvflab._gvflab), read from pybind11's docstrings.

pybind11 builtins have no ``__signature__``; their docstring's first line is the signature
with every keyword's default as the binding set it, from the engine's parameter tables. The
Python layer (functions.py) takes its defaults from here, so no number is typed twice, and the
tests compare both signatures so that a keyword added to a binding is not forgotten here.
"""
import ast
import inspect


def engine_signature(builtin):
    """The inspect.Signature of a pybind11 function, annotations dropped.

    Parameters
    ----------
    builtin : builtin_function_or_method
        A function of gvflab._gvflab (one overload).

    Returns
    -------
    inspect.Signature
        Its parameters, kinds and literal defaults.

    Raises
    ------
    ValueError
        When the docstring does not start with a parsable signature.
    """
    first = (builtin.__doc__ or "").splitlines()[0] if builtin.__doc__ else ""
    try:
        node = ast.parse(f"def {first.split(' -> ')[0]}: pass").body[0]
    except SyntaxError as e:
        raise ValueError(f"no signature in the docstring of {builtin!r}: {first!r}") from e
    args = node.args
    params = []
    positional = args.posonlyargs + args.args
    defaults = [inspect.Parameter.empty] * (len(positional) - len(args.defaults)) + [
        ast.literal_eval(d) for d in args.defaults]
    for i, (arg, default) in enumerate(zip(positional, defaults)):
        kind = (inspect.Parameter.POSITIONAL_ONLY if i < len(args.posonlyargs)
                else inspect.Parameter.POSITIONAL_OR_KEYWORD)
        params.append(inspect.Parameter(arg.arg, kind, default=default))
    for arg, default in zip(args.kwonlyargs, args.kw_defaults):
        params.append(inspect.Parameter(
            arg.arg, inspect.Parameter.KEYWORD_ONLY,
            default=inspect.Parameter.empty if default is None else ast.literal_eval(default)))
    return inspect.Signature(params)


def engine_defaults(builtin):
    """{keyword: default} of a compiled function (see engine_signature)."""
    return {p.name: p.default for p in engine_signature(builtin).parameters.values()
            if p.default is not inspect.Parameter.empty}
