/* The R8.1 arrangement of a mask (arrange.arranged_of_mask): the runs R8.1 picks in each
 * suit block, and with sets, arrange.arrangement_with_sets and _with_runs written again, step
 * for step (module.c says what the module is). */
#include "speedups.h"

/* The melds of the four blocks' tuples put together, with ``held`` (a set, or NULL) put in
 * before the first run whose mask is not below its lowest card. */
static PyObject *
joined(PyObject *t[4], PyObject *held, uint64_t held_low)
{
    Py_ssize_t n = PyTuple_GET_SIZE(t[0]) + PyTuple_GET_SIZE(t[1]) + PyTuple_GET_SIZE(t[2])
        + PyTuple_GET_SIZE(t[3]) + (held != NULL);
    if (n == 0) {
        Py_INCREF(empty_tuple);
        return empty_tuple;
    }
    PyObject *out = PyTuple_New(n);
    if (out == NULL) return NULL;
    Py_ssize_t k = 0;
    for (int s = 0; s < 4; s++) {
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(t[s]); i++) {
            PyObject *meld = PyTuple_GET_ITEM(t[s], i);
            if (held != NULL) {
                uint64_t v;
                if (!mask_of_int(meld, &v)) { /* never: the tables' own ints */
                    Py_DECREF(out);
                    PyErr_SetString(PyExc_SystemError, "_speedups: a run is not a mask");
                    return NULL;
                }
                if (v >= held_low) { /* bisect_left(runs, held_low) */
                    Py_INCREF(held);
                    PyTuple_SET_ITEM(out, k++, held);
                    held = NULL;
                }
            }
            Py_INCREF(meld);
            PyTuple_SET_ITEM(out, k++, meld);
        }
    }
    if (held != NULL) {
        Py_INCREF(held);
        PyTuple_SET_ITEM(out, k++, held);
    }
    return out;
}

static PyObject *
runs_of(unsigned b[4])
{
    PyObject *t[4];
    for (int s = 0; s < 4; s++)
        if ((t[s] = best_tuple(s, b[s])) == NULL) return NULL;
    return joined(t, NULL, 0);
}

/* ---- R8.1 with sets (arrange.arrangement_with_sets and _with_runs) ---- */

#define RANK_MASK(r) (((uint64_t)1 << (r)) | ((uint64_t)1 << ((r) + 13)) \
                      | ((uint64_t)1 << ((r) + 26)) | ((uint64_t)1 << ((r) + 39)))
#define MAX_MELDS 17 /* 52 cards in melds of three at most */

/* Every least arrangement of a block's runs (arrange._ways, unshifted; the same in every
 * suit), each in the order of its lowest cards, found by arrange._walk_arrangements's walk
 * as blocks are met; and the one R8.1 picks alone (arrange._best_runs).  BlockWays is in
 * the header. */
static BlockWays block_ways[8192];

typedef struct {
    int target, n, cap;
    uint8_t *len;
    uint16_t (*runs)[4];
    uint16_t chosen[4];
} Walk;

static int
walk(Walk *w, unsigned rest, int dead, int nchosen)
{
    if (dead + POINTS[rest] == w->target) { /* nothing left melds: all deadwood */
        if (w->n == w->cap) {
            int cap = w->cap ? 2 * w->cap : 8;
            uint8_t *len = PyMem_Realloc(w->len, cap);
            if (len == NULL) return -1;
            w->len = len;
            uint16_t (*runs)[4] = PyMem_Realloc(w->runs, cap * sizeof *runs);
            if (runs == NULL) return -1;
            w->runs = runs;
            w->cap = cap;
        }
        w->len[w->n] = (uint8_t)nchosen;
        memcpy(w->runs[w->n], w->chosen, sizeof w->chosen);
        w->n++;
        return 0;
    }
    int i = __builtin_ctz(rest);
    unsigned low = 1u << i;
    int points = i < 10 ? i + 1 : 10;
    if (dead + points + RUNS[rest ^ low] == w->target) /* the card stays deadwood */
        if (walk(w, rest ^ low, dead + points, nchosen) < 0) return -1;
    unsigned run = low;
    for (int top = i + 1; top < 13 && (rest >> top & 1); top++) { /* runs starting there */
        run |= 1u << top;
        if (top - i >= 2 && dead + RUNS[rest ^ run] == w->target && nchosen < 4) {
            w->chosen[nchosen] = (uint16_t)run;
            if (walk(w, rest ^ run, dead, nchosen + 1) < 0) return -1;
        }
    }
    return 0;
}

static int compare_r81(const uint64_t *a, int na, const uint64_t *b, int nb, uint64_t hand);

BlockWays *
ways_of(unsigned block)
{
    BlockWays *bw = &block_ways[block];
    if (bw->n) return bw;
    Walk w = {RUNS[block], 0, 0, NULL, NULL, {0}};
    if (w.target == POINTS[block]) { /* every meld would lower it: none is used */
        w.len = PyMem_Malloc(1);
        w.runs = PyMem_Malloc(sizeof *w.runs);
        if (w.len == NULL || w.runs == NULL) goto fail;
        w.len[0] = 0;
        w.n = 1;
    }
    else if (walk(&w, block, 0, 0) < 0 || w.n == 0) goto fail;
    int best = 0;
    for (int i = 1; i < w.n; i++) { /* R8.1 within the block: exposure, melds, order */
        uint64_t a[4], b[4];
        for (int k = 0; k < w.len[i]; k++) a[k] = w.runs[i][k];
        for (int k = 0; k < w.len[best]; k++) b[k] = w.runs[best][k];
        if (compare_r81(a, w.len[i], b, w.len[best], block) < 0) best = i;
    }
    bw->len = w.len;
    bw->runs = w.runs;
    bw->best = best;
    bw->n = w.n;
    return bw;
fail:
    PyMem_Free(w.len);
    PyMem_Free(w.runs);
    if (!PyErr_Occurred()) PyErr_NoMemory();
    return NULL;
}

/* Per suit and block, filled as met: the runs R8.1 picks, a tuple of meld ints shifted to
 * the suit (the results' own values, shared). */
static PyObject *best_runs[4][8192];

PyObject *
way_tuple(BlockWays *bw, int way, int suit)
{
    PyObject *t = PyTuple_New(bw->len[way]);
    if (t == NULL) return NULL;
    for (int k = 0; k < bw->len[way]; k++) {
        PyObject *v = PyLong_FromUnsignedLongLong((uint64_t)bw->runs[way][k] << (13 * suit));
        if (v == NULL) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, k, v);
    }
    return t;
}

PyObject *
best_tuple(int suit, unsigned block)
{
    PyObject *found = best_runs[suit][block];
    if (found != NULL) return found;
    BlockWays *bw = ways_of(block);
    if (bw == NULL) return NULL;
    return best_runs[suit][block] = way_tuple(bw, bw->best, suit);
}

/* The cards next to a meld where a lay-off could start (arrange._near, both parts). */
static inline uint64_t
near_of(uint64_t meld)
{
    int i = __builtin_ctzll(meld), top = 63 - __builtin_clzll(meld);
    if (i % 13 == top % 13) return popcount(meld) == 3 ? RANK_MASK(i % 13) & ~meld : 0;
    return (i % 13 ? (meld & (0 - meld)) >> 1 : 0) | (top % 13 < 12 ? (uint64_t)2 << top : 0);
}

static int
exposure(const uint64_t *melds, int n, uint64_t hand)
{
    uint64_t exposed = 0;
    for (int i = 0; i < n; i++) exposed |= near_of(melds[i]);
    return popcount(exposed & ~hand);
}

static void
sort_by_value(uint64_t *m, int n)
{
    for (int i = 1; i < n; i++) {
        uint64_t v = m[i];
        int j = i - 1;
        for (; j >= 0 && m[j] > v; j--) m[j + 1] = m[j];
        m[j + 1] = v;
    }
}

/* R8.1's order after the deadwood: (exposure to ``hand``, number of melds, sorted melds);
 * negative if ``a`` comes first. */
static int
compare_r81(const uint64_t *a, int na, const uint64_t *b, int nb, uint64_t hand)
{
    int ea = exposure(a, na, hand), eb = exposure(b, nb, hand);
    if (ea != eb) return ea < eb ? -1 : 1;
    if (na != nb) return na < nb ? -1 : 1;
    uint64_t sa[MAX_MELDS], sb[MAX_MELDS];
    memcpy(sa, a, na * sizeof *a);
    memcpy(sb, b, nb * sizeof *b);
    sort_by_value(sa, na);
    sort_by_value(sb, nb);
    for (int i = 0; i < na; i++)
        if (sa[i] != sb[i]) return sa[i] < sb[i] ? -1 : 1;
    return 0;
}

/* The runs R8.1 picks in each block (arrange._best_runs), from the tuples kept. */
static int
best_runs_into(unsigned c[4], uint64_t *out, int n)
{
    for (int s = 0; s < 4; s++) {
        PyObject *t = best_tuple(s, c[s]);
        if (t == NULL) return -1;
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(t); i++) {
            if (!mask_of_int(PyTuple_GET_ITEM(t, i), &out[n++])) { /* never: ours */
                PyErr_SetString(PyExc_SystemError, "_speedups: a run is not a mask");
                return -1;
            }
        }
    }
    return n;
}

/* arrange._with_runs: the sets with the runs R8.1 picks among each block's least (the
 * blocks ``c``), in the order of their lowest cards; returns how many melds, -1 on error. */
static int
with_runs(uint64_t mask, unsigned c[4], const uint64_t *sets, int nsets, uint64_t *out)
{
    int n = nsets;
    memcpy(out, sets, nsets * sizeof *sets);
    if (!nsets) return best_runs_into(c, out, 0); /* in canonical order already */
    BlockWays *w[4];
    for (int s = 0; s < 4; s++)
        if ((w[s] = ways_of(c[s])) == NULL) return -1;
    uint64_t seen = mask;
    for (int i = 0; i < nsets; i++) /* the sets' exposure: a card seen is not exposed again */
        if (popcount(sets[i]) == 3) seen |= near_of(sets[i]);
    for (int s = 0; s < 4; s++) {
        int shift = 13 * s, pick = 0;
        if (w[s]->n > 1) {
            uint64_t best[4], here[4];
            int nbest = w[s]->len[0];
            for (int k = 0; k < nbest; k++) best[k] = (uint64_t)w[s]->runs[0][k] << shift;
            for (int i = 1; i < w[s]->n; i++) {
                int nh = w[s]->len[i];
                for (int k = 0; k < nh; k++) here[k] = (uint64_t)w[s]->runs[i][k] << shift;
                if (compare_r81(here, nh, best, nbest, seen) < 0) {
                    pick = i;
                    nbest = nh;
                    memcpy(best, here, sizeof here);
                }
            }
        }
        for (int k = 0; k < w[s]->len[pick]; k++)
            out[n++] = (uint64_t)w[s]->runs[pick][k] << shift;
    }
    for (int i = 1; i < n; i++) { /* by lowest card (disjoint melds) */
        uint64_t v = out[i], low = v & (0 - v);
        int j = i - 1;
        for (; j >= 0 && (out[j] & (0 - out[j])) > low; j--) out[j + 1] = out[j];
        out[j + 1] = v;
    }
    return n;
}

/* The cards of a block some run of it could use (arrange._in_runs). */
static inline unsigned
in_runs(unsigned block)
{
    unsigned up = block >> 1, down = block << 1;
    return block & ((up & block >> 2) | (down & block << 2) | (up & down)) & BLOCK;
}

#define MAX_KEPT 128

/* arrange.arrangement_with_sets on a hand holding ``ranks`` three or four times: the melds
 * into ``out``, their number returned (-1 on error, -2 past this code's bounds), the least
 * deadwood in *dead. */
static int
with_sets(uint64_t mask, unsigned ranks, uint64_t *out, int *dead)
{
    unsigned s[4] = {mask & BLOCK, mask >> 13 & BLOCK, mask >> 26 & BLOCK, mask >> 39 & BLOCK};
    if (!(ranks & (ranks - 1)) && !(s[0] & s[1] & s[2] & s[3])) { /* one rank, held thrice */
        unsigned keep = ~ranks;
        unsigned d[4] = {s[0] & keep, s[1] & keep, s[2] & keep, s[3] & keep};
        int without = RUNS[s[0]] + RUNS[s[1]] + RUNS[s[2]] + RUNS[s[3]];
        int with_set = RUNS[d[0]] + RUNS[d[1]] + RUNS[d[2]] + RUNS[d[3]];
        uint64_t held = mask & RANK_MASK(__builtin_ctz(ranks));
        if (without < with_set) {
            *dead = without;
            return with_runs(mask, s, NULL, 0, out);
        }
        *dead = with_set;
        if (with_set < without) return with_runs(mask, d, &held, 1, out);
        uint64_t other[MAX_MELDS];
        int n = with_runs(mask, s, NULL, 0, out), m;
        if (n < 0 || (m = with_runs(mask, d, &held, 1, other)) < 0) return -1;
        if (compare_r81(other, m, out, n, mask) < 0) {
            memcpy(out, other, m * sizeof *other);
            n = m;
        }
        return n;
    }
    uint64_t free = 0;
    for (int k = 0; k < 4; k++) free |= (uint64_t)in_runs(s[k]) << (13 * k);
    uint64_t options[13][6];
    int counts[13], nopt = 0;
    while (ranks) {
        int r = __builtin_ctz(ranks);
        ranks &= ranks - 1;
        uint64_t held = mask & RANK_MASK(r), usable = held & free;
        int k = 0;
        options[nopt][k++] = held;
        if (!usable) { /* no run can take a card of it: the set alone can be least */
        }
        else if (popcount(held) == 4) { /* a set of three keeps one card for runs ... */
            while (usable) {
                uint64_t card = usable & (0 - usable);
                usable ^= card;
                options[nopt][k++] = held ^ card;
            }
            if (k > 2) options[nopt][k++] = 0; /* ... or no set */
        }
        else options[nopt][k++] = 0;
        counts[nopt++] = k;
    }
    /* itertools.product's order, the last option the fastest */
    int at[13] = {0}, least = 1000, nkept = 0;
    uint64_t kept[MAX_KEPT][13];
    for (;;) {
        uint64_t taken = 0;
        for (int i = 0; i < nopt; i++) taken += options[i][at[i]];
        uint64_t rest = mask ^ taken;
        int dw = RUNS[rest & BLOCK] + RUNS[rest >> 13 & BLOCK] + RUNS[rest >> 26 & BLOCK]
            + RUNS[rest >> 39 & BLOCK];
        if (dw <= least) {
            if (dw < least) {
                least = dw;
                nkept = 0;
            }
            if (nkept == MAX_KEPT) return -2;
            for (int i = 0; i < nopt; i++) kept[nkept][i] = options[i][at[i]];
            nkept++;
        }
        int i = nopt - 1;
        while (i >= 0 && ++at[i] == counts[i]) at[i--] = 0;
        if (i < 0) break;
    }
    *dead = least;
    int n = -1;
    uint64_t here[MAX_MELDS];
    for (int j = 0; j < nkept; j++) {
        uint64_t sets[13], taken = 0;
        int nsets = 0;
        for (int i = 0; i < nopt; i++) {
            taken += kept[j][i];
            if (kept[j][i]) sets[nsets++] = kept[j][i];
        }
        uint64_t rest = mask ^ taken;
        unsigned c[4] = {rest & BLOCK, rest >> 13 & BLOCK, rest >> 26 & BLOCK, rest >> 39 & BLOCK};
        int m = with_runs(mask, c, sets, nsets, n < 0 ? out : here);
        if (m < 0) return -1;
        if (n < 0) n = m;
        else if (compare_r81(here, m, out, n, mask) < 0) {
            memcpy(out, here, m * sizeof *here);
            n = m;
        }
    }
    return n;
}

static PyObject *
melds_tuple(const uint64_t *melds, int n)
{
    PyObject *out = PyTuple_New(n);
    if (out == NULL) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *v = meld_int(melds[i]);
        if (v == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, i, v);
    }
    return out;
}

/* (melds tuple) of the R8.1 arrangement of ``mask``, its deadwood in *dead. */
PyObject *
arranged(uint64_t mask, int *dead)
{
    unsigned s[4] = {mask & BLOCK, mask >> 13 & BLOCK, mask >> 26 & BLOCK, mask >> 39 & BLOCK};
    unsigned ranks = (s[0] & s[1] & (s[2] | s[3])) | (s[2] & s[3] & (s[0] | s[1]));
    if (!ranks) {
        *dead = RUNS[s[0]] + RUNS[s[1]] + RUNS[s[2]] + RUNS[s[3]];
        return runs_of(s);
    }
    uint64_t melds[MAX_MELDS];
    int n = with_sets(mask, ranks, melds, dead);
    if (n >= 0) return melds_tuple(melds, n);
    if (n == -1) return NULL;
    /* Past this code's bounds: the Python solve. */
    PyObject *m = PyLong_FromUnsignedLongLong(mask);
    if (m == NULL) return NULL;
    PyObject *res = PyObject_CallFunction(py_with_sets, "OI", m, ranks);
    Py_DECREF(m);
    if (res == NULL) return NULL;
    if (!PyTuple_CheckExact(res) || PyTuple_GET_SIZE(res) != 2) {
        Py_DECREF(res);
        PyErr_SetString(PyExc_TypeError, "_speedups: arrangement_with_sets gave no pair");
        return NULL;
    }
    PyObject *found = PyTuple_GET_ITEM(res, 0);
    long d = PyLong_AsLong(PyTuple_GET_ITEM(res, 1));
    if (d == -1 && PyErr_Occurred()) {
        Py_DECREF(res);
        return NULL;
    }
    *dead = (int)d;
    Py_INCREF(found);
    Py_DECREF(res);
    return found;
}
