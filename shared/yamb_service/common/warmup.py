"""A function's cold start without the cycle collector.

Importing a function and serving its first request build a great many long-lived objects and
no cyclic garbage (models, botocore's service data, clients): the cycle collector would run
dozens of times for nothing, about a sixth of the cold start. A function's module switches it
off first thing (`gc.disable()`, before its imports), and `collector_after_first_call` switches
it back on once the first invocation is over, after `gc.freeze()` has moved everything built so
far out of its sight for good.
"""

import gc
from collections.abc import Callable
from functools import wraps


def collector_after_first_call[**P, R](handler: Callable[P, R]) -> Callable[P, R]:
    @wraps(handler)
    def serve(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return handler(*args, **kwargs)
        finally:
            if not gc.isenabled():
                gc.freeze()
                gc.enable()

    return serve
