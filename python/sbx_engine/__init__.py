"""sbx's verdict engine for Python: the same Wasm module as the Node CLI and the browser, byte-identical
output. `python -m sbx_engine verdict LOG [--json]`, or:

    from sbx_engine import Engine
    env = Engine().verdict_of_file("build.log", exit=1, log="build.log")
"""
from ._errors import EngineError
from .engine import Engine, envelope, to_json

__all__ = ["Engine", "EngineError", "envelope", "to_json"]
