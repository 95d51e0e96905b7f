"""sbx's Wasm verdict engine in Python: the same build/sbx.wasm the Node and browser hosts run, compiled
by wasm2c and called through ctypes. Bytes in, bytes out; the JSON it returns is serialised the way
JavaScript's JSON.stringify does, so the envelope and the rendered text are byte-identical to Node's."""
import ctypes
import json
from pathlib import Path

from ._build import default_wasm, load_library
from ._errors import EngineError
from ._signals import signal_number
from ._work_alias import alias_rewriter, through_alias

CHUNK = 1 << 20
F_ALLOC, F_BEGIN, F_FEED, F_FINISH, F_RENDER, F_JUNIT, F_JUNIT_MERGE, F_DELTA, F_OUTPUT, F_SETUP_FAILED = range(10)
TRAPS = {1: "out-of-bounds memory access", 2: "integer overflow", 3: "division by zero", 4: "invalid conversion",
         5: "unreachable", 6: "indirect call to a wrong type", 8: "call stack exhausted", -1: "abort"}


def to_json(value) -> str:
    """JSON.stringify(value) for the engine's JSON (objects, arrays, strings, integers, booleans, null)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def envelope(verdict: dict, log) -> dict:
    return {"schema": "sbx.run-result/1", "outcome": None, "verdict": verdict, "delta": None, "log": log}


class Engine:
    def __init__(self, wasm=None):
        lib = load_library(Path(wasm) if wasm else default_wasm())
        lib.sbx_new.restype = ctypes.c_void_p
        lib.sbx_new.argtypes = [ctypes.POINTER(ctypes.c_int)]
        lib.sbx_free.argtypes = [ctypes.c_void_p]
        lib.sbx_call.restype = ctypes.c_int
        lib.sbx_call.argtypes = [ctypes.c_void_p, ctypes.c_int] + [ctypes.c_uint32] * 4 + [ctypes.POINTER(ctypes.c_uint32)]
        lib.sbx_memory.restype = ctypes.c_void_p
        lib.sbx_memory.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_uint32)]
        lib.sbx_abort_args.argtypes = [ctypes.POINTER(ctypes.c_uint32 * 4)]
        self._lib = lib
        self._x = None
        self._rw = None
        self._fresh()

    def _fresh(self):
        if self._x:
            self._lib.sbx_free(self._x)
        code = ctypes.c_int(0)
        self._x = self._lib.sbx_new(ctypes.byref(code))
        if not self._x:
            raise EngineError("E_ENGINE", f"the verdict engine could not start (trap {code.value}); this is a bug in sbx")

    def _call(self, fn, *args):
        a = [(int(v) & 0xFFFFFFFF) for v in args] + [0] * (4 - len(args))
        out = ctypes.c_uint32(0)
        code = self._lib.sbx_call(self._x, fn, *a, ctypes.byref(out))
        if code != 0:
            where = self._abort_text() if code == -1 else TRAPS.get(code, f"trap {code}")
            self._fresh()  # a trapped instance is in an unknown state: the next call gets a new one
            raise EngineError("E_ENGINE", f"verdict engine failed: {where}; this is a bug in sbx, please report it with the log")
        return out.value

    def _mem(self):
        size = ctypes.c_uint32(0)
        return self._lib.sbx_memory(self._x, ctypes.byref(size)), size.value

    def _write(self, data: bytes) -> None:
        ptr = self._call(F_ALLOC, len(data))
        base, size = self._mem()
        if ptr + len(data) > size:
            raise EngineError("E_ENGINE", "the engine gave a buffer outside its memory; this is a bug in sbx")
        ctypes.memmove(base + ptr, data, len(data))

    def _output(self, n: int) -> bytes:
        ptr = self._call(F_OUTPUT)
        base, size = self._mem()
        return ctypes.string_at(base + ptr, min(n, size - ptr))

    def _abort_text(self) -> str:
        args = (ctypes.c_uint32 * 4)()
        self._lib.sbx_abort_args(ctypes.byref(args))
        return f"abort at line {args[2]}:{args[3]}"

    # ---- the API, as src/engine/engine.ts ----

    def begin(self, exit=None, signal=None, timed_out=False, setup_error=None, interrupted=False, work_alias=None):
        """work_alias: the work dir's host path, which the sandbox shows besides /work: the log's paths under it
        read as /work's (work-relative in the verdict), and raw_bytes counts them so; setup_error's too: the same
        run at two host paths gives the same verdict (VerdictOptions.workAlias). Taken when the verdict begins."""
        sig = signal_number(signal)
        if sig < 0:
            raise EngineError("E_SIGNAL", f"unknown signal {json.dumps(signal)}: give a name such as SIGSEGV or a number 1-64")
        has_exit = isinstance(exit, int) and not isinstance(exit, bool)
        # stopped: bit 1 the host's time limit, bit 2 its caller (Ctrl-C: the status is interrupted).
        self._call(F_BEGIN, exit if has_exit else 0, 1 if has_exit else 0, sig, (1 if timed_out else 0) | (2 if interrupted else 0))
        self._rw = alias_rewriter(work_alias)
        if isinstance(setup_error, str):
            # sbx's own words read through the alias as the log does: the same set-up error at any host path.
            data = through_alias(work_alias, setup_error.encode("utf-8"))
            self._write(data)
            self._call(F_SETUP_FAILED, len(data))

    def push(self, chunk: bytes) -> None:
        if self._rw is not None:
            chunk = self._rw.push(chunk)
        self._feed(chunk)

    def _feed(self, chunk: bytes) -> None:
        for off in range(0, len(chunk), CHUNK):
            part = chunk[off:off + CHUNK]
            self._write(part)
            self._call(F_FEED, len(part))

    def end(self, log=None) -> dict:
        rw, self._rw = self._rw, None
        if rw is not None:
            self._feed(rw.end())
        n = self._call(F_FINISH)
        return envelope(json.loads(self._output(n).decode("utf-8", errors="replace")), log)

    def verdict(self, data: bytes, exit=None, signal=None, timed_out=False, log=None, setup_error=None, interrupted=False, work_alias=None) -> dict:
        self.begin(exit, signal, timed_out, setup_error, interrupted, work_alias)
        self.push(data)
        return self.end(log)

    def verdict_of_file(self, path, exit=None, signal=None, timed_out=False, log=None, setup_error=None, interrupted=False, work_alias=None) -> dict:
        self.begin(exit, signal, timed_out, setup_error, interrupted, work_alias)
        with open(path, "rb") as f:
            while True:
                chunk = f.read(CHUNK)
                if not chunk:
                    break
                self.push(chunk)
        return self.end(log)

    def render(self, env: dict) -> str:
        data = to_json(env).encode("utf-8")
        self._write(data)
        n = self._call(F_RENDER, len(data))
        return self._output(n).decode("utf-8", errors="replace")

    def merge_junit(self, env: dict, xml: bytes) -> dict:
        head = to_json(env["verdict"]).encode("utf-8")
        self._write(head + xml)
        n = self._call(F_JUNIT_MERGE, len(head), len(xml))
        if n >= 1 << 31:  # a negative i32: the report is not JUnit XML, the reason is in the output
            why = json.loads(self._output((1 << 32) - n).decode("utf-8", errors="replace"))["error"]
            raise EngineError("E_JUNIT_INVALID", f"{why}; give the XML file the test run wrote (e.g. pytest --junitxml=report.xml), not its console output")
        if n == 0:
            raise EngineError("E_ENGINE", "the verdict engine could not read the verdict to merge a JUnit report into; this is a bug in sbx")
        verdict = json.loads(self._output(n).decode("utf-8", errors="replace"))
        return {**env, "verdict": verdict}
