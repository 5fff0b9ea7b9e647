"""Snake specs, session contents and numeric values bounded before any work (issue 25).

Loaded by malformed_inputs.py (cases(Case)). Each case must be refused within the runner's time
limit with one line naming the flag or the session field; the big inputs are generated here
and stay below ~10 MB. Cases with a max_line attribute also bound the line's length (user
text is echoed at most ~60 characters).
"""
import json


def session(**fields):
    doc = {"gvflab_session": 1, "phantom": "u", "phantom_size": 64}
    doc.update(fields)
    return json.dumps(doc, separators=(",", ":"))


SQUARE = [[10, 10], [40, 10], [40, 40], [10, 40]]

# (field path, the session's fields with that field of a wrong type, the type it must have)
WRONG_TYPES = [
    ("image", {"image": 12345, "phantom": None}, "a string (a file name)"),
    ("phantom", {"phantom": 5}, "a string"),
    ("phantom_size", {"phantom_size": "64"}, "a number"),
    ("solver", {"solver": 3}, "an object"),
    ("solver.name", {"solver": {"name": True}}, "a string"),
    ("solver.mu", {"solver": {"mu": "abc"}}, "a number"),
    ("solver.sigma", {"solver": {"sigma": [1]}}, "a number"),
    ("solver.v0", {"solver": {"v0": 1}}, "a string"),
    ("solver.iterations_per_frame", {"solver": {"iterations_per_frame": "16"}}, "a number"),
    ("solver.frame_budget_ms", {"solver": {"frame_budget_ms": None}}, "a number"),
    ("device", {"device": 0}, "a string"),
    ("snake_params", {"snake_params": []}, "an object"),
    ("snake_params.alpha", {"snake_params": {"alpha": "0.1"}}, "a number"),
    ("snake_params.beta", {"snake_params": {"beta": {}}}, "a number"),
    ("snake_params.gamma", {"snake_params": {"gamma": False}}, "a number"),
    ("snake_params.kappa", {"snake_params": {"kappa": "x"}}, "a number"),
    ("snake_params.pressure", {"snake_params": {"pressure": [0]}}, "a number"),
    ("snake_params.dmin", {"snake_params": {"dmin": "1"}}, "a number"),
    ("snake_params.dmax", {"snake_params": {"dmax": "2.5"}}, "a number"),
    ("snake_params.tolerance", {"snake_params": {"tolerance": None}}, "a number"),
    ("snake_params.window", {"snake_params": {"window": "100"}}, "a number"),
    ("snake_params.resample", {"snake_params": {"resample": "10"}}, "a number"),
    ("snake_params.normalize", {"snake_params": {"normalize": "yes"}}, "true or false"),
    ("snakes", {"snakes": {"points": SQUARE}}, "an array"),
    ("snakes[0]", {"snakes": ["circle"]}, "an object"),
    ("snakes[0].force", {"snakes": [{"force": 1, "points": SQUARE}]}, "a string"),
    ("snakes[0].pressure", {"snakes": [{"pressure": "0.5", "points": SQUARE}]}, "a number"),
    ("snakes[0].points", {"snakes": [{"points": "10,10,40,10,40,40"}]}, "an array"),
    ("snakes[0].points[2]", {"snakes": [{"points": [[10, 10], [40, 10], 40, [10, 40]]}]}, "a pair [x, y]"),
    ("snakes[0].points[1][0]", {"snakes": [{"points": [[10, 10], ["40", 10], [10, 40]]}]}, "a number"),
    ("snakes[0].initial_points", {"snakes": [{"points": SQUARE, "initial_points": 4}]}, "an array"),
    ("display", {"display": "gray"}, "an object"),
    ("display.colormap", {"display": {"colormap": 7}}, "a string"),
    ("display.log_scale", {"display": {"log_scale": 1}}, "true or false"),
]


def zigzag(points, side):
    """A sawtooth across a side x side image (bottom, top, bottom, ... left to right, closed
    along the bottom) whose resampling would have ~10^9 nodes."""
    return [[i * side / points, side if i % 2 else 0] for i in range(points - 1)] + [[side, 0]]


def cases(Case):
    c = []

    def bad_session(name, text, expect, max_line=None):
        case = Case(name, ["--session", "{in}/s.json", "--iterations", "5", "--save-field",
                           "{out}/f.mha", "--save-contours", "{out}/c.json"], expect, {"s.json": text})
        case.max_line = max_line
        c.append(case)

    def bad_snake(name, spec, expect="--snake", extra=()):
        c.append(Case(name, ["--phantom", "u", "--phantom-size", "64", "--iterations", "5",
                             "--snake", spec, "--save-contours", "{out}/c.json", "--save-field",
                             "{out}/f.mha", *extra], expect))

    # Snake specs: bounds from the numbers, before any node is built (was 2.9 GB and 216 s).
    bad_snake("spec_circle_radius_1e8", "circle:128,128,1e8")
    bad_snake("spec_circle_radius_5e6", "circle:32,32,5e6")
    bad_snake("spec_circle_radius_1e300", "circle:32,32,1e300")
    bad_snake("spec_circle_centre_far", "circle:9e6,32,10")
    # A zigzag inside a 1024 image: ~7 * 10^8 nodes once resampled (dmin 0.1, dmax 0.2).
    bad_snake("spec_polygon_zigzag", "polygon:" + ",".join("%g,%g" % tuple(p) for p in zigzag(2000, 1024)),
              extra=("--phantom-size", "1024", "--dmin", "0.1", "--dmax", "0.2"))
    # Session polygons: 100k points (1.4 MB) whose resampling would take gigabytes.
    bad_session("session_polygon_zigzag",
                session(phantom_size=1024, snake_params={"dmin": 0.1, "dmax": 0.2},
                        snakes=[{"points": zigzag(100000, 1024)}]), "s.json")
    bad_session("session_polygon_too_many_points",
                session(snakes=[{"points": [[10 + (i % 30), 10 + (i % 29)] for i in range(100001)]}]),
                "at most 100000")
    # 200k tiny snakes (about 7 MB): refused by count (they ran past 300 s).
    bad_session("session_200k_snakes",
                session(snakes=[{"points": [[1, 1], [9, 1], [5, 8]]}] * 200000), "at most 256")
    bad_session("session_257_snakes", session(snakes=[{"points": SQUARE}] * 257), "at most 256")
    # Millions of small values or deep nesting: refused while streaming, before a document is
    # built (40 MB of [[1]] took 1.9 GB).
    bad_session("session_4m_values", session(junk=[0] * 4000001), "more than 4000000 JSON values")
    bad_session("session_nested_100k", '{"gvflab_session":1,"phantom":"u","x":' + "[" * 100000 +
                "]" * 100000 + "}", "nests deeper than 64")
    # Every field with a wrong type: named with the type it must have.
    for path, fields, must in WRONG_TYPES:
        doc = {"gvflab_session": 1, "phantom": "u", "phantom_size": 64}
        doc.update(fields)
        doc = {k: v for k, v in doc.items() if v is not None}  # "phantom": None drops it
        bad_session("session_type_" + path.replace(".", "_").replace("[", "_").replace("]", ""),
                    json.dumps(doc), '"%s" must be %s' % (path, must))
    # Numbers out of range before any int cast; finite but huge; beyond double.
    bad_session("session_window_1e30", session(snake_params={"window": 1e30}),
                '"snake_params.window" = 1e+30 is too large: it must lie in [1, 10000]')
    bad_session("session_resample_fraction", session(snake_params={"resample": 2.5}), "whole number")
    bad_session("session_iterations_per_frame_1e30", session(solver={"iterations_per_frame": 1e30}),
                '"solver.iterations_per_frame"')
    bad_session("session_phantom_size_1e30", session(phantom_size=1e30), '"phantom_size"')
    bad_session("session_point_1e308", session(snakes=[{"points": [[1e308, 10], [40, 10], [40, 40]]}]),
                "too large")
    bad_session("session_point_1e400", '{"gvflab_session":1,"phantom":"u","snakes":[{"points":'
                '[[1e400,10],[40,10],[40,40]]}]}', "s.json")
    bad_session("session_frame_budget_negative", session(solver={"frame_budget_ms": -1}),
                '"solver.frame_budget_ms"')
    # Session surfaces (issue 30): faces naming missing vertices, too many surfaces.
    tetra = {"vertices": [[1, 1, 1], [9, 1, 1], [1, 9, 1], [1, 1, 9]],
             "faces": [[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]]}
    bad_session("session_surface_face_index",
                session(surfaces=[dict(tetra, faces=[[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 7]])]),
                '"surfaces[0].faces[3][2]"')
    bad_session("session_65_surfaces", session(surfaces=[tetra] * 65), "at most 64")
    # 10 MB of colormap (under the 16 MiB file bound): refused with a short line.
    bad_session("session_colormap_10mb", session(display={"colormap": "x" * (10 << 20)}),
                '"display.colormap" must be gray, viridis or inferno', max_line=300)
    bad_session("session_phantom_name_1mb", session(phantom="p" * (1 << 20)), "Unknown phantom",
                max_line=300)
    # Long flag values (an argument holds at most 128 KiB on Linux) echoed short too.
    for flag in ("--colormap", "--mu", "--solver", "--v0", "--snake", "--session-start", "--phantom",
                 "--demo", "--device", "--precision", "--memory", "--noise", "--snake-force",
                 "--surface", "--save-surfaces"):
        case = Case("flag_long_value" + flag.replace("-", "_"),
                    ["--phantom", "u", "--phantom-size", "64", "--save-field", "{out}/f.mha", flag,
                     "9" * 100000],
                    {"--phantom": "Unknown phantom", "--device": "No OpenCL device matches"}.get(flag, flag))
        case.max_line = 300
        c.append(case)
    # --region-snake: huge values are refused as numbers (UBSan: signed overflow before).
    for i, rect in enumerate(["2147483647,2147483647,2147483647,2147483647", "99999999999,0,5,5",
                              "10,10,1e300,5", "0,0,-2147483648,5", "nan,0,5,5"]):
        c.append(Case("region_rect_huge_%d" % i, ["--phantom", "u", "--phantom-size", "64",
                                                 "--region-snake", rect, "--save-contours",
                                                 "{out}/c.json"], "--region-snake"))
    return c
