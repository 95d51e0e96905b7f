"""Builds the native engine: build/sbx.wasm through wasm2c (Debian's wabt) and the C compiler into a
shared object, cached by the hash of its inputs, so every later load is a dlopen.

Loading a cached object runs its code, and its name is computable (the hash of public inputs): anyone
who can put a file there gets it run as the caller. So the cache directory must be the caller's and
not group- or world-writable (it is made 0700), and the object a regular file, the caller's, not group-
or world-writable, opened without following a symlink; else it is not loaded: a bad file is rebuilt
in its place, a bad directory is left alone and the engine is built in a private temporary one. The
checks are made on open descriptors (fstat), and dlopen resolves the name through the checked
directory's descriptor, so nothing can be swapped in between."""
import ctypes
import errno
import hashlib
import os
import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

from ._errors import EngineError

HERE = Path(__file__).resolve().parent
RT = HERE / "sbx_rt.c"


def default_wasm() -> Path:
    env = os.environ.get("SBX_WASM")
    return Path(env) if env else HERE.parent.parent / "build" / "sbx.wasm"


def cache_dir() -> Path:
    env = os.environ.get("SBX_ENGINE_CACHE")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "sbx-engine"


def _tool(name: str, package: str) -> str:
    path = shutil.which(name)
    if not path:
        raise EngineError("E_NO_" + name.upper().replace("-", "_"),
                          f"{name} not found: the Python binding compiles sbx.wasm with it; install Debian's {package} (apt-get install {package})")
    return path


def load_library(wasm: Path) -> ctypes.CDLL:
    """The engine built from wasm, loaded: from the cache when the cached object passes the checks above."""
    if not wasm.is_file():
        raise EngineError("E_NO_WASM", f"no engine at {wasm}: run npm run build in the sbx checkout, or set SBX_WASM to sbx.wasm")
    cc = os.environ.get("CC", "cc")
    key = hashlib.sha256(wasm.read_bytes() + RT.read_bytes() + cc.encode()).hexdigest()[:20]
    name = f"sbx-engine-{key}.so"
    where = cache_dir()
    dfd, why = _private_dir(where)
    if dfd is None:
        _warn(f"the cache directory {where} {why}: nothing is loaded from it (a file planted there would run as you); "
              f"building in a private temporary directory instead. Set SBX_ENGINE_CACHE to a directory of yours, mode 0700")
        return _build_private(wasm, cc, name)
    try:
        why = _check_file(dfd, name)
        if why is not None:
            if why != "missing":
                _warn(f"{where / name} {why}: not loaded; rebuilding it")
            try:
                _build(wasm, cc, where, name)
            except OSError:  # e.g. a directory planted under that name
                return _build_private(wasm, cc, name)
            why = _check_file(dfd, name)
            if why is not None:
                raise EngineError("E_BUILD", f"the engine just built at {where / name} {why}; remove it and retry")
        return ctypes.CDLL(f"/proc/self/fd/{dfd}/{name}")
    finally:
        os.close(dfd)


def _private_dir(d: Path):
    """(descriptor, None) of d, made 0700 if missing, when it is the caller's alone; else (None, why)."""
    try:
        d.parent.mkdir(parents=True, exist_ok=True)
        os.mkdir(d, 0o700)
    except FileExistsError:
        pass
    except OSError as err:
        return None, f"cannot be made ({err.strerror})"
    try:
        fd = os.open(d, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError as err:
        return None, f"cannot be opened ({err.strerror})"
    st = os.fstat(fd)
    why = _not_private(st)
    if why is not None:
        os.close(fd)
        return None, why
    return fd, None


def _not_private(st) -> "str | None":
    if st.st_uid != os.geteuid():
        return f"is owned by uid {st.st_uid}, not by you (uid {os.geteuid()})"
    if st.st_mode & 0o022:
        return f"is group- or world-writable (mode {stat.S_IMODE(st.st_mode):04o})"
    return None


def _check_file(dfd: int, name: str) -> "str | None":
    """None when name in the directory dfd is a regular file of the caller's, writable by no one else."""
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=dfd)
    except FileNotFoundError:
        return "missing"
    except OSError as err:
        return "is a symlink" if err.errno == errno.ELOOP else f"cannot be opened ({err.strerror})"
    try:
        st = os.fstat(fd)
    finally:
        os.close(fd)
    if not stat.S_ISREG(st.st_mode):
        return "is not a regular file"
    return _not_private(st)


def _build_private(wasm: Path, cc: str, name: str) -> ctypes.CDLL:
    """Builds into a fresh 0700 directory of the caller's, loads, and removes it (the mapping stays)."""
    tmp = Path(tempfile.mkdtemp(prefix="sbx-engine-"))
    try:
        _build(wasm, cc, tmp, name)
        return ctypes.CDLL(str(tmp / name))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _build(wasm: Path, cc: str, where: Path, name: str) -> None:
    wasm2c = _tool("wasm2c", "wabt")
    compiler = _tool(cc, "gcc")
    # Half a minute of silence on first use would look like a hang: say what is happening, once.
    print(f"sbx_engine: compiling {wasm.name} with wasm2c and {cc} into {where} (once per engine build; some 30 s)", file=sys.stderr)
    with tempfile.TemporaryDirectory(dir=where) as tmp:
        c = Path(tmp) / "sbx.c"
        _run([wasm2c, str(wasm), "-n", "sbx", "-o", str(c)])
        so = Path(tmp) / "sbx.so"
        _run([compiler, "-O2", "-shared", "-fPIC", "-DWASM_RT_MEMCHECK_SIGNAL_HANDLER=0", f"-I{tmp}",
              str(c), str(RT), "-o", str(so)])
        os.chmod(so, 0o755)  # whatever the umask: group- or world-writable would fail the load's check
        os.replace(so, where / name)  # atomic: a concurrent build leaves one whole file


def _warn(text: str) -> None:
    print(f"sbx_engine: warning: {text}", file=sys.stderr)


def _run(argv: list) -> None:
    r = subprocess.run(argv, capture_output=True, text=True)
    if r.returncode != 0:
        raise EngineError("E_BUILD", f"{Path(argv[0]).name} failed building the engine (exit {r.returncode}): {r.stderr.strip()[:500]}")
