/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The osmtopo command's subcommands.  Each takes the arguments after its
 * name (argv[0] is the subcommand) and returns the process exit status:
 * 0 success, 1 the fabric or its tables failed a check or were refused,
 * 2 usage or I/O error.
 */
#ifndef OSMTOPO_COMMANDS_H
#define OSMTOPO_COMMANDS_H

#define OT_EXIT_OK 0
#define OT_EXIT_FAIL 1
#define OT_EXIT_USAGE 2

int cmd_gen(int argc, char **argv);
int cmd_route(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_fabric(int argc, char **argv); /* osmtopo fabric --live */
int cmd_lfts(int argc, char **argv);   /* osmtopo lfts --live */
int cmd_compare(int argc, char **argv);
int cmd_sim(int argc, char **argv);     /* osmtopo sim ACTION */
int cmd_qos(int argc, char **argv);     /* osmtopo qos CLASSFILE */
int cmd_simulate(int argc, char **argv); /* packet-level simulation */

#endif
