"""Many inputs over a Dask cluster: the work of `gvflab --headless --batch`, one task an input.

    python3 -m gvflab.batch INPUTS... --output-dir DIR [--scheduler ADDRESS | --workers N]
                            [--gvflab EXE] [gvflab flags...]

INPUTS are files, quoted globs or @LIST files, as for --batch. Every other flag is gvflab's
and is passed to each run as given (--save-field F, --report R.json, --snake ..., --mu ...), so
each input's outputs get the names `gvflab --headless --batch` gives them (DIR/STEM-F, or F with
{stem} replaced): each task runs the gvflab executable itself on one input, the most faithful
way to do the same work (every output kind, check and error sentence is the CLI's own).

Each task runs in a staging folder, DIR/.gvflab-batch/stage/RUN/, and moves every output into
DIR by rename only once the run has succeeded, so each output is whole or absent; then it
records DIR/.gvflab-batch/done/STEM.json (the input, the flags, the outputs). An input whose
record has the same flags and whose outputs all exist is skipped, so a run interrupted or
killed is resumed by running the same command again. The staging folder of the run is removed
at its end, with whatever a killed worker left in it.

Without --scheduler a local cluster is started with one worker per OpenCL device of this
machine (its GPUs if any, else every device; --workers N for N workers over them in turn). A
worker's device is pinned by the environment variable GVFLAB_DEVICE ("P.D", the numbers
`gvflab --list-devices` prints), passed to its runs as --device; on a cluster of many hosts,
start each worker with it set (docs/SCALING.md). The executable is --gvflab EXE, else
$GVFLAB_EXE, else `gvflab` on PATH, else the build tree's app/gvflab beside this package,
looked for on the worker that runs the task.

A progress line on stderr, each run's own lines on stdout prefixed by its input, then a summary
naming every failed input with its reason; exit 1 when any failed, 2 when the command itself is
wrong.
"""
import ctypes
import glob
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import uuid

STATE_FOLDER = ".gvflab-batch"  # DIR/.gvflab-batch/{done,stage}
DEVICE_ENV = "GVFLAB_DEVICE"
# Flags the runner owns: a run's input and folder are set per task, its device per worker.
RUNNER_FLAGS = ("--batch", "--output-dir", "--phantom", "--device")


class BatchError(ValueError):
    """The command cannot run as given; its message is one sentence for the user."""


def input_stem(path):
    """The name an input's outputs carry, as `gvflab --batch` makes it (.nii.gz is one)."""
    name = os.path.basename(path)
    for two in (".nii.gz", ".tar.gz"):
        if len(name) > len(two) and name.endswith(two):
            return name[: -len(two)]
    stem, _ = os.path.splitext(name)
    return stem or name


def expand_inputs(specs):
    """Files, globs and @LIST files (one file a line, relative to the list, # comments)."""
    out = []
    for spec in specs:
        if len(spec) > 1 and spec.startswith("@"):
            path = spec[1:]
            try:
                with open(path) as f:
                    lines = [ln.strip() for ln in f]
            except OSError:
                raise BatchError(f"the list '{path}' cannot be read.") from None
            names = [ln for ln in lines if ln and not ln.startswith("#")]
            if not names:
                raise BatchError(f"the list '{path}' names no file.")
            folder = os.path.dirname(path)
            out += [n if os.path.isabs(n) else os.path.join(folder, n) for n in names]
        elif any(c in spec for c in "*?["):
            found = sorted(glob.glob(spec))
            if not found:
                raise BatchError(f"'{spec}' matches no file.")
            out += found
        else:
            out.append(spec)
    return [os.path.abspath(p) for p in out]


def find_gvflab(explicit=None):
    """The gvflab executable: EXE given, $GVFLAB_EXE, `gvflab` on PATH, or the build tree's."""
    if explicit:
        candidates = [explicit]
    else:
        here = os.path.dirname(os.path.abspath(__file__))  # <build>/python/gvflab
        candidates = [os.environ.get("GVFLAB_EXE"), shutil.which("gvflab"),
                      os.path.join(here, "..", "..", "app", "gvflab")]
    for exe in candidates:
        if exe and os.path.isfile(exe) and os.access(exe, os.X_OK):
            return os.path.abspath(exe)
    where = f"at '{explicit}'" if explicit else (
        "(give --gvflab EXE or set GVFLAB_EXE; the Python package does not ship it)")
    raise BatchError(f"no gvflab executable {where} on {socket.gethostname()}.")


def pinned_devices(exe):
    """The devices a local cluster puts one worker on: the GPUs if any, else every device."""
    done = subprocess.run([exe, "--list-devices"], capture_output=True, text=True, timeout=120)
    listed = []
    for line in done.stdout.splitlines():
        number, _, rest = line.partition("  ")
        if number.count(".") == 1 and number.replace(".", "").isdigit():
            listed.append((number, "[GPU," in rest))
    gpus = [n for n, gpu in listed if gpu]
    return gpus or [n for n, _ in listed]


def _done_record(output_dir, stem):
    return os.path.join(output_dir, STATE_FOLDER, "done", stem + ".json")


def is_done(job):
    """True when the job's record has its input and flags and every output it lists exists."""
    try:
        with open(_done_record(job["output_dir"], job["stem"])) as f:
            record = json.load(f)
    except (OSError, ValueError):
        return False
    return (record.get("input") == job["input"] and record.get("flags") == job["flags"] and
            all(os.path.isfile(os.path.join(job["output_dir"], name))
                for name in record.get("outputs", [])))


def _write_atomically(path, text):
    tmp = f"{path}.{os.getpid()}.tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)


_LIBC = ctypes.CDLL(None, use_errno=True)  # resolved here: the forked child only calls it
_PR_SET_PDEATHSIG = 1


def _die_with_parent():
    # A worker killed mid-run takes its gvflab with it: nothing keeps writing after it.
    _LIBC.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)


def _reason(done):
    errors = [ln[len("gvflab: "):] for ln in done.stderr.splitlines() if ln.startswith("gvflab: ")]
    if errors:
        return " ".join(errors)
    if done.returncode < 0:
        return f"gvflab was stopped by signal {-done.returncode}."
    last = done.stderr.strip().splitlines()
    return last[-1] if last else f"gvflab exited with status {done.returncode}."


def _repoint(path, stage, out_dir):
    """A JSON output's paths into the staging folder made to point into DIR instead."""
    with open(path) as f:
        text = f.read()
    old, new = (json.dumps(folder + os.sep)[1:-1] for folder in (stage, out_dir))
    if old in text:
        _write_atomically(path, text.replace(old, new))


def run_input(job):
    """One input on this worker: gvflab on it in a staging folder, then its outputs moved in.

    Returns a dict: input, ok, reason (when not ok), outputs, printed (the run's stdout lines),
    worker (host:pid) and device."""
    worker = f"{socket.gethostname()}:{os.getpid()}"
    device = os.environ.get(DEVICE_ENV, "")
    result = {"input": job["input"], "ok": False, "outputs": [], "printed": [],
              "worker": worker, "device": device}
    out_dir = job["output_dir"]
    stage = os.path.join(out_dir, STATE_FOLDER, "stage", job["run_id"],
                         f"{job['stem']}-{socket.gethostname()}-{os.getpid()}")
    try:
        exe = find_gvflab(job["exe"])
        shutil.rmtree(stage, ignore_errors=True)
        os.makedirs(stage)
        args = [exe, "--headless", "--quiet", *job["flags"]]
        if device:
            args += ["--device", device]
        args += ["--batch", job["input"], "--output-dir", stage]
        cwd = job["cwd"] if os.path.isdir(job["cwd"]) else None
        done = subprocess.run(args, capture_output=True, text=True, cwd=cwd,
                              preexec_fn=_die_with_parent)
        prefix = job["input"] + ": "
        result["printed"] = [ln for ln in done.stdout.splitlines() if ln.startswith(prefix)]
        if done.returncode != 0:
            result["reason"] = _reason(done)
            return result
        names = sorted(n for n in os.listdir(stage) if os.path.isfile(os.path.join(stage, n)))
        for name in names:
            if name.endswith(".json"):  # a report names its files (surfaces) where they end up
                _repoint(os.path.join(stage, name), stage, out_dir)
        for name in names:  # a rename within DIR's file system: each output whole or absent
            os.replace(os.path.join(stage, name), os.path.join(out_dir, name))
        record = {"input": job["input"], "flags": job["flags"], "outputs": names,
                  "worker": worker, "device": device}
        os.makedirs(os.path.dirname(_done_record(out_dir, job["stem"])), exist_ok=True)
        _write_atomically(_done_record(out_dir, job["stem"]), json.dumps(record, indent=1))
        result.update(ok=True, outputs=names)
        return result
    except (OSError, BatchError) as e:
        result["reason"] = str(e)
        return result
    finally:
        shutil.rmtree(stage, ignore_errors=True)


def parse_args(argv):
    """INPUTS (up to the first flag), the runner's own flags, and gvflab's flags as given."""
    own = {"--output-dir": "output_dir", "--scheduler": "scheduler", "--workers": "workers",
           "--gvflab": "gvflab"}
    opts = {"inputs": [], "flags": [], "output_dir": None, "scheduler": None, "workers": None,
            "gvflab": None}
    i = 0
    while i < len(argv) and not argv[i].startswith("-"):
        opts["inputs"].append(argv[i])
        i += 1
    while i < len(argv):
        arg = argv[i]
        name, eq, value = arg.partition("=")
        if name in own:
            if not eq:
                if i + 1 >= len(argv):
                    raise BatchError(f"{name} needs a value.")
                i += 1
                value = argv[i]
            opts[own[name]] = value
        elif name in ("-h", "--help"):
            print(__doc__)
            sys.exit(0)
        elif name in RUNNER_FLAGS:
            raise BatchError(f"{name} is set by the runner for each task (inputs come first, "
                             f"devices are pinned per worker with {DEVICE_ENV}); leave it out.")
        else:
            opts["flags"].append(arg)
        i += 1
    if not opts["inputs"]:
        raise BatchError("no input given: INPUTS (files, globs, @LIST) come first.")
    if not opts["output_dir"]:
        raise BatchError("--output-dir DIR is needed: every input's outputs go there.")
    if opts["scheduler"] and opts["workers"]:
        raise BatchError("--workers starts a local cluster; with --scheduler the cluster's "
                         "workers are started on its hosts. Give one of them.")
    if opts["workers"] is not None:
        if not opts["workers"].isdigit() or not 1 <= int(opts["workers"]) <= 1024:
            raise BatchError(f"--workers '{opts['workers']}' is not a count from 1 to 1024.")
        opts["workers"] = int(opts["workers"])
    return opts


def make_jobs(opts):
    """Every input's job, checked before any runs: DIR a folder, no two inputs one name."""
    out_dir = os.path.abspath(opts["output_dir"])
    if not os.path.isdir(out_dir):
        raise BatchError(f"--output-dir '{opts['output_dir']}' is not a folder.")
    inputs = expand_inputs(opts["inputs"])
    by_stem = {}
    for path in inputs:
        other = by_stem.setdefault(input_stem(path), path)
        if other != path:
            raise BatchError(f"'{other}' and '{path}' would both write outputs named "
                             f"'{input_stem(path)}'; rename one or run them apart.")
        if os.path.dirname(path) == out_dir:
            raise BatchError(f"the input '{path}' is in --output-dir; keep inputs apart.")
    run_id = uuid.uuid4().hex[:12]
    return [{"input": path, "stem": stem, "flags": opts["flags"], "output_dir": out_dir,
             "run_id": run_id, "exe": opts["gvflab"], "cwd": os.getcwd()}
            for stem, path in by_stem.items()]


def quiet_dask():
    """Dask's own notes off (here and in the workers, which inherit the environment): the
    progress line and the summary are the output; its warnings and errors stay."""
    os.environ.setdefault("DASK_LOGGING__DISTRIBUTED", "warning")


def local_cluster(devices, workers):
    """A cluster on this machine: one single-threaded worker per device (or N over them)."""
    from distributed import Nanny, Scheduler, SpecCluster
    count = workers or len(devices)
    spec = {}
    for i in range(count):
        env = {DEVICE_ENV: devices[i % len(devices)]} if devices else {}
        spec[f"gvflab-{i}"] = {"cls": Nanny,
                               "options": {"nthreads": 1, "env": env, "host": "127.0.0.1",
                                           "dashboard": False}}
    scheduler = {"cls": Scheduler, "options": {"dashboard": False, "host": "127.0.0.1"}}
    return SpecCluster(workers=spec, scheduler=scheduler, name="gvflab-batch")


class ProgressLine:
    """One line on stderr, redrawn in place on a terminal, a line per input elsewhere."""

    def __init__(self, total):
        self.total, self.done, self.failed = total, 0, 0
        self.terminal = sys.stderr.isatty()

    def clear(self):
        if self.terminal:
            sys.stderr.write("\r\033[K")

    def step(self, result):
        self.done += 1
        self.failed += 0 if result["ok"] else 1
        width = 30
        bar = "#" * (width * self.done // max(self.total, 1))
        text = f"[{bar:<{width}}] {self.done}/{self.total}" + (
            f", {self.failed} failed" if self.failed else "")
        if self.terminal:
            sys.stderr.write("\r\033[K" + text)
        else:
            state = "done" if result["ok"] else "failed"
            sys.stderr.write(f"{text}: {result['input']}: {state}\n")
        sys.stderr.flush()


def run(opts):
    jobs = make_jobs(opts)
    todo = [j for j in jobs if not is_done(j)]
    skipped = len(jobs) - len(todo)
    results = []
    if todo:
        quiet_dask()
        from distributed import Client, as_completed
        from distributed.scheduler import KilledWorker
        cluster = None
        if not opts["scheduler"]:
            exe = find_gvflab(opts["gvflab"])  # the local workers use this one
            for j in todo:
                j["exe"] = exe
            cluster = local_cluster(pinned_devices(exe), opts["workers"])
        progress = ProgressLine(len(todo))
        try:
            with Client(cluster or opts["scheduler"]) as client:
                futures = client.map(run_input, todo, pure=False,
                                     key=[f"gvflab-{j['stem']}-{j['run_id']}" for j in todo])
                by_key = {f.key: j for f, j in zip(futures, todo)}
                for future in as_completed(futures):
                    try:
                        result = future.result()
                    except KilledWorker:
                        result = {"input": by_key[future.key]["input"], "ok": False,
                                  "printed": [], "reason": "every worker that ran it died "
                                  "(out of memory, or killed) as many times as Dask allows."}
                    except Exception as e:  # the task itself broke (not gvflab): say how
                        result = {"input": by_key[future.key]["input"], "ok": False,
                                  "printed": [], "reason": f"the task failed: {e!r}"}
                    results.append(result)
                    progress.clear()
                    for line in result["printed"]:
                        print(line)
                    sys.stdout.flush()
                    progress.step(result)
        finally:
            progress.clear()
            if cluster is not None:
                cluster.close()
            stage = os.path.join(todo[0]["output_dir"], STATE_FOLDER, "stage", todo[0]["run_id"])
            shutil.rmtree(stage, ignore_errors=True)
    failures = [r for r in results if not r["ok"]]
    done = len(results) - len(failures)
    line = f"batch: {done} of {len(todo)} inputs done"
    if skipped:
        line += f", {skipped} skipped (their outputs exist)"
    if failures:
        line += f", {len(failures)} failed:"
    print(line)
    for r in sorted(failures, key=lambda r: r["input"]):
        print(f"  {r['input']}: {r['reason']}")
    return 1 if failures else 0


def main(argv=None):
    try:
        return run(parse_args(sys.argv[1:] if argv is None else argv))
    except BatchError as e:
        print(f"gvflab.batch: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("gvflab.batch: interrupted; run the same command again to resume.", file=sys.stderr)
        return 130


if __name__ == "__main__":
    # Through the package, so tasks pickle as gvflab.batch.run_input, not __main__'s copy.
    from gvflab.batch import main as package_main
    sys.exit(package_main())
