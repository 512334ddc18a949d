// SPDX-License-Identifier: GPL-2.0
/*
 * The one place that instantiates the trace events of backend_flash/trace.h.
 */
#define CREATE_TRACE_POINTS
#include "backend_flash/trace.h"
