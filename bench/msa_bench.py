"""bench/integrations.js's helper for sbx's mini-SWE-agent environment: what SbxEnvironment.execute() returns
against what the same command prints when run plainly, and what execute() costs against that plain run.

The plain run is a baseline written here after mini-SWE-agent 2.x's LocalEnvironment.execute()
(src/minisweagent/environments/local.py: subprocess.run(command, shell=True, text=True, cwd=cwd,
stdout=PIPE, stderr=STDOUT, ...)), not LocalEnvironment itself: mini-SWE-agent is on PyPI only, which this
workplace cannot reach.

Input on stdin: {"module_dir", "sbx_command": [...], "raw_dir", "sbx_dir", "cli_dir", "calls": [commands],
"timed": [commands], "runs": N}. raw_dir, sbx_dir and cli_dir are fresh copies of the same projects: each call
runs once in each, in order (the bytes; as a session would, the first make builds): plainly, through execute()
with transport mcp (one resident sbx mcp server) and with transport cli (sbx run per action); then each timed
command runs runs + 2 times each way, interleaved, the first two rounds dropped.
Output on stdout: {"path": the sandbox's PATH, "bytes": [{"command", "raw", "mcp", "cli", "raw_code", "mcp_code",
"cli_code"}], "ms": {command: {"plain": [...], "mcp": [...], "cli": [...]}}}. With SBX_INTEG_DUMP=DIR, the
outputs of each call go to DIR/msa-N.txt."""
import json
import os
import subprocess
import sys
import time


def plain(command: str, cwd: str, path: str) -> dict:
    """The command as LocalEnvironment runs it: a host shell, stdout and stderr in one pipe. PATH is the
    sandbox's, so that both sides run the same programs (on a host whose PATH starts with, say, a pyenv shim,
    `python3` would otherwise be another interpreter with other plugins: 3 s per pytest run against 0.7 s)."""
    r = subprocess.run(
        command, shell=True, text=True, cwd=cwd, env={**os.environ, "PATH": path}, timeout=60,
        encoding="utf-8", errors="replace", stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
    )
    return {"output": r.stdout, "returncode": r.returncode}


def timed(f) -> float:
    t = time.perf_counter_ns()
    f()
    return (time.perf_counter_ns() - t) / 1e6


def main() -> None:
    spec = json.load(sys.stdin)
    sys.path.insert(0, spec["module_dir"])
    from sbx_environment import SbxEnvironment

    envs = {
        "mcp": SbxEnvironment(sbx_command=spec["sbx_command"], cwd=spec["sbx_dir"], transport="mcp"),
        "cli": SbxEnvironment(sbx_command=spec["sbx_command"], cwd=spec["cli_dir"], transport="cli"),
    }
    size = lambda out: len(out["output"].encode("utf-8"))
    path = envs["cli"].execute({"command": 'printf %s "$PATH"'})["output"]  # a short passing output comes back as is
    rows = []
    for command in spec["calls"]:
        a = plain(command, spec["raw_dir"], path)
        b = {k: e.execute({"command": command}) for k, e in envs.items()}
        rows.append({
            "command": command, "raw": size(a), "raw_code": a["returncode"],
            **{k: size(o) for k, o in b.items()}, **{f"{k}_code": o["returncode"] for k, o in b.items()},
        })
        if os.environ.get("SBX_INTEG_DUMP"):
            with open(os.path.join(os.environ["SBX_INTEG_DUMP"], f"msa-{len(rows)}.txt"), "w", encoding="utf-8") as f:
                f.write(f"$ {command}\n--- plain (exit {a['returncode']})\n{a['output']}")
                for k, o in b.items():
                    f.write(f"\n--- execute(), transport {k} (returncode {o['returncode']})\n{o['output']}")
    ms = {c: {"plain": [], "mcp": [], "cli": []} for c in spec["timed"]}
    for i in range(spec["runs"] + 2):
        for command in spec["timed"]:
            t = {"plain": timed(lambda: plain(command, spec["raw_dir"], path))}
            for k, e in envs.items():
                t[k] = timed(lambda: e.execute({"command": command}))
            if i >= 2:  # two warm-up rounds
                for k, x in t.items():
                    ms[command][k].append(x)
    for e in envs.values():
        e.close()
    json.dump({"path": path, "bytes": rows, "ms": ms}, sys.stdout)


if __name__ == "__main__":
    main()
