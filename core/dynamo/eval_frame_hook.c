/* See Note [Intercepting a frame] in eval_frame_hook.h. */
#include "core/dynamo/eval_frame_hook.h"

#define Py_BUILD_CORE
#include <internal/pycore_code.h>
#include <internal/pycore_frame.h>
#undef Py_BUILD_CORE

static PyObject run_default_marker;
PyObject* const IPT_RUN_FRAME_DEFAULT = &run_default_marker;

static ipt_frame_handler g_handler = NULL;

/* The frame's arguments (all that is bound when a frame starts) and its closure's cells'
 * contents, by name: what TorchDynamo's guards call L['x']. */
static PyObject* frame_locals(struct _PyInterpreterFrame* frame) {
  PyCodeObject* code = frame->f_code;
  PyObject* locals = PyDict_New();
  if (!locals) return NULL;
  PyObject* closure = ((PyFunctionObject*)frame->f_func)->func_closure;
  int free_index = 0;
  for (int i = 0; i < code->co_nlocalsplus; ++i) {
    PyObject* name = PyTuple_GET_ITEM(code->co_localsplusnames, i);
    unsigned char kind = (unsigned char)PyBytes_AS_STRING(code->co_localspluskinds)[i];
    PyObject* value = frame->localsplus[i];
    if (kind & CO_FAST_FREE) {
      value = NULL;
      if (closure && free_index < PyTuple_GET_SIZE(closure)) value = PyCell_GET(PyTuple_GET_ITEM(closure, free_index));
      ++free_index;
    }
    if (value && PyDict_SetItem(locals, name, value) < 0) {
      Py_DECREF(locals);
      return NULL;
    }
  }
  return locals;
}

static PyObject* eval_frame(PyThreadState* tstate, struct _PyInterpreterFrame* frame, int throwflag) {
  ipt_frame_handler handler = g_handler;
  /* Generators resumed with an exception, and frames of generators and coroutines (their own
   * objects own them), run as usual: only plain function calls are compiled. */
  if (throwflag || !handler || frame->owner != FRAME_OWNED_BY_THREAD ||
      (frame->f_code->co_flags & (CO_GENERATOR | CO_COROUTINE | CO_ASYNC_GENERATOR)))
    return _PyEval_EvalFrameDefault(tstate, frame, throwflag);
  PyObject* locals = frame_locals(frame);
  if (!locals) return NULL;
  PyObject* result = handler(frame->f_code, locals, frame->f_globals, frame->f_builtins);
  Py_DECREF(locals);
  if (result == IPT_RUN_FRAME_DEFAULT) return _PyEval_EvalFrameDefault(tstate, frame, throwflag);
  return result;
}

void ipt_set_frame_handler(ipt_frame_handler handler) {
  g_handler = handler;
  PyInterpreterState* interp = PyThreadState_GET()->interp;
  _PyInterpreterState_SetEvalFrameFunc(interp, handler ? eval_frame : _PyEval_EvalFrameDefault);
}
