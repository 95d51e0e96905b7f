"""Drives sbx's mini-SWE-agent environment the way mini-SWE-agent 2.x's DefaultAgent does, with a scripted
model instead of an LM (mini-SWE-agent itself is on PyPI only, which CI cannot reach). The loop follows the
real source, read from SWE-agent/mini-swe-agent (public code, reference only, none of it copied):

- src/minisweagent/agents/default.py: run() repeats step() until the last message has role "exit"; step() is
  query() then execute_actions(), which calls env.execute(action) for each action of the model's message and
  adds the observation messages; an InterruptAgentFlow (Submitted) adds its e.messages instead;
- src/minisweagent/models/test_models.py (commit df90ae9d9f2b49fd9fda06ffa2f40ed786dfa61d): DeterministicModel
  parses actions with the regex ```mswea_bash_command ... ``` into [{"command": ...}], and renders each output
  with its action_observation_template (exception_info, returncode, output);
- src/minisweagent/exceptions.py (commit 2d4e3afff799a796acac5e2c84a88b12abf1b017): Submitted(*messages).

Input on stdin: {"module_dir", "env": {SbxEnvironment settings}, "outputs": [model replies], "timeouts": [...],
"kill_before": [action indexes: SIGKILL the resident sbx mcp server first], "close": false to leave it to atexit}.
Output on stdout: {"messages": [...], "outputs": [what execute() returned, one per action], "server_pids": [the
server's pid after each action, or null], "after_close": {pid: ["PID STATE COMM" of each process still running in its group]}}."""
import json
import os
import re
import signal
import sys
import time

ACTION_RE = r"```mswea_bash_command\s*\n(.*?)\n```"


def observation(output: dict) -> str:
    # DeterministicModel's default action_observation_template, written out in Python (no jinja2 in CI).
    text = f"<exception>{output['exception_info']}</exception>\n" if output.get("exception_info") else ""
    return text + f"<returncode>{output['returncode']}</returncode>\n<output>\n{output['output']}</output>"


def server_pid(env):
    # The environment's own state (a test driver may look): the resident server, if one is up.
    server = getattr(env, "_server", None)
    return server.pid if server is not None else None


def group(pgid: int) -> list[int]:
    """Processes whose process group is pgid (the server starts its own session) that still run. A zombie is
    not one: a process of the group that ended after the server did (the launcher reaping its sandbox) is
    reparented to the machine's init, which reaps it when it will (some container inits never do)."""
    out = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", encoding="utf-8") as f:
                comm, rest = f.read().split(" (", 1)[1].rsplit(")", 1)
        except OSError:
            continue
        state, _, group_id = rest.split()[:3]
        if int(group_id) == pgid and state != "Z":
            out.append(f"{name} {state} {comm}")
    return out


def main() -> None:
    spec = json.load(sys.stdin)
    sys.path.insert(0, spec["module_dir"])
    from sbx_environment import SbxEnvironment

    env = SbxEnvironment(**spec["env"])
    messages = [{"role": "system", "content": "scripted"}, {"role": "user", "content": "fix the bug"}]
    outputs = []
    replies = iter(spec["outputs"])
    timeouts = iter(spec.get("timeouts", []))
    kill_before = set(spec.get("kill_before", []))
    pids = []
    while messages[-1]["role"] != "exit":
        content = next(replies)
        actions = [{"command": a.strip()} for a in re.findall(ACTION_RE, content, re.DOTALL)]
        messages.append({"role": "assistant", "content": content, "extra": {"actions": actions}})
        try:
            for action in actions:
                t = next(timeouts, None)
                if len(outputs) in kill_before and server_pid(env):
                    os.kill(server_pid(env), signal.SIGKILL)
                    time.sleep(0.2)
                # DefaultAgent calls env.execute(action); a timeout argument is mini-SWE-agent's other form.
                out = env.execute(action) if t is None else env.execute(action, timeout=t)
                outputs.append(out)
                pids.append(server_pid(env))
                messages.append({"role": "user", "content": observation(out), "extra": {"returncode": out["returncode"]}})
        except Exception as e:  # InterruptAgentFlow: Submitted carries the exit message
            if not hasattr(e, "messages"):
                raise
            messages.extend(e.messages)
            pids.append(server_pid(env))
    after = {}
    if spec.get("close", True):
        env.close()
        after = {str(p): group(p) for p in set(pids) if p}
    json.dump({"messages": messages, "outputs": outputs, "serialized": env.serialize(), "server_pids": pids, "after_close": after}, sys.stdout)


if __name__ == "__main__":
    main()
