"""Signal names <-> numbers (Linux), as src/contract/signals.ts."""
import re

NAMES = [
    "", "SIGHUP", "SIGINT", "SIGQUIT", "SIGILL", "SIGTRAP", "SIGABRT", "SIGBUS", "SIGFPE", "SIGKILL",
    "SIGUSR1", "SIGSEGV", "SIGUSR2", "SIGPIPE", "SIGALRM", "SIGTERM", "SIGSTKFLT", "SIGCHLD", "SIGCONT",
    "SIGSTOP", "SIGTSTP", "SIGTTIN", "SIGTTOU", "SIGURG", "SIGXCPU", "SIGXFSZ", "SIGVTALRM", "SIGPROF",
    "SIGWINCH", "SIGIO", "SIGPWR", "SIGSYS",
]
ALIASES = {"SIGIOT": "SIGABRT", "SIGPOLL": "SIGIO", "SIGCLD": "SIGCHLD"}


def signal_number(sig) -> int:
    """11, "11", "SEGV", "SIGSEGV", "sigsegv" -> 11; anything else -> -1; None or "" -> 0 (no signal)."""
    if sig is None or sig == "":
        return 0
    if isinstance(sig, int) and not isinstance(sig, bool):
        return sig if 0 < sig < 65 else -1
    if not isinstance(sig, str):
        return -1
    if re.fullmatch(r"\d+", sig):
        return signal_number(int(sig))
    up = sig.upper()
    name = up if up.startswith("SIG") else "SIG" + up
    if re.fullmatch(r"SIG\d+", name):
        return signal_number(int(name[3:]))
    name = ALIASES.get(name, name)
    return NAMES.index(name) if name in NAMES and name else -1
