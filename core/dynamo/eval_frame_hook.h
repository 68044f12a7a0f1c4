#pragma once
/* The frame-evaluation hook torch.compile captures frames through (PEP 523, CPython 3.11).
 *
 * Note [Intercepting a frame]
 * CPython 3.11 calls an interpreter's eval_frame function for every Python frame it is about to
 * run (with a custom one set, it no longer inlines Python-to-Python calls, so none is missed).
 * The frame is CPython's internal _PyInterpreterFrame, whose layout only its internal headers
 * know; this file is the one place that includes them, in C, and it hands the C++ side what
 * it needs as plain objects: the code object, the frame's arguments and closure as a dict, the
 * globals. A handled frame is never run: the handler returns its result instead, and CPython
 * clears and pops the frame as after any call. The hook is installed only while a compiled
 * function is being called, so the rest of a program keeps 3.11's inlined calls.
 */
#include <Python.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Returns a new reference to the call's result, NULL with a Python error set, or
 * IPT_RUN_FRAME_DEFAULT to let CPython run the frame as usual. */
typedef PyObject* (*ipt_frame_handler)(PyCodeObject* code, PyObject* locals, PyObject* globals, PyObject* builtins);
extern PyObject* const IPT_RUN_FRAME_DEFAULT;

/* Installs (handler non-NULL) or removes the hook on the current interpreter. */
void ipt_set_frame_handler(ipt_frame_handler handler);

#ifdef __cplusplus
}
#endif
