/* Optional C path of the card API (issue 16): deadwood, best_melds and score_hand with cards.
 *
 * The pure-Python functions of melds.py and scoring.py are the source of truth; this module
 * answers the usual calls the same way and hands anything else to them (setup() gives it
 * the Python functions): a non-card, a repeated card, too many cards, a hand that cannot
 * knock, an unusual argument.  So every error is the Python path's own, message included.
 *
 * Tables come from Python too: the runs-only deadwood of every 13-bit suit block
 * (solve._RUN_DEADWOOD), and, filled as blocks are met, the runs R8.1 picks in a block
 * (arrange._best_runs) and every least arrangement of a block's runs (arrange._ways).  The
 * choice of sets and R8.1's tie-breaks are arrange.arrangement_with_sets and _with_runs
 * written again, step for step.  Results are made as the Python makers make them: the
 * objects' slots filled, their card tuples left to be made when read.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <stdint.h>
#include <string.h>

#define BLOCK 0x1FFFu
#define MAX_SOLVED 24   /* melds.MAX_SOLVED_CARDS */
#define MAX_ARRANGED 11 /* melds.MAX_ARRANGED_CARDS */

static uint8_t RUNS[8192];

/* Set by setup(): the types, the slots' offsets and the Python functions. */
static PyTypeObject *card_type, *arrangement_type, *score_type;
static Py_ssize_t bit_offset;
static Py_ssize_t arr_off[5];    /* _hand, _masks, _melds, _unmatched, deadwood */
static Py_ssize_t score_off[15]; /* HandScore.__slots__ in order */
static PyObject *py_deadwood, *py_best_melds, *py_score_hand, 
    *py_with_sets, *later, *default_rules;
static PyObject *s_knock, *s_undercut, *s_gin, *s_big_gin, *s_knocker, *s_defender,
    *s_knock_limit, *s_gin_bonus, *s_big_gin_bonus, *s_undercut_bonus, *s_rules,
    *s_knocker_melds;
static PyObject *empty_tuple;
/* Per suit and block, filled as met: the runs R8.1 picks (a tuple of meld ints shifted to
 * the suit). */

/* ---- least deadwood of a mask (solve.deadwood_of_mask) ---- */

static int
deadwood_with_sets(unsigned ranks, unsigned s0, unsigned s1, unsigned s2, unsigned s3)
{
    unsigned bit = ranks & (0u - ranks), rest = ranks ^ bit, keep = ~bit;
    unsigned c0 = s0 & keep, c1 = s1 & keep, c2 = s2 & keep, c3 = s3 & keep;
    unsigned four = s0 & s1 & s2 & s3 & bit;
    if (rest) {
        int best = deadwood_with_sets(rest, s0, s1, s2, s3), v;
        v = deadwood_with_sets(rest, c0, c1, c2, c3);
        if (v < best) best = v;
        if (four) {
            v = deadwood_with_sets(rest, s0, c1, c2, c3); if (v < best) best = v;
            v = deadwood_with_sets(rest, c0, s1, c2, c3); if (v < best) best = v;
            v = deadwood_with_sets(rest, c0, c1, s2, c3); if (v < best) best = v;
            v = deadwood_with_sets(rest, c0, c1, c2, s3); if (v < best) best = v;
        }
        return best;
    }
    int a0 = RUNS[s0], a1 = RUNS[s1], a2 = RUNS[s2], a3 = RUNS[s3];
    int b0 = RUNS[c0], b1 = RUNS[c1], b2 = RUNS[c2], b3 = RUNS[c3];
    int without = a0 + a1 + a2 + a3, with_set = b0 + b1 + b2 + b3;
    if (four) {
        int m = 0;
        if (a0 - b0 < m) m = a0 - b0;
        if (a1 - b1 < m) m = a1 - b1;
        if (a2 - b2 < m) m = a2 - b2;
        if (a3 - b3 < m) m = a3 - b3;
        with_set += m;
    }
    return without < with_set ? without : with_set;
}

static int
deadwood_of_mask(uint64_t mask)
{
    unsigned s0 = mask & BLOCK, s1 = mask >> 13 & BLOCK, s2 = mask >> 26 & BLOCK,
             s3 = mask >> 39 & BLOCK;
    unsigned ranks = (s0 & s1 & (s2 | s3)) | (s2 & s3 & (s0 | s1));
    if (!ranks) return RUNS[s0] + RUNS[s1] + RUNS[s2] + RUNS[s3];
    return deadwood_with_sets(ranks, s0, s1, s2, s3);
}

/* ---- reading cards ---- */

/* The bit of one card, or 0 for anything that is not a card as the engine makes them. */
static inline uint64_t
bit_of(PyObject *item)
{
    if (Py_TYPE(item) != card_type) return 0;
    PyObject *bit = *(PyObject **)((char *)item + bit_offset);
    if (bit == NULL || !PyLong_CheckExact(bit)) return 0;
    unsigned long long v = PyLong_AsUnsignedLongLong(bit);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) {
        PyErr_Clear();
        return 0;
    }
    if (v == 0 || (v & (v - 1)) || v >> 52) return 0;
    return v;
}

/* The mask of a list, tuple or set of cards: 1 with *mask and *count (items given) set,
 * 0 for anything the Python path should take (another iterable, a non-card), -1 on error. */
static int
read_cards(PyObject *cards, uint64_t *mask, Py_ssize_t *count)
{
    uint64_t m = 0, b;
    if (PyList_CheckExact(cards) || PyTuple_CheckExact(cards)) {
        Py_ssize_t n = PySequence_Fast_GET_SIZE(cards);
        PyObject **items = PySequence_Fast_ITEMS(cards);
        for (Py_ssize_t i = 0; i < n; i++) {
            if (!(b = bit_of(items[i]))) return 0;
            m |= b;
        }
        *mask = m;
        *count = n;
        return 1;
    }
    if (PyAnySet_CheckExact(cards)) {
        Py_ssize_t n = 0;
#if PY_VERSION_HEX < 0x030D0000
        /* The set's own walk (borrowed items, no iterator): CPython 3.11 and 3.12. */
        Py_ssize_t pos = 0;
        PyObject *item;
        Py_hash_t hash;
        while (_PySet_NextEntry(cards, &pos, &item, &hash)) {
            if (!(b = bit_of(item))) return 0;
            m |= b;
            n++;
        }
#else
        PyObject *it = PyObject_GetIter(cards), *item;
        if (it == NULL) return -1;
        while ((item = PyIter_Next(it)) != NULL) {
            b = bit_of(item);
            Py_DECREF(item);
            if (!b) {
                Py_DECREF(it);
                return 0;
            }
            m |= b;
            n++;
        }
        Py_DECREF(it);
        if (PyErr_Occurred()) return -1;
#endif
        *mask = m;
        *count = n;
        return 1;
    }
    return 0;
}

static inline int
popcount(uint64_t m)
{
    return __builtin_popcountll(m);
}

/* ---- the R8.1 arrangement of a mask (arrange.arranged_of_mask) ---- */

static PyObject *best_tuple(int suit, unsigned block);

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
                unsigned long long v = PyLong_AsUnsignedLongLong(meld);
                if (v == (unsigned long long)-1 && PyErr_Occurred()) {
                    Py_DECREF(out);
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
 * as blocks are met; and the one R8.1 picks alone (arrange._best_runs). */
typedef struct {
    int n;              /* 0: not met yet (a block has at least one) */
    int best;           /* the way R8.1 picks */
    uint8_t *len;       /* runs in each way */
    uint16_t (*runs)[4];
} BlockWays;
static BlockWays block_ways[8192];
static uint8_t POINTS[8192];

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

static BlockWays *
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

static PyObject *
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

static PyObject *
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
            out[n++] = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(t, i));
            if (PyErr_Occurred()) return -1;
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
        PyObject *v = PyLong_FromUnsignedLongLong(melds[i]);
        if (v == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, i, v);
    }
    return out;
}

/* (melds tuple) of the R8.1 arrangement of ``mask``, its deadwood in *dead. */
static PyObject *
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

/* ---- objects as the frozen makers make them ---- */

static inline void
set_slot(PyObject *obj, Py_ssize_t offset, PyObject *value)
{
    /* ``value`` is a new reference, stolen */
    *(PyObject **)((char *)obj + offset) = value;
}

static PyObject *
new_arrangement(uint64_t hand, PyObject *melds, int dead)
{
    PyObject *h = PyLong_FromUnsignedLongLong(hand);
    if (h == NULL) {
        Py_DECREF(melds);
        return NULL;
    }
    PyObject *d = PyLong_FromLong(dead);
    PyObject *obj = d == NULL ? NULL : arrangement_type->tp_alloc(arrangement_type, 0);
    if (obj == NULL) {
        Py_DECREF(h);
        Py_DECREF(melds);
        Py_XDECREF(d);
        return NULL;
    }
    set_slot(obj, arr_off[0], h);
    set_slot(obj, arr_off[1], melds);
    Py_INCREF(later);
    set_slot(obj, arr_off[2], later);
    Py_INCREF(later);
    set_slot(obj, arr_off[3], later);
    set_slot(obj, arr_off[4], d);
    return obj;
}

/* ---- the public functions ---- */

static PyObject *
not_set_up(void)
{
    PyErr_SetString(PyExc_RuntimeError, "_speedups: not set up (import hollywood_gin.melds)");
    return NULL;
}

/* One positional argument, the cards; anything else is the Python function's to answer. */
#define ONE_CARDS_ARG(fallback)                                                   \
    if (fallback == NULL) return not_set_up();                                    \
    if (nargs != 1 || (kwnames != NULL && PyTuple_GET_SIZE(kwnames)))             \
        return PyObject_Vectorcall(fallback, args, nargs, kwnames);               \
    PyObject *cards = args[0]

static PyObject *
sp_deadwood(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    ONE_CARDS_ARG(py_deadwood);
    uint64_t mask;
    Py_ssize_t n;
    int ok = read_cards(cards, &mask, &n);
    if (ok < 0) return NULL;
    if (ok == 0 || (n > MAX_SOLVED && popcount(mask) > MAX_SOLVED))
        return PyObject_CallOneArg(py_deadwood, cards);
    return PyLong_FromLong(deadwood_of_mask(mask));
}

static PyObject *
sp_best_melds(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    ONE_CARDS_ARG(py_best_melds);
    uint64_t mask;
    Py_ssize_t n;
    int ok = read_cards(cards, &mask, &n);
    if (ok < 0) return NULL;
    if (ok == 0 || n > MAX_ARRANGED || popcount(mask) != n)
        return PyObject_CallOneArg(py_best_melds, cards);
    int dead;
    PyObject *melds = arranged(mask, &dead);
    if (melds == NULL) return NULL;
    return new_arrangement(mask, melds, dead);
}

/* The ways defender cards can go onto one knocker meld (melds._layoff_ways, the defender's
 * cards never being the knocker's), in its order; returns how many. */
static int
layoff_ways(uint64_t meld, uint64_t defender, uint64_t *ways)
{
    int low = __builtin_ctzll(meld), high = 63 - __builtin_clzll(meld);
    ways[0] = 0;
    if (low % 13 == high % 13) { /* a set */
        if (popcount(meld) == 3) {
            int r = low % 13;
            uint64_t rank = ((uint64_t)1 << r) | ((uint64_t)1 << (r + 13))
                | ((uint64_t)1 << (r + 26)) | ((uint64_t)1 << (r + 39));
            uint64_t fourth = rank & ~meld & defender;
            if (fourth) {
                ways[1] = fourth;
                return 2;
            }
        }
        return 1;
    }
    uint64_t below[14], above[14], acc = 0;
    int nb = 1, na = 1;
    below[0] = above[0] = 0;
    for (int i = low - 1; i >= 0 && i / 13 == low / 13 && (defender >> i & 1); i--) {
        acc |= (uint64_t)1 << i;
        below[nb++] = acc;
    }
    acc = 0;
    for (int i = high + 1; i < 52 && i / 13 == high / 13 && (defender >> i & 1); i++) {
        acc |= (uint64_t)1 << i;
        above[na++] = acc;
    }
    int k = 0;
    for (int b = 0; b < nb; b++)
        for (int a = 0; a < na; a++) ways[k++] = below[b] | above[a];
    return k;
}

typedef struct {
    int n;                 /* touched melds */
    uint64_t melds[8];
    uint64_t ways[8][196];
    int counts[8];
    uint64_t defender;
    int choice[8], best_choice[8];
    int best_dead, best_laid, best_used, found;
} Layout;

/* Every combination in itertools.product's order; a clash in a prefix clashes in all of
 * its completions, which product's loop skips one by one. */
static void
layout_walk(Layout *L, int at, uint64_t laid, int used)
{
    if (at == L->n) {
        if (!laid) return;
        int dead = deadwood_of_mask(L->defender & ~laid), count = popcount(laid);
        if (dead < L->best_dead || (dead == L->best_dead && (count < L->best_laid
                || (count == L->best_laid && used < L->best_used)))) {
            L->best_dead = dead;
            L->best_laid = count;
            L->best_used = used;
            memcpy(L->best_choice, L->choice, sizeof L->choice);
            L->found = 1;
        }
        return;
    }
    for (int i = 0; i < L->counts[at]; i++) {
        uint64_t way = L->ways[at][i];
        if (laid & way) continue;
        L->choice[at] = i;
        layout_walk(L, at + 1, laid | way, used + (way != 0));
    }
}

static int
int_attr(PyObject *obj, PyObject *name, long *out, int *none)
{
    PyObject *v = PyObject_GetAttr(obj, name);
    if (v == NULL) return -1;
    if (v == Py_None && none != NULL) {
        *none = 1;
        Py_DECREF(v);
        return 1;
    }
    if (!PyLong_CheckExact(v)) {
        Py_DECREF(v);
        return 0;
    }
    *out = PyLong_AsLong(v);
    Py_DECREF(v);
    if (*out == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        return 0;
    }
    if (none != NULL) *none = 0;
    return 1;
}

static PyObject *
meld_pairs(Layout *L)
{
    int n = 0;
    for (int i = 0; i < L->n; i++) n += L->ways[i][L->best_choice[i]] != 0;
    PyObject *out = PyTuple_New(n);
    if (out == NULL) return NULL;
    int k = 0;
    for (int i = 0; i < L->n; i++) {
        uint64_t way = L->ways[i][L->best_choice[i]];
        if (!way) continue;
        PyObject *a = PyLong_FromUnsignedLongLong(way);
        PyObject *b = a == NULL ? NULL : PyLong_FromUnsignedLongLong(L->melds[i]);
        PyObject *pair = b == NULL ? NULL : PyTuple_Pack(2, a, b);
        Py_XDECREF(a);
        Py_XDECREF(b);
        if (pair == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, k++, pair);
    }
    return out;
}

/* score_hand(knocker, defender, *, rules=..., knocker_melds=None, knock_limit=None) */
static PyObject *
sp_score_hand(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    if (py_score_hand == NULL) return not_set_up();
    PyObject *rules = default_rules, *limit_obj = Py_None;
    Py_ssize_t nkw = kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames);
    int usual = nargs == 2;
    for (Py_ssize_t i = 0; i < nkw && usual; i++) {
        PyObject *name = PyTuple_GET_ITEM(kwnames, i), *value = args[nargs + i];
        if (PyUnicode_Compare(name, s_rules) == 0) rules = value;
        else if (PyUnicode_Compare(name, s_knock_limit) == 0) limit_obj = value;
        else if (PyUnicode_Compare(name, s_knocker_melds) == 0) usual = value == Py_None;
        else usual = 0;
        if (PyErr_Occurred()) return NULL;
    }
    uint64_t k = 0, d = 0;
    Py_ssize_t nk = 0, nd = 0;
    int ok = 0;
    if (usual) {
        ok = read_cards(args[0], &k, &nk);
        if (ok > 0) ok = read_cards(args[1], &d, &nd);
        if (ok < 0) return NULL;
    }
    long limit = 0, gin_bonus = 0, big_bonus = 0, undercut_bonus = 0;
    int no_big = 1;
    if (ok && popcount(k) == nk && popcount(d) == nd && !(k & d) && nd == 10
            && (nk == 10 || nk == 11)) {
        /* Rules is a frozen value: the last one met is read once and kept. */
        static PyObject *known;
        static long known_limit, known_gin, known_big, known_undercut;
        static int known_no_big;
        if (rules != known) {
            ok = int_attr(rules, s_knock_limit, &known_limit, NULL);
            if (ok > 0) ok = int_attr(rules, s_gin_bonus, &known_gin, NULL);
            if (ok > 0) ok = int_attr(rules, s_big_gin_bonus, &known_big, &known_no_big);
            if (ok > 0) ok = int_attr(rules, s_undercut_bonus, &known_undercut, NULL);
            if (ok < 0) return NULL;
            if (ok) {
                Py_INCREF(rules);
                Py_XSETREF(known, rules);
            }
        }
        limit = known_limit;
        gin_bonus = known_gin;
        big_bonus = known_big;
        no_big = known_no_big;
        undercut_bonus = known_undercut;
        if (ok && limit_obj != Py_None) {
            limit = PyLong_CheckExact(limit_obj) ? PyLong_AsLong(limit_obj) : -1;
            if (limit == -1) { /* not an int, or one out of range: Python's to answer */
                PyErr_Clear();
                ok = 0;
            }
        }
    }
    else ok = 0;
    int k_dead = 0;
    PyObject *k_melds = NULL;
    if (ok) {
        k_melds = arranged(k, &k_dead);
        if (k_melds == NULL) return NULL;
        if ((nk == 11 && (no_big || k_dead)) || k_dead > limit) {
            Py_CLEAR(k_melds); /* an illegal knock: the Python path says why */
        }
    }
    if (k_melds == NULL) return PyObject_Vectorcall(py_score_hand, args, nargs, kwnames);

    uint64_t covered = 0;
    Py_ssize_t nm = PyTuple_GET_SIZE(k_melds);
    uint64_t melds[8];
    if (nm > 8) {
        Py_DECREF(k_melds);
        return PyObject_Vectorcall(py_score_hand, args, nargs, kwnames);
    }
    for (Py_ssize_t i = 0; i < nm; i++) {
        melds[i] = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(k_melds, i));
        if (melds[i] == (uint64_t)-1 && PyErr_Occurred()) {
            Py_DECREF(k_melds);
            return NULL;
        }
        covered |= melds[i];
    }
    PyObject *pairs = NULL, *d_melds = NULL, *kind, *winner, *points = NULL;
    int d_dead;
    if (k_dead == 0) { /* R5.7: gin; the defender may not lay off */
        d_melds = arranged(d, &d_dead);
        if (d_melds == NULL) goto fail;
        Py_INCREF(empty_tuple);
        pairs = empty_tuple;
        winner = s_knocker;
        if (nk == 11) {
            kind = s_big_gin;
            points = PyLong_FromLong(big_bonus + d_dead);
        }
        else {
            kind = s_gin;
            points = PyLong_FromLong(gin_bonus + d_dead);
        }
    }
    else {
        Layout L;
        L.n = 0;
        L.defender = d;
        for (Py_ssize_t i = 0; i < nm; i++) { /* the melds he could touch (R5.3) */
            uint64_t meld = melds[i], low = meld & (0 - meld);
            int lo = __builtin_ctzll(meld), top = 63 - __builtin_clzll(meld);
            uint64_t beside = 0, fourth = 0;
            if (lo % 13 == top % 13) {
                if (popcount(meld) == 3) {
                    int r = lo % 13;
                    fourth = (((uint64_t)1 << r) | ((uint64_t)1 << (r + 13))
                              | ((uint64_t)1 << (r + 26)) | ((uint64_t)1 << (r + 39))) & ~meld;
                }
            }
            else {
                beside = (lo % 13 ? low >> 1 : 0) | (top % 13 < 12 ? (uint64_t)2 << top : 0);
            }
            if ((beside & d) || (fourth & d)) {
                L.melds[L.n] = meld;
                L.counts[L.n] = layoff_ways(meld, d, L.ways[L.n]);
                L.n++;
            }
        }
        uint64_t rest = d;
        if (L.n) {
            L.best_dead = deadwood_of_mask(d);
            L.best_laid = 0;
            L.best_used = 0;
            L.found = 0;
            layout_walk(&L, 0, 0, 0);
            d_dead = L.best_dead;
            if (L.found) {
                pairs = meld_pairs(&L);
                if (pairs == NULL) goto fail;
                for (int i = 0; i < L.n; i++) rest &= ~L.ways[i][L.best_choice[i]];
            }
            else {
                Py_INCREF(empty_tuple);
                pairs = empty_tuple;
            }
            int unused;
            d_melds = arranged(rest, &unused);
            if (d_melds == NULL) goto fail;
        }
        else {
            Py_INCREF(empty_tuple);
            pairs = empty_tuple;
            d_melds = arranged(d, &d_dead);
            if (d_melds == NULL) goto fail;
        }
        d = rest;
        if (k_dead < d_dead) { /* R5.5 */
            kind = s_knock;
            winner = s_knocker;
            points = PyLong_FromLong(d_dead - k_dead);
        }
        else { /* R5.6 */
            kind = s_undercut;
            winner = s_defender;
            points = PyLong_FromLong(undercut_bonus + k_dead - d_dead);
        }
    }
    if (points == NULL) goto fail;
    PyObject *values[15];
    values[5] = PyLong_FromUnsignedLongLong(d);
    values[8] = PyLong_FromUnsignedLongLong(k & ~covered);
    values[10] = PyLong_FromLong(d_dead);
    values[12] = PyLong_FromLong(k_dead);
    PyObject *obj = NULL;
    if (values[5] && values[8] && values[10] && values[12])
        obj = score_type->tp_alloc(score_type, 0);
    if (obj == NULL) {
        Py_XDECREF(values[5]);
        Py_XDECREF(values[8]);
        Py_XDECREF(values[10]);
        Py_XDECREF(values[12]);
        goto fail;
    }
    for (int i = 0; i < 5; i++) {
        Py_INCREF(later);
        values[i] = later;
    }
    values[6] = d_melds;
    values[7] = k_melds;
    values[9] = pairs;
    Py_INCREF(kind);
    values[11] = kind;
    values[13] = points;
    Py_INCREF(winner);
    values[14] = winner;
    for (int i = 0; i < 15; i++) set_slot(obj, score_off[i], values[i]);
    return obj;
fail:
    Py_XDECREF(k_melds);
    Py_XDECREF(d_melds);
    Py_XDECREF(pairs);
    Py_XDECREF(points);
    return NULL;
}

/* ---- setup ---- */

static int
slot_offset(PyTypeObject *type, const char *name, Py_ssize_t *offset)
{
    PyObject *descr = PyDict_GetItemString(type->tp_dict, name);
    if (descr == NULL || !Py_IS_TYPE(descr, &PyMemberDescr_Type)) {
        PyErr_Format(PyExc_TypeError, "_speedups: %s.%s is not a slot", type->tp_name, name);
        return -1;
    }
    PyMemberDef *member = ((PyMemberDescrObject *)descr)->d_member;
    if (member->type != T_OBJECT_EX) {
        PyErr_Format(PyExc_TypeError, "_speedups: %s.%s is not an object slot",
                     type->tp_name, name);
        return -1;
    }
    *offset = member->offset;
    return 0;
}

static int
keep(PyObject *obj, PyObject **where)
{
    Py_INCREF(obj);
    Py_XSETREF(*where, obj);
    return 0;
}

static int
offsets(PyTypeObject *type, PyObject *names, Py_ssize_t *out, Py_ssize_t count)
{
    if (PyTuple_GET_SIZE(names) != count) {
        PyErr_SetString(PyExc_ValueError, "_speedups: unexpected slots");
        return -1;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *name = PyTuple_GET_ITEM(names, i);
        const char *text = PyUnicode_Check(name) ? PyUnicode_AsUTF8(name) : NULL;
        if (text == NULL) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "_speedups: slot name");
            return -1;
        }
        if (slot_offset(type, text, &out[i]) < 0) return -1;
    }
    return 0;
}

static int
check_callables(PyObject **fns, int n)
{
    for (int i = 0; i < n; i++) {
        if (!PyCallable_Check(fns[i])) {
            PyErr_SetString(PyExc_TypeError, "_speedups: a function was expected");
            return -1;
        }
    }
    return 0;
}

/* setup_melds(Card, Arrangement, slots, runs table, deadwood, best_melds,
 *             arrangement_with_sets, LATER) */
static PyObject *
sp_setup_melds(PyObject *module, PyObject *args)
{
    PyObject *card, *arrangement, *slots, *runs, *fns[3], *lat;
    if (!PyArg_ParseTuple(args, "O!O!O!O!OOOO:setup_melds", &PyType_Type, &card,
                          &PyType_Type, &arrangement, &PyTuple_Type, &slots, &PyList_Type,
                          &runs, &fns[0], &fns[1], &fns[2], &lat))
        return NULL;
    if (PyList_GET_SIZE(runs) != 8192) {
        PyErr_SetString(PyExc_ValueError, "_speedups: the runs table has 8,192 blocks");
        return NULL;
    }
    uint8_t table[8192];
    for (Py_ssize_t i = 0; i < 8192; i++) {
        long v = PyLong_AsLong(PyList_GET_ITEM(runs, i));
        if (v == -1 && PyErr_Occurred()) return NULL;
        if (v < 0 || v > 255) {
            PyErr_SetString(PyExc_ValueError, "_speedups: a deadwood out of range");
            return NULL;
        }
        table[i] = (uint8_t)v;
    }
    Py_ssize_t bit, arr[5];
    if (slot_offset((PyTypeObject *)card, "bit", &bit) < 0
            || offsets((PyTypeObject *)arrangement, slots, arr, 5) < 0
            || check_callables(fns, 3) < 0)
        return NULL;
    memcpy(RUNS, table, sizeof RUNS);
    bit_offset = bit;
    memcpy(arr_off, arr, sizeof arr_off);
    keep(card, (PyObject **)&card_type);
    keep(arrangement, (PyObject **)&arrangement_type);
    keep(fns[0], &py_deadwood);
    keep(fns[1], &py_best_melds);
    keep(fns[2], &py_with_sets);
    keep(lat, &later);
    Py_RETURN_NONE;
}

/* setup_score(HandScore, slots, score_hand, default rules): after setup_melds */
static PyObject *
sp_setup_score(PyObject *module, PyObject *args)
{
    PyObject *score, *slots, *fn, *rules;
    if (!PyArg_ParseTuple(args, "O!O!OO:setup_score", &PyType_Type, &score, &PyTuple_Type,
                          &slots, &fn, &rules))
        return NULL;
    if (card_type == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "_speedups: setup_melds first");
        return NULL;
    }
    Py_ssize_t off[15];
    if (offsets((PyTypeObject *)score, slots, off, 15) < 0 || check_callables(&fn, 1) < 0)
        return NULL;
    memcpy(score_off, off, sizeof score_off);
    keep(score, (PyObject **)&score_type);
    keep(fn, &py_score_hand);
    keep(rules, &default_rules);
    Py_RETURN_NONE;
}

static PyObject *
sp_deadwood_of_mask(PyObject *module, PyObject *arg)
{
    unsigned long long m = PyLong_AsUnsignedLongLong(arg);
    if (m == (unsigned long long)-1 && PyErr_Occurred()) return NULL;
    if (m >> 52) {
        PyErr_SetString(PyExc_ValueError, "not a mask of cards");
        return NULL;
    }
    return PyLong_FromLong(deadwood_of_mask(m));
}

/* For tests: the block tables as arrange keeps them (shifted to ``suit``). */
static PyObject *
sp_block_ways(PyObject *module, PyObject *args)
{
    int suit;
    unsigned block;
    if (!PyArg_ParseTuple(args, "iI:block_ways", &suit, &block)) return NULL;
    if (suit < 0 || suit > 3 || block > BLOCK || card_type == NULL) {
        PyErr_SetString(PyExc_ValueError, "_speedups.block_ways: no such block");
        return NULL;
    }
    BlockWays *bw = ways_of(block);
    if (bw == NULL) return NULL;
    PyObject *ways = PyTuple_New(bw->n);
    if (ways == NULL) return NULL;
    for (int i = 0; i < bw->n; i++) {
        PyObject *t = way_tuple(bw, i, suit);
        if (t == NULL) {
            Py_DECREF(ways);
            return NULL;
        }
        PyTuple_SET_ITEM(ways, i, t);
    }
    PyObject *best = best_tuple(suit, block);
    if (best == NULL) {
        Py_DECREF(ways);
        return NULL;
    }
    Py_INCREF(best);
    return Py_BuildValue("(NN)", ways, best);
}

static PyMethodDef methods[] = {
    {"block_ways", sp_block_ways, METH_VARARGS,
     "(every least arrangement of a block's runs, the one R8.1 picks), shifted to a suit."},
    {"setup_melds", sp_setup_melds, METH_VARARGS,
     "Give the module the solver's table, the types and the Python functions of melds."},
    {"setup_score", sp_setup_score, METH_VARARGS,
     "Give the module HandScore, the Python score_hand and the default rules."},
    {"deadwood", (PyCFunction)(void (*)(void))sp_deadwood, METH_FASTCALL | METH_KEYWORDS,
     "Least deadwood (R2.4) of some cards (a repeated card counts once): the C path of\n"
     "melds.pure_deadwood, the source of truth, which takes any unusual call."},
    {"best_melds", (PyCFunction)(void (*)(void))sp_best_melds, METH_FASTCALL | METH_KEYWORDS,
     "The least-deadwood arrangement of a hand, among equals R8.1's: the C path of\n"
     "melds.pure_best_melds, the source of truth, which takes any unusual call."},
    {"score_hand", (PyCFunction)(void (*)(void))sp_score_hand,
     METH_FASTCALL | METH_KEYWORDS, "Score a knock: the C path of scoring.pure_score_hand, the source of truth, which\n"
     "takes any unusual call (shown melds, an illegal knock, other arguments)."},
    {"deadwood_of_mask", sp_deadwood_of_mask, METH_O,
     "Least deadwood of a 52-bit mask (for tests: the C solve alone)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "hollywood_gin._speedups",
    "Optional C path of the card API; the pure-Python functions are the source of truth.",
    -1, methods,
};

PyMODINIT_FUNC
PyInit__speedups(void)
{
    PyObject *m = PyModule_Create(&module_def);
    if (m == NULL) return NULL;
#define INTERN(var, text) if ((var = PyUnicode_InternFromString(text)) == NULL) goto error
    INTERN(s_knock, "knock");
    INTERN(s_undercut, "undercut");
    INTERN(s_gin, "gin");
    INTERN(s_big_gin, "big_gin");
    INTERN(s_knocker, "knocker");
    INTERN(s_defender, "defender");
    INTERN(s_knock_limit, "knock_limit");
    INTERN(s_gin_bonus, "gin_bonus");
    INTERN(s_big_gin_bonus, "big_gin_bonus");
    INTERN(s_undercut_bonus, "undercut_bonus");
    INTERN(s_rules, "rules");
    INTERN(s_knocker_melds, "knocker_melds");
#undef INTERN
    if ((empty_tuple = PyTuple_New(0)) == NULL) goto error;
    for (unsigned b = 0; b < 8192; b++) { /* the summed card values of each block */
        int p = 0;
        for (int r = 0; r < 13; r++)
            if (b >> r & 1) p += r < 10 ? r + 1 : 10;
        POINTS[b] = (uint8_t)p;
    }
    return m;
error:
    Py_DECREF(m);
    return NULL;
}
