"""Builds the native engine: build/sbx.wasm through wasm2c (Debian's wabt) and the C compiler into a
shared object, cached by the hash of its inputs, so every later load is a dlopen."""
import hashlib
import os
import shutil
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


def shared_object(wasm: Path) -> Path:
    if not wasm.is_file():
        raise EngineError("E_NO_WASM", f"no engine at {wasm}: run npm run build in the sbx checkout, or set SBX_WASM to sbx.wasm")
    cc = os.environ.get("CC", "cc")
    key = hashlib.sha256(wasm.read_bytes() + RT.read_bytes() + cc.encode()).hexdigest()[:20]
    out = cache_dir() / f"sbx-engine-{key}.so"
    if out.is_file():
        return out
    wasm2c = _tool("wasm2c", "wabt")
    compiler = _tool(cc, "gcc")
    out.parent.mkdir(parents=True, exist_ok=True)
    # Half a minute of silence on first use would look like a hang: say what is happening, once.
    print(f"sbx_engine: compiling {wasm.name} with wasm2c and {cc} into {out.parent} (once per engine build; some 30 s)", file=sys.stderr)
    with tempfile.TemporaryDirectory(dir=out.parent) as tmp:
        c = Path(tmp) / "sbx.c"
        _run([wasm2c, str(wasm), "-n", "sbx", "-o", str(c)])
        so = Path(tmp) / "sbx.so"
        _run([compiler, "-O2", "-shared", "-fPIC", "-DWASM_RT_MEMCHECK_SIGNAL_HANDLER=0", f"-I{tmp}",
              str(c), str(RT), "-o", str(so)])
        os.replace(so, out)  # atomic: a concurrent build leaves one whole file
    return out


def _run(argv: list) -> None:
    r = subprocess.run(argv, capture_output=True, text=True)
    if r.returncode != 0:
        raise EngineError("E_BUILD", f"{Path(argv[0]).name} failed building the engine (exit {r.returncode}): {r.stderr.strip()[:500]}")
