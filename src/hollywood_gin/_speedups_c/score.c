/* score_hand with cards (scoring.pure_score_hand): the knocker's arrangement, the
 * defender's lay-offs (melds._layoff_ways and the choice among them) and the HandScore made
 * as the frozen maker makes it (module.c says what the module is). */
#include "speedups.h"

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
    PyObject *meld_ints[8]; /* the same melds, the knocker's own ints (borrowed) */
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
        PyObject *pair = a == NULL ? NULL : PyTuple_Pack(2, a, L->meld_ints[i]);
        Py_XDECREF(a);
        if (pair == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, k++, pair);
    }
    return out;
}

/* score_hand(knocker, defender, *, rules=..., knocker_melds=None, knock_limit=None) */
PyObject *
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
            if (ok < 0) { /* not a Rules: Python's to refuse in words */
                PyErr_Clear();
                ok = 0;
            }
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
            if (limit < 0 || limit > 10) { /* not a limit the rules allow (R5.1): Python's */
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
        if (!mask_of_int(PyTuple_GET_ITEM(k_melds, i), &melds[i])) { /* never: ours */
            Py_DECREF(k_melds);
            PyErr_SetString(PyExc_SystemError, "_speedups: a meld is not a mask");
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
                L.meld_ints[L.n] = PyTuple_GET_ITEM(k_melds, i);
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
