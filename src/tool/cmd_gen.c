// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * `osmtopo gen FAMILY ARGS [OPTIONS]`: writes an ibsim net file of a
 * textbook topology, the fabric that the rest of the flow (recognizer ->
 * coordinates -> engine -> tables -> checker) is then tried on, under
 * ibsim or offline.  Families and options are table rows: a new family is
 * a generator in src/gen plus one row in gen_families[].
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "gen/gen.h"
#include "io/netfile.h"
#include "options.h"
#include "parse.h"
#include "topo/gf.h"
#include "util.h"

/* What the options set; each family reads the fields it documents. */
struct gen_settings {
	unsigned int cas;
	bool cas_given; /* slimfly: otherwise the balanced count */
	unsigned int radix;
	unsigned int links;
	bool shuffle;
	uint64_t seed;
	const char *output;
	/* fattree: per switch level 2..h, at index level - 2 */
	unsigned int ft_down[OT_FT_MAX_LEVELS], ft_up[OT_FT_MAX_LEVELS];
	unsigned int ft_par[OT_FT_MAX_LEVELS];
	unsigned int ft_ndown, ft_nup, ft_npar;
	/* flatfly */
	unsigned int ff_width[OT_GEN_FF_MAX_DIMS], ff_nwidth;
	/* hypercube */
	unsigned int hc_width;
	double drop_links, drop_switches;
	uint64_t drop_seed;
	/* dragonfly */
	unsigned int df_groups;
	unsigned int df_spines; /* --spines: Dragonfly+ */
	unsigned int df_caless[OT_GEN_FF_MAX_DIMS], df_ncaless;
	unsigned int df_flat[2], df_nflat; /* --flat-groups */
	int df_arrangement; /* index in df_arrangements[], enum order */
	const char *const *text_args; /* positional arguments as given */
};

/* --arrangement's words, in the order of enum ot_df_arrangement. */
static const char *const df_arrangements[] = { "consecutive", "palm-tree",
					       "random", NULL };

#define ARGS struct gen_settings
#define LEVELS (OT_FT_MAX_LEVELS - 1)
static const struct tool_option gen_options[] = {
	{ "cas", 'c', "C",
	  "CAs per router (default 1; slimfly: half the network ports)",
	  TOOL_UINT(ARGS, cas, 1, OT_MAX_PORTS), TOOL_GIVEN(ARGS, cas_given) },
	{ "radix", 'r', "R",
	  "ports per switch (default: the fewest that fit)",
	  TOOL_UINT(ARGS, radix, 1, OT_MAX_PORTS) },
	{ "links", 'l', "L",
	  "cables from a router to each of its switches (default 1)",
	  TOOL_UINT(ARGS, links, 1, OT_MAX_PORTS) },
	{ "shuffle-ports", 's', "SEED",
	  "permute switch ports and node order (same SEED, same file)",
	  TOOL_SEED(ARGS, seed), TOOL_GIVEN(ARGS, shuffle) },
	{ "down", 'D', "M2,M3,..",
	  "fattree: children of a switch, per level from level 2 up;\n"
	  "      kns: per line stage from 1 up (multiplying to K)",
	  TOOL_LIST(ARGS, ft_down, ft_ndown, LEVELS, 1, OT_MAX_PORTS) },
	{ "up", 'U', "W2,W3,..",
	  "fattree: parents of a switch, per level from level 2 up;\n"
	  "      kns: per line stage from 1 up (stage 1: switches per router)",
	  TOOL_LIST(ARGS, ft_up, ft_nup, LEVELS, 1, OT_MAX_PORTS) },
	{ "parallel", 'P', "P2,P3,..",
	  "fattree: cables per child-parent pair, per level (default 1);\n"
	  "      kns: per line stage from 2 up (stage 1: --links)",
	  TOOL_LIST(ARGS, ft_par, ft_npar, LEVELS, 1, OT_MAX_PORTS) },
	{ "widths", 'W', "W0,W1,..",
	  "flatfly: parallel cables per switch pair, per dimension (default 1);\n"
	  "      slimfly: one value, per adjacent switch pair; dragonfly: one\n"
	  "      value, per local switch pair",
	  TOOL_LIST(ARGS, ff_width, ff_nwidth, OT_GEN_FF_MAX_DIMS, 1,
		    OT_MAX_PORTS) },
	{ "width", 'w', "W",
	  "hypercube: parallel cables per switch pair (default 1)",
	  TOOL_UINT(ARGS, hc_width, 1, OT_MAX_PORTS) },
	{ "drop-links", 'L', "F",
	  "remove this fraction (0..1) of switch-to-switch cables at random",
	  TOOL_FRACTION(ARGS, drop_links) },
	{ "drop-switches", 'S', "F",
	  "remove this fraction (0..1) of switches, with their CAs",
	  TOOL_FRACTION(ARGS, drop_switches) },
	{ "seed", 'e', "SEED",
	  "seed of the random removals and arrangement (default 0)",
	  TOOL_SEED(ARGS, drop_seed) },
	{ "groups", 'G', "G",
	  "dragonfly: groups (default a*h+1; fewer: parallel group pairs)",
	  TOOL_UINT(ARGS, df_groups, 2, 1u << 20) },
	{ "arrangement", 'A', "ARR",
	  "dragonfly: global cables 'consecutive', 'palm-tree' or 'random'",
	  TOOL_CHOICE(ARGS, df_arrangement, df_arrangements) },
	{ "flat-groups", 'F', "A1,A2",
	  "dragonfly: groups as 2-D FlatFlies of A1 x A2 switches (A1*A2 = A)",
	  TOOL_LIST(ARGS, df_flat, df_nflat, 2, 2, OT_MAX_PORTS) },
	{ "spines", 'p', "S",
	  "dragonfly: Dragonfly+, groups as leaf/spine fat trees: A leaves\n"
	  "      (--cas each), S spines with H global cables each, --widths\n"
	  "      cables per leaf-spine pair",
	  TOOL_UINT(ARGS, df_spines, 1, OT_MAX_PORTS) },
	{ "caless-groups", 'N', "G1,G2,..",
	  "dragonfly --spines: groups whose leaves carry no CAs (numbers as\n"
	  "      in the names DFL[G,i], from 0; at most 16)",
	  TOOL_LIST(ARGS, df_caless, df_ncaless, OT_GEN_FF_MAX_DIMS, 0,
		    1u << 20) },
	TOOL_OPTION_OUTPUT(ARGS, output),
	TOOL_OPTION_HELP,
};
#undef LEVELS
#undef ARGS

#define NOPTIONS TOOL_NOPTIONS(gen_options)

/*
 * A family builds its fabric from its positional arguments and the
 * settings, and describes the result in *comment (the canonical command
 * that rebuilds it, and what it is).
 */
struct gen_family {
	const char *name;
	const char *args; /* positional arguments, for usage */
	unsigned int nargs;
	const char *help;
	const char *options; /* keys of the options it takes */
	struct ot_fabric *(*build)(const unsigned int *args,
				   const struct gen_settings *s, char *comment,
				   size_t len, struct ot_error *err);
};

/* "A,B,C" of n numbers into buf, for the canonical command. */
static void level_list_str(const unsigned int *v, unsigned int n, char *buf,
			   size_t len);

/*
 * What the comment says was built: the switches of f and, in *radix,
 * their ports (every generated switch has as many).
 */
static uint32_t built_switches(const struct ot_fabric *f, unsigned int *radix)
{
	uint32_t i, nsw = 0;

	for (i = 0; i < f->nnodes; i++)
		if (f->node[i].type == OT_NODE_SWITCH) {
			*radix = f->node[i].nports;
			nsw++;
		}
	return nsw;
}

/* kns with --down/--up: lines as fat trees (gen/kns_ft.c). */
static struct ot_fabric *build_kns_ft(const unsigned int *args,
				      const struct gen_settings *s,
				      char *comment, size_t len,
				      struct ot_error *err)
{
	struct ot_kns_params p = {
		.k = args[0], .n = args[1], .cas = s->cas, .links = s->links,
		.radix = s->radix, .shuffle = s->shuffle, .seed = s->seed,
		.drop_switches = s->drop_switches,
		.drop_links = s->drop_links, .drop_seed = s->drop_seed,
	};
	char down[64], up[64], par[64] = "", extra[160] = "";
	unsigned int i, radix = 0, nsw = 0, ncas = 0;
	struct ot_fabric *f;

	p.stages = s->ft_ndown;
	if (!s->ft_ndown || s->ft_ndown > OT_KNS_MAX_STAGES ||
	    (s->ft_nup && s->ft_nup != s->ft_ndown) ||
	    (s->ft_npar && s->ft_npar + 1 != s->ft_ndown)) {
		ot_error_set(err,
			     "kns: --down needs one number per line stage (1 to %u), --up as many (or none), --parallel one fewer",
			     OT_KNS_MAX_STAGES);
		return NULL;
	}
	for (i = 0; i < p.stages; i++) {
		p.line_down[i + 1] = s->ft_down[i];
		p.line_up[i + 1] = s->ft_nup ? s->ft_up[i] : 1;
		if (i)
			p.line_links[i + 1] = s->ft_npar ? s->ft_par[i - 1] : 1;
	}
	f = ot_gen_kns(&p, err);
	if (!f)
		return NULL;
	for (i = 0; i < f->nnodes; i++) {
		if (f->node[i].type == OT_NODE_CA)
			ncas++;
		if (f->node[i].type != OT_NODE_SWITCH)
			continue;
		radix = f->node[i].nports;
		if (f->node[i].desc[0] == 'S')
			nsw++;
	}
	level_list_str(p.line_down + 1, p.stages, down, sizeof(down));
	level_list_str(p.line_up + 1, p.stages, up, sizeof(up));
	if (p.stages > 1) {
		strcpy(par, " --parallel ");
		level_list_str(p.line_links + 2, p.stages - 1, par + 12,
			       sizeof(par) - 12);
	}
	if (p.shuffle)
		snprintf(extra, sizeof(extra), " --shuffle-ports %" PRIu64,
			 p.seed);
	if (p.drop_switches > 0 || p.drop_links > 0)
		snprintf(extra + strlen(extra), sizeof(extra) - strlen(extra),
			 " --drop-switches %g --drop-links %g --seed %" PRIu64,
			 p.drop_switches, p.drop_links, p.drop_seed);
	snprintf(comment, len,
		 "Generated by: osmtopo gen kns %u %u --cas %u --links %u --down %s --up %s%s --radix %u%s\n"
		 "%u-ary %u-direct %u-indirect KNS, every line an XGFT(%u; %s; %s) over its routers:\n"
		 "%u line switches, %u CAs; names carry R[coords], S[dim,line,stage,index]",
		 p.k, p.n, p.cas, p.links, down, up, par, radix, extra, p.k,
		 p.n, p.stages, p.stages, down, up, nsw, ncas);
	return f;
}

static struct ot_fabric *build_kns(const unsigned int *args,
				   const struct gen_settings *s,
				   char *comment, size_t len,
				   struct ot_error *err)
{
	struct ot_kns_params p = {
		.k = args[0],
		.n = args[1],
		.cas = s->cas,
		.links = s->links,
		.radix = s->radix,
		.shuffle = s->shuffle,
		.seed = s->seed,
	};
	struct ot_fabric *f;
	unsigned int radix = 0, i;
	uint64_t routers = 1;
	char shuffle[48] = "";

	if (s->ft_ndown || s->ft_nup || s->ft_npar)
		return build_kns_ft(args, s, comment, len, err);
	f = ot_gen_kns(&p, err);
	if (!f)
		return NULL;
	for (i = 0; i < p.n; i++)
		routers *= p.k;
	built_switches(f, &radix);
	if (p.shuffle)
		snprintf(shuffle, sizeof(shuffle), " --shuffle-ports %" PRIu64,
			 p.seed);
	snprintf(comment, len,
		 "Generated by: osmtopo gen kns %u %u --cas %u --links %u --radix %u%s\n"
		 "%u-ary %u-direct 1-indirect KNS: %" PRIu64
		 " routers, %" PRIu64 " switches, %" PRIu64 " CAs",
		 p.k, p.n, p.cas, p.links, radix, shuffle, p.k, p.n, routers,
		 routers / p.k * p.n, routers * p.cas);
	return f;
}

/* "A,B,C" of n numbers into buf, for the canonical command. */
static void level_list_str(const unsigned int *v, unsigned int n, char *buf,
			   size_t len)
{
	size_t used = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < n && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%u",
					 i ? "," : "", v[i]);
}

static struct ot_fabric *build_fattree(const unsigned int *args,
				       const struct gen_settings *s,
				       char *comment, size_t len,
				       struct ot_error *err)
{
	struct ot_fattree_params p = { .cas = s->cas, .radix = s->radix };
	char down[64], up[64], par[64];
	uint64_t cas = s->cas, top = 1, switches = 0, level = 0;
	struct ot_fabric *f;
	unsigned int i;

	(void)args;
	if (!s->ft_ndown || s->ft_nup != s->ft_ndown ||
	    (s->ft_npar && s->ft_npar != s->ft_ndown)) {
		ot_error_set(err,
			     "fattree: --down and --up (and --parallel) need one number per switch level above the leaves");
		return NULL;
	}
	p.levels = s->ft_ndown + 1;
	for (i = 0; i < s->ft_ndown; i++) {
		p.down[i + 2] = s->ft_down[i];
		p.up[i + 2] = s->ft_up[i];
		p.links[i + 2] = s->ft_npar ? s->ft_par[i] : 1;
	}
	f = ot_gen_fattree(&p, err);
	if (!f)
		return NULL;
	switches = built_switches(f, &p.radix);
	for (i = 2; i <= p.levels; i++) {
		cas *= p.down[i];
		top *= p.up[i];
	}
	level = switches ? cas / s->cas : 0;
	level_list_str(s->ft_down, s->ft_ndown, down, sizeof(down));
	level_list_str(s->ft_up, s->ft_nup, up, sizeof(up));
	for (i = 0; i < s->ft_ndown; i++)
		p.links[i] = p.links[i + 2];
	level_list_str(p.links, s->ft_ndown, par, sizeof(par));
	snprintf(comment, len,
		 "Generated by: osmtopo gen fattree --cas %u --down %s --up %s --parallel %s --radix %u\n"
		 "%u-level fat tree (XGFT): %" PRIu64 " leaf switches, %" PRIu64
		 " top switches, %" PRIu64 " switches, %" PRIu64 " CAs",
		 s->cas, down, up, par, p.radix, p.levels, level, top,
		 switches, cas);
	return f;
}

static struct ot_fabric *build_ulhpc(const unsigned int *args,
				     const struct gen_settings *s,
				     char *comment, size_t len,
				     struct ot_error *err)
{
	struct ot_ulhpc_params p;
	struct ot_fabric *f;

	(void)s;
	ot_ulhpc_defaults(&p, args[0], args[1]);
	f = ot_gen_ulhpc(&p, err);
	if (!f)
		return NULL;
	snprintf(comment, len,
		 "Generated by: osmtopo gen ulhpc %u %u\n"
		 "ULHPC merged IB islands (seed 003, section 2): Iris 12 leaves x 6 spines,\n"
		 "2 cables per pair, %u CAs a leaf; Aion 8 leaves x 4 spines, 3 cables per\n"
		 "pair, %u CAs a leaf; 2 cables per Aion-Iris spine pair (48 interlinks)",
		 args[0], args[1], args[0], args[1]);
	return f;
}

/* The damage and shuffle options, as they appear in the command. */
static void ff_extra_str(const struct gen_settings *s, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	if (s->drop_links > 0 || s->drop_switches > 0)
		used = snprintf(buf, len,
				" --drop-links %g --drop-switches %g --seed %" PRIu64,
				s->drop_links, s->drop_switches, s->drop_seed);
	if (s->shuffle && used < len)
		snprintf(buf + used, len - used, " --shuffle-ports %" PRIu64,
			 s->seed);
}

/* What build_ff_common() tells the comment. */
struct ff_built {
	unsigned int radix; /* ports per switch */
	uint32_t nsw;       /* switches left */
	char extra[128];    /* the damage and shuffle options */
};

/* Builds from p (sizes and widths set) with the shared options. */
static struct ot_fabric *build_ff_common(struct ot_flatfly_params *p,
					 const struct gen_settings *s,
					 struct ff_built *b,
					 struct ot_error *err)
{
	struct ot_fabric *f;

	p->cas = s->cas;
	p->radix = s->radix;
	p->drop_links = s->drop_links;
	p->drop_switches = s->drop_switches;
	p->drop_seed = s->drop_seed;
	p->shuffle = s->shuffle;
	p->seed = s->seed;
	f = ot_gen_flatfly(p, err);
	if (!f)
		return NULL;
	b->nsw = built_switches(f, &b->radix);
	ff_extra_str(s, b->extra, sizeof(b->extra));
	return f;
}

static struct ot_fabric *build_flatfly(const unsigned int *args,
				       const struct gen_settings *s,
				       char *comment, size_t len,
				       struct ot_error *err)
{
	struct ot_flatfly_params p = { 0 };
	const char *shape = s->text_args[0];
	struct ff_built b = { 0 };
	char widths[96];
	struct ot_fabric *f;
	uint64_t slots = 1;
	unsigned int d;

	(void)args;
	if (tool_parse_uint_list(shape, 'x', 0, 1u << 20, p.size,
				 OT_GEN_FF_MAX_DIMS, &p.ndims)) {
		ot_error_set(err, "flatfly: bad shape '%s' (e.g. 4x8x8x8)",
			     shape);
		return NULL;
	}
	if (s->ff_nwidth > p.ndims) {
		ot_error_set(err, "flatfly: %u widths for %u dimensions",
			     s->ff_nwidth, p.ndims);
		return NULL;
	}
	for (d = 0; d < p.ndims; d++) {
		p.width[d] = d < s->ff_nwidth ? s->ff_width[d] : 1;
		slots *= p.size[d];
	}
	level_list_str(p.width, p.ndims, widths, sizeof(widths));
	f = build_ff_common(&p, s, &b, err);
	if (f)
		snprintf(comment, len,
			 "Generated by: osmtopo gen flatfly %s --widths %s --cas %u --radix %u%s\n"
			 "FlatFly (seed 001, 1.2) %s: %u of %" PRIu64
			 " switches, %u CAs each; names carry [c0,c1,...]",
			 shape, widths, s->cas, b.radix, b.extra, shape, b.nsw,
			 slots, s->cas);
	return f;
}

static struct ot_fabric *build_hypercube(const unsigned int *args,
					 const struct gen_settings *s,
					 char *comment, size_t len,
					 struct ot_error *err)
{
	struct ot_flatfly_params p = { .ndims = args[0], .prefix = "HC" };
	unsigned int width = s->hc_width, d;
	struct ff_built b = { 0 };
	struct ot_fabric *f;

	if (args[0] < 1 || args[0] > OT_GEN_FF_MAX_DIMS) {
		ot_error_set(err, "hypercube: 1 to %u dimensions",
			     OT_GEN_FF_MAX_DIMS);
		return NULL;
	}
	for (d = 0; d < p.ndims; d++) {
		p.size[d] = 2;
		p.width[d] = width;
	}
	f = build_ff_common(&p, s, &b, err);
	if (f)
		snprintf(comment, len,
			 "Generated by: osmtopo gen hypercube %u --width %u --cas %u --radix %u%s\n"
			 "%u-D hypercube (seed 001, 1.3): %u of %u switches, %u cables per pair,\n"
			 "%u CAs each; names carry [c0,c1,...]",
			 p.ndims, width, s->cas, b.radix, b.extra, p.ndims,
			 b.nsw, 1u << p.ndims, width, s->cas);
	return f;
}

static struct ot_fabric *build_slimfly(const unsigned int *args,
				       const struct gen_settings *s,
				       char *comment, size_t len,
				       struct ot_error *err)
{
	struct ot_slimfly_params p = {
		.q = args[0], .radix = s->radix,
		.width = s->ff_nwidth ? s->ff_width[0] : 1,
		.drop_links = s->drop_links, .drop_switches = s->drop_switches,
		.drop_seed = s->drop_seed, .shuffle = s->shuffle,
		.seed = s->seed,
	};
	struct ot_fabric *f;
	char extra[128];
	uint32_t nsw;
	unsigned int radix = 0;

	if (s->ff_nwidth > 1) {
		ot_error_set(err, "slimfly: one width, %u given", s->ff_nwidth);
		return NULL;
	}
	p.cas = s->cas_given ? s->cas :
		ot_gen_slimfly_balanced_cas(p.q, p.width);
	f = ot_gen_slimfly(&p, err);
	if (!f)
		return NULL;
	nsw = built_switches(f, &radix);
	ff_extra_str(s, extra, sizeof(extra));
	snprintf(comment, len,
		 "Generated by: osmtopo gen slimfly %u --widths %u --cas %u --radix %u%s\n"
		 "Slim Fly (seed 001, 1.5; MMS graph): %u of %u switches, %u CAs each;\n"
		 "names carry [t,x,y] over GF(%u)",
		 p.q, p.width, p.cas, radix, extra, nsw, 2 * p.q * p.q,
		 p.cas, p.q);
	return f;
}

/* Writes the canonical command and what was built into comment. */
static void sfff_comment(const struct ot_sfff_params *p, const char *shape,
			 const struct gen_settings *s,
			 const struct ot_fabric *f, char *comment, size_t len)
{
	unsigned int widths[OT_GEN_FF_MAX_DIMS + 1], radix = 0, d;
	uint32_t nsw;
	uint64_t slots = 2ull * p->q * p->q;
	char wl[128], extra[128];

	widths[0] = p->width;
	for (d = 0; d < p->ndims; d++) {
		widths[d + 1] = p->fwidth[d];
		slots *= p->size[d];
	}
	level_list_str(widths, p->ndims + 1, wl, sizeof(wl));
	nsw = built_switches(f, &radix);
	ff_extra_str(s, extra, sizeof(extra));
	snprintf(comment, len,
		 "Generated by: osmtopo gen sfxff %u %s --widths %s --cas %u --radix %u%s\n"
		 "Slim Fly x FlatFly (seed 001, 1.5): MMS graph of q=%u times FlatFly %s:\n"
		 "%u of %" PRIu64 " switches, %u CAs each; names carry [t,x,y,c0,...]",
		 p->q, shape, wl, p->cas, radix, extra, p->q, shape, nsw, slots,
		 p->cas);
}

/* sfxff Q K0xK1..: --widths L,W0,W1,.. (the Slim Fly's first). */
static struct ot_fabric *build_sfxff(const unsigned int *args,
				     const struct gen_settings *s,
				     char *comment, size_t len,
				     struct ot_error *err)
{
	struct ot_sfff_params p = {
		.radix = s->radix, .cas = s->cas,
		.drop_links = s->drop_links, .drop_switches = s->drop_switches,
		.drop_seed = s->drop_seed, .shuffle = s->shuffle,
		.seed = s->seed,
	};
	const char *shape = s->text_args[1];
	unsigned long long q;
	struct ot_fabric *f;
	unsigned int d;

	(void)args;
	if (tool_parse_uint(s->text_args[0], 3, OT_GF_MAX_Q, &q)) {
		ot_error_set(err, "sfxff: bad q '%s'", s->text_args[0]);
		return NULL;
	}
	p.q = (unsigned int)q;
	if (tool_parse_uint_list(shape, 'x', 2, 1u << 20, p.size,
				 OT_GEN_FF_MAX_DIMS, &p.ndims)) {
		ot_error_set(err, "sfxff: bad FlatFly shape '%s' (e.g. 8x8)",
			     shape);
		return NULL;
	}
	if (s->ff_nwidth > p.ndims + 1) {
		ot_error_set(err, "sfxff: %u widths for 1 + %u dimensions",
			     s->ff_nwidth, p.ndims);
		return NULL;
	}
	p.width = s->ff_nwidth ? s->ff_width[0] : 1;
	for (d = 0; d < p.ndims; d++)
		p.fwidth[d] = d + 1 < s->ff_nwidth ? s->ff_width[d + 1] : 1;
	f = ot_gen_sfff(&p, err);
	if (f)
		sfff_comment(&p, shape, s, f, comment, len);
	return f;
}

/* The comment of a Dragonfly+ (gen dragonfly --spines). */
static void dfplus_comment(const struct ot_dragonfly_params *p, unsigned int g,
			   const struct gen_settings *s, char *comment,
			   size_t len)
{
	unsigned int lp = p->p + p->spines * p->width;
	unsigned int sp = p->a * p->width + p->h, i;
	char extra[256];

	ff_extra_str(s, extra, sizeof(extra));
	if (p->width > 1)
		snprintf(extra + strlen(extra), sizeof(extra) - strlen(extra),
			 " --widths %u", p->width);
	if (p->arrangement == OT_DF_RANDOM && !strstr(extra, "--seed"))
		snprintf(extra + strlen(extra), sizeof(extra) - strlen(extra),
			 " --seed %" PRIu64, s->drop_seed);
	for (i = 0; i < p->ncaless; i++)
		snprintf(extra + strlen(extra), sizeof(extra) - strlen(extra),
			 "%s%u", i ? "," : " --caless-groups ", p->caless[i]);
	snprintf(comment, len,
		 "Generated by: osmtopo gen dragonfly %u %u --spines %u --cas %u --groups %u --arrangement %s --radix %u%s\n"
		 "Dragonfly+ (Shpiner et al. 2017): %u groups of %u leaves with %u CAs each\n"
		 "and %u spines with %u global cables each; names carry [group,leaf] (DFL)\n"
		 "and [group,spine] (DFS)",
		 p->a, p->h, p->spines, p->p, g,
		 df_arrangements[s->df_arrangement],
		 p->radix ? p->radix : (lp > sp ? lp : sp), extra, g, p->a,
		 p->p, p->spines, p->h);
}

static struct ot_fabric *build_dragonfly(const unsigned int *args,
					 const struct gen_settings *s,
					 char *comment, size_t len,
					 struct ot_error *err)
{
	struct ot_dragonfly_params p = {
		.a = args[0], .h = args[1], .p = s->cas, .g = s->df_groups,
		.flat = { s->df_flat[0], s->df_flat[1] },
		.width = s->ff_nwidth ? s->ff_width[0] : 1,
		.spines = s->df_spines,
		.caless = s->df_caless, .ncaless = s->df_ncaless,
		.arrangement = (enum ot_df_arrangement)s->df_arrangement,
		.arrange_seed = s->drop_seed, .radix = s->radix,
		.drop_switches = s->drop_switches, .drop_links = s->drop_links,
		.drop_seed = s->drop_seed, .shuffle = s->shuffle,
		.seed = s->seed,
	};
	struct ot_fabric *f = ot_gen_dragonfly(&p, err);
	char extra[160], shape[48] = "";
	unsigned int g = p.g ? p.g :
			   (p.spines ? p.spines : p.a) * p.h + 1;
	unsigned int nloc = (s->df_nflat ? p.flat[0] + p.flat[1] - 2 : p.a - 1) *
			    p.width;
	unsigned int radix = p.radix ? p.radix : p.p + nloc + p.h;

	if (!f)
		return NULL;
	if (p.spines) {
		dfplus_comment(&p, g, s, comment, len);
		return f;
	}
	if (s->df_nflat == 1) {
		ot_fabric_free(f);
		ot_error_set(err, "dragonfly: --flat-groups takes two sizes, A1,A2");
		return NULL;
	}
	ff_extra_str(s, extra, sizeof(extra));
	if (s->df_nflat)
		snprintf(shape, sizeof(shape), " as %ux%u FlatFlies",
			 p.flat[0], p.flat[1]);
	if (s->df_nflat)
		snprintf(extra + strlen(extra), sizeof(extra) - strlen(extra),
			 " --flat-groups %u,%u", p.flat[0], p.flat[1]);
	if (p.width > 1)
		snprintf(extra + strlen(extra), sizeof(extra) - strlen(extra),
			 " --widths %u", p.width);
	if (p.arrangement == OT_DF_RANDOM && !strstr(extra, "--seed"))
		snprintf(extra + strlen(extra), sizeof(extra) - strlen(extra),
			 " --seed %" PRIu64, s->drop_seed);
	snprintf(comment, len,
		 "Generated by: osmtopo gen dragonfly %u %u --cas %u --groups %u --arrangement %s --radix %u%s\n"
		 "Dragonfly (seed 001, 1.4): %u groups of %u switches%s, %u global cables\n"
		 "and %u CAs each; names carry [group,switch]%s",
		 p.a, p.h, p.p, g, df_arrangements[s->df_arrangement],
		 radix, extra, g, p.a, shape, p.h, p.p,
		 s->df_nflat ? " ([group,x,y] in FlatFly groups)" : "");
	return f;
}

static const struct gen_family gen_families[] = {
	{ "kns", "K N", 2,
	  "k-ary n-direct s-indirect KNS (seed 000): K^N routers with\n"
	  "      their CAs, each cabled to one switch per dimension, or with\n"
	  "      --down/--up to each dimension line built as a fat tree",
	  "crlsoDUPLSe", build_kns },
	{ "fattree", "--down M2,.. --up W2,..", 0,
	  "k-level fat tree, XGFT(h; m; w): a level-i switch has m_i\n"
	  "      children and w_(i+1) parents (--cas: CAs per leaf, m_1)",
	  "cDUPro", build_fattree },
	{ "ulhpc", "IRIS_CAS AION_CAS", 2,
	  "the ULHPC merged Iris and Aion fat trees (seed 003): CAs per\n"
	  "      leaf of each island (the paper's: up to 24 and 48)",
	  "o", build_ulhpc },
	{ "flatfly", "K0xK1x..", 1,
	  "FlatFly / HyperX (seed 001): the product of full graphs of\n"
	  "      K0, K1, ... switches, --widths cables per pair, --cas per switch",
	  "crWLSeso", build_flatfly },
	{ "hypercube", "D", 1,
	  "D-dimensional hypercube (seed 001): 2^D switches, --width\n"
	  "      cables per pair, --cas per switch",
	  "crwLSeso", build_hypercube },
	{ "slimfly", "Q", 1,
	  "Slim Fly (seed 001, 1.5): the MMS graph of a prime power Q,\n"
	  "      2Q^2 switches, --widths cables per pair, --cas per switch",
	  "crWLSeso", build_slimfly },
	{ "dragonfly", "A H", 2,
	  "Dragonfly (seed 001): groups of A switches as full graphs (or\n"
	  "      2-D FlatFlies, --flat-groups), H global cables and --cas CAs\n"
	  "      per switch, --groups groups",
	  "crGALSesoFWpN", build_dragonfly },
	{ "sfxff", "Q K0xK1..", 2,
	  "Slim Fly x FlatFly (seed 001, 1.5): the MMS graph of Q times a\n"
	  "      FlatFly; --widths L,W0,W1,.. (Slim Fly first), --cas per switch",
	  "crWLSeso", build_sfxff },
};

#define NFAMILIES (sizeof(gen_families) / sizeof(gen_families[0]))

static const char *const usage_examples[] = {
	"kns 6 2 --radix 8 -o cellia.net\tthe seed's CELLIA fabric: 36 routers, 12 switches, 36 CAs",
	"kns 4 3 --shuffle-ports 7\t4-ary 3-direct, ports and node order shuffled with seed 7",
	"kns 8 2 --cas 4 --links 2 --radix 16\t4 CAs per router, 2 cables per router-switch pair",
	"kns 8 2 --cas 2 --down 4,2 --up 1,4\tlines of 2 leaves and 4 spines (s = 2): 128 switches",
	"kns 8 2 --down 8 --up 3\tthree switches per line (s = 1), each router cabled to each",
	"kns 8 2 --down 2,2,2 --up 1,2,2 --drop-links 0.1\tlines as 3-stage fat trees, 10% of their redundant cables gone",
	"fattree --cas 4 --down 3,3 --up 3,1 --parallel 1,2\tseed 000's Slimmed Fat-Tree, 4 nodes a leaf (36)",
	"fattree --cas 24 --down 12 --up 6 --parallel 2\t12 leaves, 6 spines, 2 cables per pair",
	"ulhpc 4 6\tthe merged ULHPC islands with 48 + 48 CAs",
	"flatfly 4x8x8x8 --widths 2,1,1,1 --cas 8\tthe seed's FlatFly: 2,048 switches of 36 ports, 16,384 CAs",
	"flatfly 8x8 --drop-links 0.15 --drop-switches 0.2 --seed 3\ta damaged 8x8 FlatFly",
	"hypercube 11 --width 2 --cas 8\tthe seed's 11-D hypercube with double links",
	"slimfly 5 --cas 3 --shuffle-ports 1\tq=5: 50 switches (Hoffman-Singleton graph), 150 CAs",
	"slimfly 4 --widths 2 --cas 3\tq=4: 32 switches, 2 cables per adjacent pair",
	"sfxff 4 8x8 --widths 2,1,1 --cas 8\tthe seed's SF x FF-1: 2,048 switches of 34 ports, 16,384 CAs",
	"sfxff 8 16 --cas 8\tthe seed's SF x FF-2: 2,048 switches of 35 ports, 16,384 CAs",
	"sfxff 4 4 --cas 2 --shuffle-ports 3\tq=4 times FlatFly 4: 128 switches, 256 CAs, shuffled",
	"dragonfly 4 2 --cas 2 --arrangement random --seed 5\t9 groups of 4 switches, global cables at random",
	"dragonfly 8 4 --cas 4\tthe balanced Dragonfly of 33 groups: 264 switches, 1,056 CAs",
	"dragonfly 16 4 --cas 4 --flat-groups 4,4 --groups 33\t33 groups as 4x4 FlatFlies: 528 switches",
	"dragonfly 4 2 --spines 4 --cas 4 --groups 9\tDragonfly+: 9 groups of 4 leaves and 4 spines, 144 CAs",
	"dragonfly 4 2 --spines 4 --cas 4 --groups 9 --caless-groups 3,5\tthe same with groups 3 and 5 not yet populated: 112 CAs",
	"dragonfly 16 8 --cas 8 --groups 128\tthe seed's 16K Dragonfly: 2,048 switches, one global port a group left free",
};

static void usage(FILE *out, const struct tool_command *c)
{
	unsigned int i, j;

	fprintf(out, "usage: osmtopo gen FAMILY ARGS [OPTIONS]\n\n");
	fprintf(out,
		"Writes an ibsim net file (also readable as ibnetdiscover output).\n\n"
		"families:\n");
	for (i = 0; i < NFAMILIES; i++) {
		const struct gen_family *fam = &gen_families[i];

		fprintf(out, "  %s %s\n      %s\n      options:", fam->name,
			fam->args, fam->help);
		for (j = 0; j < NOPTIONS; j++)
			if (strchr(fam->options, gen_options[j].key))
				fprintf(out, " --%s", gen_options[j].name);
		fputc('\n', out);
	}
	fprintf(out, "\noptions:\n");
	tool_print_options(out, c);
	fprintf(out, "\nexamples:\n");
	for (i = 0; i < sizeof(usage_examples) / sizeof(usage_examples[0]);
	     i++) {
		const char *ex = usage_examples[i];
		size_t cmd = strcspn(ex, "\t");

		fprintf(out, "  osmtopo gen %.*s\n      # %s\n", (int)cmd, ex,
			ex[cmd] ? ex + cmd + 1 : "");
	}
}

TOOL_COMMAND(gen_command, "gen", gen_options, usage);

/*
 * The family named in argv, its operands into args[] (flatfly's shape is
 * text, taken by its builder), and the options given must be its own.
 * The family, or NULL after saying why.
 */
static const struct gen_family *
gen_family_args(int argc, char **argv, const char *seen, unsigned int *args)
{
	const struct gen_family *fam = NULL;
	unsigned long long v;
	unsigned int i;

	if (argc < 1) {
		fprintf(stderr,
			"osmtopo gen: which family? (see osmtopo gen --help)\n");
		return NULL;
	}
	for (i = 0; i < NFAMILIES; i++)
		if (!strcmp(argv[0], gen_families[i].name))
			fam = &gen_families[i];
	if (!fam) {
		fprintf(stderr, "osmtopo gen: unknown family '%s'\n", argv[0]);
		return NULL;
	}
	for (i = 0; seen[i]; i++)
		if (!strchr(fam->options, seen[i])) {
			fprintf(stderr,
				"osmtopo gen %s: option -%c does not apply\n",
				fam->name, seen[i]);
			return NULL;
		}
	if ((unsigned int)argc - 1 != fam->nargs) {
		fprintf(stderr, "osmtopo gen %s: needs %s\n", fam->name,
			fam->args);
		return NULL;
	}
	for (i = 0; i < fam->nargs && fam->build != build_flatfly &&
		    fam->build != build_sfxff; i++) {
		if (tool_parse_uint(argv[1 + i], 0, 1u << 20, &v)) {
			fprintf(stderr, "osmtopo gen %s: bad number '%s'\n",
				fam->name, argv[1 + i]);
			return NULL;
		}
		args[i] = (unsigned int)v;
	}
	return fam;
}

int cmd_gen(int argc, char **argv)
{
	struct gen_settings s = { .cas = 1, .links = 1, .hc_width = 1 };
	const struct gen_family *fam;
	struct ot_fabric *f = NULL;
	struct ot_error err = { 0 };
	unsigned int args[8];
	char comment[512], seen[NOPTIONS + 1];
	struct tool_net net = { NULL, comment };
	int status, next;

	status = tool_parse(&gen_command, argc, argv, &s, &next, seen);
	if (status >= 0)
		return status;
	status = OT_EXIT_USAGE;
	fam = gen_family_args(argc - next, argv + next, seen, args);
	if (!fam)
		goto out;
	s.text_args = (const char *const *)argv + next + 1;
	f = fam->build(args, &s, comment, sizeof(comment), &err);
	if (!f) {
		fprintf(stderr, "osmtopo gen: %s\n", err.msg);
		goto out;
	}
	net.f = f;
	status = tool_write_output("gen", s.output, tool_write_net, &net);
out:
	ot_fabric_free(f);
	return status;
}
