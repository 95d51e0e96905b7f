"""python -m sbx_engine verdict LOG [--json] [--exit N] [--signal SIG] [--timed-out] [--junit FILE] [--work DIR]

Prints what `sbx verdict --raw LOG` prints, byte for byte. Bad input: one line on stderr, exit 2."""
import argparse
import os
import re
import sys

from ._errors import EngineError
from ._signals import signal_number
from .engine import Engine, to_json

USAGE = "python -m sbx_engine verdict LOG [--json] [--exit N] [--signal SIG] [--timed-out] [--junit FILE] [--work DIR]"


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise EngineError("E_USAGE", f"{message}: usage: {USAGE}")


def main(argv=None, out=None) -> int:
    out = out or sys.stdout.buffer
    try:
        p = _Parser(prog="python -m sbx_engine", usage=USAGE, add_help=True)
        sub = p.add_subparsers(dest="command")
        v = sub.add_parser("verdict", usage=USAGE, help="turn a recorded log into a typed verdict")
        v.error = p.error
        v.add_argument("log", help="the log file, or - for standard input")
        v.add_argument("--json", action="store_true", help="print the sbx.run-result/1 envelope as JSON")
        v.add_argument("--exit", help="the command's exit code, when known")
        v.add_argument("--signal", help="the signal that killed the command (SIGSEGV or 11)")
        v.add_argument("--timed-out", action="store_true", help="the command was killed by a timeout")
        v.add_argument("--junit", help="a JUnit XML report of the same run: its tests replace those read off the log")
        v.add_argument("--work", help="the work tree the log ran in: its host path reads as /work (default: the tree of a log sbx run recorded, WORK/.sbx/logs/...)")
        args = p.parse_args(argv)
        if args.command != "verdict":
            raise EngineError("E_USAGE", f"give a command: usage: {USAGE}")
        exit_code = _exit(args.exit)
        if args.signal not in (None, "") and signal_number(args.signal) < 0:
            raise EngineError("E_USAGE", f"--signal {args.signal}: unknown signal; give a name such as SIGSEGV or a number 1-64")
        engine = Engine()
        opts = dict(exit=exit_code, signal=args.signal or None, timed_out=args.timed_out, work_alias=_work_of_log(args.log, args.work))
        if args.log == "-":
            env = engine.verdict(sys.stdin.buffer.read(), **opts)
        else:
            _check(args.log)
            env = engine.verdict_of_file(args.log, log=args.log, **opts)
        if args.junit:
            _check(args.junit)
            with open(args.junit, "rb") as f:
                xml = f.read()
            if not xml:
                raise EngineError("E_JUNIT_EMPTY", f"{args.junit} is empty: give the JUnit XML report the test run wrote (e.g. pytest --junitxml=report.xml)")
            try:
                env = engine.merge_junit(env, xml)
            except EngineError as e:
                if e.code == "E_JUNIT_INVALID":
                    raise EngineError(e.code, f"{args.junit}: {e}") from None
                raise
        if env["verdict"]["raw_bytes"] == 0:
            src = "standard input" if args.log == "-" else args.log
            sys.stderr.write(f"sbx: note: {src} is empty; the verdict rests on the exit status alone\n")
        out.write((to_json(env) + "\n").encode("utf-8") if args.json else engine.render(env).encode("utf-8"))
        out.flush()
        return 0
    except EngineError as e:
        sys.stderr.write(f"sbx: {e}\n")
        return 2


def _exit(s):
    if s is None or s == "":
        return None
    if not re.fullmatch(r"-?\d+", s) or not -2147483648 <= int(s) <= 2147483647:
        raise EngineError("E_USAGE", f"--exit {s}: not an exit code; give an integer such as 0 or 2")
    return int(s)


def _work_of_log(log, work):
    """The work dir whose host path reads as /work, as `sbx verdict` finds it: --work, else the tree of a log
    `sbx run` recorded (WORK/.sbx/logs/ID.log), else None."""
    if not work and log != "-":
        logs = os.path.dirname(os.path.abspath(log))
        state = os.path.dirname(logs)
        if os.path.basename(logs) == "logs" and os.path.basename(state) == ".sbx":
            work = os.path.dirname(state)
    return os.path.realpath(os.path.abspath(work)) if work else None


def _check(path):
    if os.path.isdir(path):
        raise EngineError("E_LOG_DIR", f"cannot read {path}: it is a directory; give the log file itself")
    if not os.path.exists(path):
        raise EngineError("E_ENOENT", f"cannot read {path}: no such file; check the path (relative paths start from the current directory)")
    if not os.access(path, os.R_OK):
        raise EngineError("E_EACCES", f"cannot read {path}: permission denied; check the file mode or run as its owner")


if __name__ == "__main__":
    sys.exit(main())
