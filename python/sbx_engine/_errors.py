class EngineError(Exception):
    """One error class with a code, as sbx's SbxError: the message says what, why and what to do."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
