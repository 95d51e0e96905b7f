"""A mini-SWE-agent environment that runs every action in sbx's sandbox and answers with its verdict.

Select it in a mini-SWE-agent 2.x config (see sbx.yaml beside this file) with this directory on
PYTHONPATH:

    environment:
      environment_class: sbx_environment.SbxEnvironment

What the model sees for an action is what `sbx run` prints: the verdict (status, crash and first user
frame, failing tests, the delta against the last run of the same command, the raw log's path), not the raw
output. Two exceptions, both so that the agent keeps working as with mini-SWE-agent's LocalEnvironment:

- a passing command with a short output (`cat`, `ls`, `grep`, `sed -n`: up to `raw_output_limit`
  characters, by default the 10 000 at which mini.yaml's observation template starts eliding) is returned
  as is, so the model can read files;
- the submit command (first output line COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT, exit 0) gets its raw
  output, read back from sbx's log, so mini-SWE-agent's Submitted carries the real submission.

Transport: by default (`transport: mcp`) the environment keeps one `sbx mcp --as-sbx-run` server up for the
session (started on the first action, closed by close(), on garbage collection and at exit) and sends each
action to its `run` tool, which saves each action a new Node process (about a quarter of a second). The
answer is the same as `sbx run`'s. An action the tool cannot express (`env` or `sbx_args` set, a timeout
over 3600 s, an empty command) goes through `sbx run`, as does every action with `transport: cli`; so
does the rest of the session when the server cannot be started again after it died (said once on stderr).

The interface is mini-SWE-agent 2.x's (`execute(action, cwd="", *, timeout=None)` with action
`{"command": ...}`, returning `{output, returncode, exception_info}`; `get_template_vars()`, `serialize()`),
taken from its LocalEnvironment (SWE-agent/mini-swe-agent, src/minisweagent/environments/local.py).
"""

from __future__ import annotations

import atexit
import dataclasses
import json
import os
import platform
import select
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import weakref
from typing import Any

SUBMIT_SENTINEL = "COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT"

# How long past `--timeout` to wait for sbx itself before killing it: sbx stops the sandbox at the
# timeout and then renders the verdict, which takes well under a second; this only guards against a hung sbx.
_SBX_GRACE_S = 30

# The MCP run tool's limits (src/integrations/mcp/schemas.ts): an action outside them goes through sbx run.
_MCP_MAX_TIMEOUT = 3600
_MCP_PROTOCOL = "2025-06-18"
# How long the server may take to start and answer initialize (a cold Node, the SDK loaded).
_MCP_START_S = 30


@dataclasses.dataclass
class SbxEnvironmentConfig:
    cwd: str = ""
    """Work dir, mounted read-write at /work in the sandbox (default: the process's current dir)."""
    env: dict[str, str] = dataclasses.field(default_factory=dict)
    """Variables set in the sandbox (`sbx run --env K=V`), on top of sbx's fixed environment."""
    timeout: int = 30
    """Seconds before the whole sandbox is killed (`sbx run --timeout`), unless execute() gives one."""
    sbx_command: str | list[str] = "sbx"
    """How to start sbx: `sbx` on PATH, or e.g. `node /path/to/sbx/dist/cli.js` (a string is split like a shell would)."""
    sbx_args: list[str] = dataclasses.field(default_factory=list)
    """More `sbx run` flags, e.g. ["--net"] or ["--memory", "2048"]."""
    shell: str = "bash"
    """The shell the action runs in, inside the sandbox (`sbx run -- SHELL -c ACTION`)."""
    raw_output_limit: int = 10000
    """A passing command's output up to this many characters is returned as is; 0: always the verdict."""
    transport: str = "mcp"
    """"mcp": one resident `sbx mcp` server for the session; "cli": a new `sbx run` process per action."""

    def model_dump(self, mode: str = "python") -> dict[str, Any]:
        """The config as a dict, under the name pydantic gives it (mini-SWE-agent calls config.model_dump())."""
        return dataclasses.asdict(self)


class SbxEnvironment:
    def __init__(self, *, config_class: type = SbxEnvironmentConfig, **kwargs):
        fields = {f.name for f in dataclasses.fields(config_class)}
        unknown = sorted(set(kwargs) - fields)
        if unknown:
            # LocalEnvironmentConfig (pydantic) ignores keys it does not know, and shared configs carry some
            # (templates meant for another section): ignore them too, but say so, for the typo's sake.
            print(f"sbx environment: ignoring unknown setting {', '.join(unknown)} (known: {', '.join(sorted(fields))})", file=sys.stderr)
        self.config = config_class(**{k: v for k, v in kwargs.items() if k in fields})
        if self.config.transport not in ("mcp", "cli"):
            raise ValueError(f"sbx environment: transport is {self.config.transport!r}: give \"mcp\" (one resident sbx mcp server) or \"cli\" (sbx run per action)")
        self._sbx = _sbx_argv(self.config.sbx_command)
        self._server: _McpServer | None = None
        self._mcp_failed = self.config.transport == "cli"

    def execute(self, action: dict | str, cwd: str = "", *, timeout: int | None = None) -> dict[str, Any]:
        """Run the action in sbx's sandbox; return {output, returncode, exception_info} like LocalEnvironment."""
        # mini-SWE-agent 2.x passes {"command": ...}; 1.x passed the command string itself.
        command = action.get("command", "") if isinstance(action, dict) else str(action)
        work = cwd or self.config.cwd or os.getcwd()
        limit = timeout or self.config.timeout
        if self._mcp_expressible(command, limit):
            result = self._run_mcp(command, work, limit)
            if result is not None:
                return self._answer(command, work, limit, *result)
        return self._execute_cli(command, work, limit)

    def close(self) -> None:
        """Stop the resident sbx mcp server, if one is up (also done on garbage collection and at exit)."""
        server, self._server = getattr(self, "_server", None), None
        if server is not None:
            server.close()

    def cleanup(self) -> None:
        """The name mini-SWE-agent's own environments give their clean-up."""
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:  # at interpreter exit modules may be gone; atexit has closed the server then
            pass

    def _mcp_expressible(self, command: str, limit: Any) -> bool:
        """Whether the MCP run tool ({command, work, timeout}) can say what this action needs."""
        c = self.config
        return (
            not self._mcp_failed and not c.env and not c.sbx_args and c.shell == "bash" and command != ""
            and isinstance(limit, int) and not isinstance(limit, bool) and 1 <= limit <= _MCP_MAX_TIMEOUT
        )

    def _run_mcp(self, command: str, work: str, limit: int) -> tuple[dict, str] | None:
        """The run tool's structured result and text, or None when the action must go through sbx run: the
        server refused it (sbx run then says why, with its exit code), or it died twice (then for the rest of
        the session). A server that died is started again once and the action sent again: its sandbox died
        with it (the launcher's PR_SET_PDEATHSIG)."""
        args = {"command": command, "work": os.path.abspath(work), "timeout": limit}
        if self._server is None and not os.path.isdir(args["work"]):
            return None  # no dir to start the server in: sbx run says what is wrong
        for attempt in range(2):
            try:
                if self._server is None:
                    # Started in the work dir: the server's tools reach only the dir it was started in and below
                    # (a work dir elsewhere later is refused, and that action goes through sbx run).
                    self._server = _McpServer([*self._sbx, "mcp", "--as-sbx-run"], cwd=args["work"])
                result = self._server.call("run", args, limit + _SBX_GRACE_S)
            except _ServerGone as e:
                self.close()
                if attempt == 1:
                    self._mcp_failed = True
                    print(f"sbx environment: the sbx mcp server failed again ({e}): running the rest of the session with sbx run per action", file=sys.stderr)
                continue
            if result.get("isError") or not isinstance(result.get("structuredContent"), dict):
                return None
            text = "".join(c.get("text", "") for c in result.get("content", []) if isinstance(c, dict))
            return result["structuredContent"], text
        return None

    def _answer(self, command: str, work: str, limit: int, sc: dict, text: str) -> dict[str, Any]:
        """execute()'s dict from the run tool's result, as _execute_cli makes it from sbx run's."""
        log = sc.get("log")
        facts = {"status": sc.get("status"), "log": log, "delta": sc.get("delta")}
        verdict = _inside(sc.get("verdict", text), log, work)
        if sc.get("status") == "timeout":
            output = _failure(command, verdict, subprocess.TimeoutExpired(command, limit))
            output["extra"]["sbx"] = facts
            return output
        code = _mirror_exit(sc)
        output = {"output": verdict, "returncode": code, "exception_info": "", "extra": {"sbx": facts}}
        if code == 0:
            raw = _raw_output(log, self.config.raw_output_limit if sc.get("status") == "pass" else 0)
            if raw is not None:
                output["output"] = raw
        self._check_finished(output)
        return output

    def _execute_cli(self, command: str, work: str, limit: int) -> dict[str, Any]:
        """The action as one `sbx run` process: --envelope gives the facts beside the printed verdict."""
        with tempfile.TemporaryDirectory(prefix="sbx-msa-") as tmp:
            envelope_path = os.path.join(tmp, "envelope.json")
            argv = [
                *self._sbx, "run", "--work", work, "--timeout", str(limit), "--envelope", envelope_path,
                *[a for k, v in self.config.env.items() for a in ("--env", f"{k}={v}")],
                *self.config.sbx_args,
                "--", self.config.shell, "-c", command,
            ]
            try:
                code, stdout, stderr = _run(argv, limit + _SBX_GRACE_S)
            except subprocess.TimeoutExpired as e:
                output = _failure(command, "", e)
                self._check_finished(output)
                return output
            except OSError as e:
                return _failure(command, "", e)
            envelope = _read_json(envelope_path)
        if envelope is None:
            # sbx refused before running anything (a bad flag, a missing work dir, ...): its one line on stderr.
            why = stderr.strip() or stdout.strip() or f"sbx exited {code}"
            return _failure(command, why, SbxRefused(f"sbx refused to run the command (exit {code}): {why}"))
        outcome = envelope.get("outcome", {})
        verdict = envelope.get("verdict", {})
        if outcome.get("timed_out"):
            # What LocalEnvironment returns when subprocess times out, with the verdict as the output.
            output = _failure(command, _inside(stdout, envelope.get("log"), work), subprocess.TimeoutExpired(command, limit))
            output["extra"]["sbx"] = _facts(envelope)
            return output
        output = {"output": _inside(stdout, envelope.get("log"), work), "returncode": code, "exception_info": "", "extra": {"sbx": _facts(envelope)}}
        if code == 0:
            raw = _raw_output(envelope.get("log"), self.config.raw_output_limit if verdict.get("status") == "pass" else 0)
            if raw is not None:
                output["output"] = raw
        self._check_finished(output)
        return output

    def _check_finished(self, output: dict) -> None:
        """Raise mini-SWE-agent's Submitted when the output is the submit command's, as LocalEnvironment does."""
        lines = output.get("output", "").lstrip().splitlines(keepends=True)
        if lines and lines[0].strip() == SUBMIT_SENTINEL and output["returncode"] == 0:
            submission = "".join(lines[1:])
            raise _submitted_class()(
                {
                    "role": "exit",
                    "content": submission,
                    "extra": {"exit_status": "Submitted", "submission": submission},
                }
            )

    def get_template_vars(self, **kwargs) -> dict[str, Any]:
        # As LocalEnvironment: the config, the machine (the sandbox shares the host's kernel), the environment
        # variables and the caller's, later ones winning.
        return {**self.config.model_dump(), **platform.uname()._asdict(), **os.environ, **kwargs}

    def serialize(self) -> dict:
        return {
            "info": {
                "config": {
                    "environment": self.config.model_dump(mode="json"),
                    "environment_type": f"{self.__class__.__module__}.{self.__class__.__name__}",
                }
            }
        }


class SbxRefused(Exception):
    """sbx did not run the command (bad input, a machine that cannot sandbox, ...): the reason is its message."""


class _SubmittedStandIn(Exception):
    """Only for running this file without mini-SWE-agent installed (sbx's own test does): the same
    constructor and `messages` attribute as minisweagent.exceptions.Submitted. With mini-SWE-agent present the
    real class is raised, so its agent loop recognises the submission."""

    def __init__(self, *messages: dict):
        self.messages = messages
        super().__init__()


def _submitted_class() -> type:
    try:
        from minisweagent.exceptions import Submitted
    except ImportError:
        return _SubmittedStandIn
    return Submitted


def _sbx_argv(spec: str | list[str]) -> list[str]:
    argv = shlex.split(spec) if isinstance(spec, str) else [str(a) for a in spec]
    if not argv:
        raise ValueError("sbx environment: sbx_command is empty: give `sbx` or `node /path/to/sbx/dist/cli.js`")
    if shutil.which(argv[0]) is None:
        raise ValueError(
            f"sbx environment: {argv[0]!r} (sbx_command) was not found on PATH: run `npm link` in the sbx checkout, "
            "or set sbx_command to `node /path/to/sbx/dist/cli.js`"
        )
    return argv


def _run(argv: list[str], timeout: float) -> tuple[int, str, str]:
    """Run sbx; on timeout kill its whole process group (as LocalEnvironment does) and raise TimeoutExpired."""
    proc = subprocess.Popen(
        argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8", errors="replace",
        start_new_session=True,
    )
    try:
        stdout, stderr = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        stdout, _ = proc.communicate()
        raise subprocess.TimeoutExpired(argv, timeout, output=stdout)
    return proc.returncode, stdout, stderr


class _ServerGone(Exception):
    """The sbx mcp server could not be started, died, closed its output or did not answer in time."""


class _McpServer:
    """One `sbx mcp` subprocess spoken to as the MCP stdio transport defines: JSON-RPC 2.0 messages, one per
    line, on its stdin and stdout. Started with the initialize request and the initialized notification;
    closed by close(), and at exit for a server still up then (a weak reference: the atexit entry does not
    keep the environment alive)."""

    def __init__(self, argv: list[str], cwd: str | None = None):
        self._next_id = 0
        self._buf = b""
        # Its own session, as sbx run's processes: killing the group takes the sandbox of a call under way with it.
        # stderr goes to a file, not a pipe nobody reads (a full pipe would stop the server).
        self._stderr = tempfile.TemporaryFile()
        try:
            self._proc = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr, start_new_session=True)
        except OSError as e:
            self._stderr.close()
            raise _ServerGone(f"{argv[0]}: {e.strerror or e}") from None
        atexit.register(_close_at_exit, weakref.ref(self))
        try:
            init = self.call_method("initialize", {
                "protocolVersion": _MCP_PROTOCOL, "capabilities": {},
                "clientInfo": {"name": "sbx-mini-swe-agent", "version": "1"},
            }, _MCP_START_S)
            if "error" in init:
                raise _ServerGone(f"initialize failed: {init['error'].get('message', init['error'])}")
            self._send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        except _ServerGone:
            self.close()
            raise

    @property
    def pid(self) -> int:
        return self._proc.pid

    def call(self, tool: str, arguments: dict, timeout: float) -> dict:
        """tools/call: the result object. A JSON-RPC error counts as a refusal (isError)."""
        answer = self.call_method("tools/call", {"name": tool, "arguments": arguments}, timeout)
        if "error" in answer:
            return {"isError": True, "content": [{"type": "text", "text": str(answer["error"].get("message", ""))}]}
        result = answer.get("result")
        if not isinstance(result, dict):
            raise _ServerGone("an answer without a result")
        return result

    def call_method(self, method: str, params: dict, timeout: float) -> dict:
        """Send one request and wait for the response with its id, at most `timeout` seconds."""
        self._next_id += 1
        rid = self._next_id
        self._send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        deadline = time.monotonic() + timeout
        while True:
            message = self._read(deadline)
            if message.get("id") == rid and ("result" in message or "error" in message):
                return message
            if "method" in message and "id" in message:
                # A request from the server (ping, or one for a capability this client did not declare).
                if message["method"] == "ping":
                    self._send({"jsonrpc": "2.0", "id": message["id"], "result": {}})
                else:
                    self._send({"jsonrpc": "2.0", "id": message["id"], "error": {"code": -32601, "message": "method not found"}})
            # Anything else (a notification, a response to another id) is not this call's answer.

    def _send(self, message: dict) -> None:
        if self._exited():
            raise self._gone()
        try:
            self._proc.stdin.write(json.dumps(message, separators=(",", ":")).encode("utf-8") + b"\n")
            self._proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise _ServerGone(f"its input is closed{self._last_err()}") from None

    def _read(self, deadline: float) -> dict:
        """The next JSON-RPC message on the server's stdout; lines that are not JSON objects are skipped."""
        fd = self._proc.stdout.fileno()
        while True:
            while b"\n" in self._buf:
                line, self._buf = self._buf.split(b"\n", 1)
                try:
                    message = json.loads(line)
                except ValueError:
                    continue
                if isinstance(message, dict):
                    return message
            left = deadline - time.monotonic()
            if left <= 0:
                self.close()
                raise _ServerGone("no answer in time")
            try:
                ready, _, _ = select.select([fd], [], [], left)
            except InterruptedError:
                continue
            if not ready:
                continue
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                raise self._gone()
            self._buf += chunk

    def _exited(self) -> bool:
        """Whether the server has exited, without reaping it (its pid keeps naming its group until then)."""
        try:
            return os.waitid(os.P_PID, self._proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
        except ChildProcessError:
            return True

    def _gone(self) -> _ServerGone:
        """The server died (killed, crashed, closed its output): its group is killed too (a helper it had
        started lingers otherwise), then it is reaped; the error says how it went."""
        self._stop()
        return _ServerGone(f"it exited {self._proc.returncode}{self._last_err()}")

    def _last_err(self) -> str:
        """The last line the server wrote on stderr, to say why it went."""
        try:
            self._stderr.seek(0)
            lines = self._stderr.read().decode("utf-8", "replace").strip().splitlines()
        except (OSError, ValueError):
            return ""
        return f": {lines[-1]}" if lines else ""

    def close(self) -> None:
        """Stop the server (_stop) and close the files kept for it."""
        self._stop()
        for f in (getattr(self, "_proc", None) and self._proc.stdout, self._stderr):
            try:
                if f is not None:
                    f.close()
            except OSError:
                pass

    def _stop(self) -> None:
        """Close its stdin (the server stops at end of input), wait, kill its group, reap it: no process and
        no zombie is left."""
        proc = getattr(self, "_proc", None)
        if proc is None or proc.returncode is not None:
            return  # never started, or stopped before
        try:
            proc.stdin.close()
        except OSError:
            pass
        # At the end of its input the server stops; wait for that without reaping it, then kill its group
        # (a sandbox of a call under way, a helper left behind): until it is reaped, its pid names only its own group.
        deadline = time.monotonic() + 2
        while not self._exited() and time.monotonic() < deadline:
            time.sleep(0.02)
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        proc.wait()
        # SIGKILL is delivered, not waited for: give the rest of the group a moment to be gone, so that close()
        # returns with nothing of the server still running. A zombie left (a member that ended after the
        # server, now the machine's init's to reap) runs nothing: it is not waited for.
        deadline = time.monotonic() + 1
        while time.monotonic() < deadline and _group_runs(proc.pid):
            time.sleep(0.01)


def _group_runs(pgid: int) -> bool:
    """Whether a process of group pgid still runs (zombies do not); kill(0) cannot tell a zombie apart."""
    try:
        os.killpg(pgid, 0)
    except (ProcessLookupError, PermissionError):
        return False
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", encoding="utf-8") as f:
                state, _, group_id = f.read().rsplit(")", 1)[1].split()[:3]
        except (OSError, ValueError):
            continue
        if int(group_id) == pgid and state != "Z":
            return True
    return False


def _close_at_exit(ref: "weakref.ref[_McpServer]") -> None:
    server = ref()
    if server is not None:
        server.close()


def _mirror_exit(sc: dict) -> int:
    """The exit code sbx run would have exited with (mirrorExit in src/host/run.ts): the command's own,
    128+N when a signal killed it; for a set-up failure the one sbx gave it (127, 126, 125)."""
    code = sc.get("exit_code")
    if isinstance(code, int):
        return code
    sig = sc.get("signal")
    if sig:
        try:
            return 128 + signal.Signals[sig if str(sig).startswith("SIG") else f"SIG{sig}"].value
        except KeyError:
            return 128
    return 0 if sc.get("status") == "pass" else 1


def _failure(command: str, output: str, e: Exception) -> dict[str, Any]:
    """LocalEnvironment's answer when running the command raised (timeout included): returncode -1."""
    return {
        "output": output,
        "returncode": -1,
        "exception_info": f"An error occurred while executing the command: {e}",
        "extra": {"exception_type": type(e).__name__, "exception": str(e)},
    }


def _facts(envelope: dict) -> dict[str, Any]:
    """The few envelope facts kept in the trajectory (observation messages carry `extra`)."""
    verdict = envelope.get("verdict", {})
    return {"status": verdict.get("status"), "log": envelope.get("log"), "delta": (envelope.get("delta") or {}).get("summary")}


def _inside(text: str, log: str | None, work: str) -> str:
    """The verdict with its log path as the model's commands see it: they run in the sandbox, where the
    work dir is /work (the host path would not exist there). A log outside the work dir stays as it is."""
    if not log:
        return text
    rel = os.path.relpath(log, os.path.realpath(work))
    return text if rel.startswith("..") else text.replace(log, f"/work/{rel}")


def _raw_output(log: str | None, limit: int) -> str | None:
    """The command's raw output from sbx's log when the model should get it as is: it is the submit
    command's, or it has at most `limit` characters. None otherwise (the model gets the verdict)."""
    if not log:
        return None
    try:
        with open(log, encoding="utf-8", errors="replace") as f:
            head = f.read(max(limit, 4096) + 1)  # enough for the sentinel line behind some blank lines
            lines = head.lstrip().splitlines()
            if lines and lines[0].strip() == SUBMIT_SENTINEL:
                return head + f.read()
    except OSError:
        return None
    return head if len(head) <= limit else None


def _read_json(path: str) -> dict | None:
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None
