// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * One-line error messages with a class (see error.h).
 */
#include <stdarg.h>
#include <stdio.h>

#include "model/error.h"

static int set_error(struct ot_error *err, enum ot_error_class cls,
		     const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

static int set_error(struct ot_error *err, enum ot_error_class cls,
		     const char *fmt, va_list ap)
{
	if (!err)
		return -1;
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	err->cls = cls;
	return -1;
}

int ot_error_set(struct ot_error *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	set_error(err, OT_ERR_GENERIC, fmt, ap);
	va_end(ap);
	return -1;
}

int ot_refuse(struct ot_error *err, enum ot_error_class cls,
	      const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	set_error(err, cls, fmt, ap);
	va_end(ap);
	return -1;
}

int ot_error_nomem(struct ot_error *err, const char *who)
{
	return ot_refuse(err, OT_ERR_NOMEM, "%s: out of memory", who);
}

int ot_error_wrap(struct ot_error *err, const struct ot_error *why,
		  enum ot_error_class cls, const char *prefix)
{
	char msg[OT_ERROR_LEN];

	if (!err)
		return -1;
	snprintf(msg, sizeof(msg), "%s", why->msg);
	return ot_refuse(err, why->cls != OT_ERR_GENERIC ? why->cls : cls,
			 "%s: %s", prefix, msg);
}

const char *ot_error_class_name(enum ot_error_class cls)
{
	switch (cls) {
	case OT_ERR_GENERIC:
		return "error";
	case OT_ERR_NOMEM:
		return "out of memory";
	case OT_ERR_TOPOLOGY:
		return "topology";
	case OT_ERR_DAMAGE:
		return "damage";
	case OT_ERR_BUDGET:
		return "budget";
	case OT_ERR_CONFIG:
		return "configuration";
	case OT_ERR_OPENSM:
		return "opensm";
	}
	return "?";
}

const char *ot_error_code(enum ot_error_class cls)
{
	switch (cls) {
	case OT_ERR_TOPOLOGY:
		return "ERR 5E02";
	case OT_ERR_DAMAGE:
		return "ERR 5E03";
	case OT_ERR_BUDGET:
		return "ERR 5E04";
	case OT_ERR_CONFIG:
		return "ERR 5E05";
	case OT_ERR_OPENSM:
		return "ERR 5E06";
	case OT_ERR_NOMEM:
		return "ERR 5E07";
	case OT_ERR_GENERIC:
		break;
	}
	return "ERR 5E08";
}
