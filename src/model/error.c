// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * One-line error messages (see error.h).
 */
#include <stdarg.h>
#include <stdio.h>

#include "model/error.h"

int ot_error_set(struct ot_error *err, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return -1;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return -1;
}
