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

The interface is mini-SWE-agent 2.x's (`execute(action, cwd="", *, timeout=None)` with action
`{"command": ...}`, returning `{output, returncode, exception_info}`; `get_template_vars()`, `serialize()`),
taken from its LocalEnvironment (SWE-agent/mini-swe-agent, src/minisweagent/environments/local.py).
"""

from __future__ import annotations

import dataclasses
import json
import os
import platform
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
from typing import Any

SUBMIT_SENTINEL = "COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT"

# How long past `--timeout` to wait for sbx itself before killing it: sbx stops the sandbox at the
# timeout and then renders the verdict, which takes well under a second; this only guards against a hung sbx.
_SBX_GRACE_S = 30


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
        self._sbx = _sbx_argv(self.config.sbx_command)

    def execute(self, action: dict | str, cwd: str = "", *, timeout: int | None = None) -> dict[str, Any]:
        """Run the action in sbx's sandbox; return {output, returncode, exception_info} like LocalEnvironment."""
        # mini-SWE-agent 2.x passes {"command": ...}; 1.x passed the command string itself.
        command = action.get("command", "") if isinstance(action, dict) else str(action)
        work = cwd or self.config.cwd or os.getcwd()
        limit = timeout or self.config.timeout
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
