/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Link balance: the load every directed link carries under a traffic
 * pattern, routed through a fabric's tables, and the static throughput
 * each pattern gets (1 / the most loaded channel, every CA injecting at
 * full rate).  Part of the checker, the last step of the flow.
 */
#ifndef OSMTOPO_TRAFFIC_H
#define OSMTOPO_TRAFFIC_H

#endif
