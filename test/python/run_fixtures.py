"""Test driver: runs `python -m sbx_engine verdict ...` (its main(), in one process) over the cases given
as JSON on stdin, and prints {id: {json, text}} with each output's bytes as base64."""
import base64
import io
import json
import sys

from sbx_engine.__main__ import main

out = {}
for c in json.load(sys.stdin):
    res = {}
    for mode in ("json", "text"):
        buf = io.BytesIO()
        code = main(c["argv"] + (["--json"] if mode == "json" else []), out=buf)
        res[mode] = base64.b64encode(buf.getvalue()).decode() if code == 0 else f"exit {code}"
    out[c["id"]] = res
json.dump(out, sys.stdout)
