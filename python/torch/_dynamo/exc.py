"""torch._dynamo.exc: why a frame could not be captured whole."""


class TorchDynamoException(RuntimeError):
    pass


class Unsupported(TorchDynamoException):
    """Something the capture cannot follow: with fullgraph=False the graph breaks there; with
    fullgraph=True it is raised to the caller."""

    def __init__(self, msg, user_stack=None):
        super().__init__(msg)
        self.msg = msg
        self.user_stack = user_stack or []  # [(filename, lineno, function name, source line)]
        self.real_stack = []

    def add_frame(self, filename, lineno, name, line):
        self.user_stack.insert(0, (filename, lineno, name, line))


def unimplemented(msg):
    raise Unsupported(msg)
