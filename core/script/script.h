#pragma once
// Umbrella header for code that embeds the snippet interpreter or extends it with native
// modules: values, the native object interface, formatting helpers and the interpreter.

#include "core/script/format.h"
#include "core/script/interpreter.h"
#include "core/script/object.h"
#include "core/script/value.h"
