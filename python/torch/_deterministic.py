"""torch.use_deterministic_algorithms and its companions (PyTorch 2.15's torch/__init__.py over
torch._C._set_deterministic_algorithms): the flags a program sets and reads back. Every CPU kernel
here is deterministic, and so is the simulated GPU's, so no operator consults them."""
import builtins

__all__ = ['use_deterministic_algorithms', 'are_deterministic_algorithms_enabled',
           'is_deterministic_algorithms_warn_only_enabled', 'set_deterministic_debug_mode',
           'get_deterministic_debug_mode']

_state = {'enabled': False, 'warn_only': False}


def _set_deterministic_algorithms(mode, *, warn_only=False):
    # torch._C._set_deterministic_algorithms's argument parsing: both must be bools
    if not isinstance(mode, bool):
        raise TypeError("_set_deterministic_algorithms(): argument 'mode' (position 1) must be bool, not "
                        f"{type(mode).__name__}")
    if not isinstance(warn_only, bool):
        raise TypeError("_set_deterministic_algorithms(): argument 'warn_only' must be bool, not "
                        f"{type(warn_only).__name__}")
    _state['enabled'] = mode
    _state['warn_only'] = warn_only if mode else False


def use_deterministic_algorithms(mode, *, warn_only=False):
    r"""Sets whether operations must use deterministic algorithms (and whether a nondeterministic
    one only warns instead of raising)."""
    _set_deterministic_algorithms(mode, warn_only=warn_only)


def are_deterministic_algorithms_enabled():
    r"""Whether use_deterministic_algorithms(True) is in force."""
    return _state['enabled']


def is_deterministic_algorithms_warn_only_enabled():
    r"""Whether use_deterministic_algorithms was called with warn_only=True."""
    return _state['warn_only']


def set_deterministic_debug_mode(debug_mode):
    r"""The same flags by level: 0 or "default", 1 or "warn", 2 or "error"."""
    if not isinstance(debug_mode, builtins.int):
        if isinstance(debug_mode, builtins.str):
            levels = {'default': 0, 'warn': 1, 'error': 2}
            if debug_mode not in levels:
                raise RuntimeError("invalid value of debug_mode, expected one of `default`, "
                                   f"`warn`, `error`, but got {debug_mode}")
            debug_mode = levels[debug_mode]
        else:
            raise TypeError(f"debug_mode must be str or int, but got {type(debug_mode)}")
    if debug_mode == 0:
        _set_deterministic_algorithms(False)
    elif debug_mode == 1:
        _set_deterministic_algorithms(True, warn_only=True)
    elif debug_mode == 2:
        _set_deterministic_algorithms(True)
    else:
        raise RuntimeError(f"invalid value of debug_mode, expected 0, 1, or 2, but got {debug_mode}")


def get_deterministic_debug_mode():
    r"""The level set_deterministic_debug_mode takes: 0, 1 or 2."""
    if _state['enabled']:
        return 1 if _state['warn_only'] else 2
    return 0
