/* The card tuples of the C path: cards.cards_from_mask, and the fields of answers made when
 * first read (melds.Arrangement's melds and unmatched, scoring.HandScore's melds, unmatched
 * cards and lay-offs), made from the masks their slots keep, as melds.py and scoring.py make
 * them (module.c says what the module is). */
#include "speedups.h"

/* Set by setup_cards(): the 52 cards in canonical order, the same by address (the header's
 * known_card_bit), and the Python function. */
static PyObject *card_objects[52];
PyObject *card_keys[CARD_SLOTS];
uint64_t card_bits[CARD_SLOTS];
uint64_t card_multiplier = 1;
static PyObject *py_cards_from_mask;

/* Set by setup_score(): melds.Layoff and the offsets of its two slots. */
PyTypeObject *layoff_type;
Py_ssize_t layoff_off[2];

/* The cards of a 52-bit mask in canonical order (the order of their bits), a new tuple. */
static PyObject *
tuple_of_mask(uint64_t mask)
{
    PyObject *out = PyTuple_New(popcount(mask));
    if (out == NULL) return NULL;
    for (Py_ssize_t k = 0; mask; k++, mask &= mask - 1) {
        PyObject *card = card_objects[__builtin_ctzll(mask)];
        Py_INCREF(card);
        PyTuple_SET_ITEM(out, k, card);
    }
    return out;
}

/* The cards of a 52-bit mask in canonical order (the order of their bits); anything else
 * (another int type, a negative int, a bit past the deck's, a keyword) is the Python
 * function's. */
PyObject *
sp_cards_from_mask(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
                   PyObject *kwnames)
{
    if (py_cards_from_mask == NULL) {
        PyErr_SetString(PyExc_RuntimeError,
                        "_speedups: not set up (import hollywood_gin.cards)");
        return NULL;
    }
    if (nargs != 1 || (kwnames != NULL && PyTuple_GET_SIZE(kwnames)))
        return PyObject_Vectorcall(py_cards_from_mask, args, nargs, kwnames);
    PyObject *arg = args[0];
    if (PyLong_CheckExact(arg)) {
        int overflow;
        long long v = PyLong_AsLongLongAndOverflow(arg, &overflow);
        if (v == -1 && PyErr_Occurred()) return NULL;
        if (!overflow && v >= 0 && !((unsigned long long)v >> 52))
            return tuple_of_mask((uint64_t)v);
    }
    return PyObject_CallOneArg(py_cards_from_mask, arg);
}

/* setup_cards(CARDS, cards_from_mask) */
PyObject *
sp_setup_cards(PyObject *module, PyObject *args)
{
    PyObject *cards, *fn;
    if (!PyArg_ParseTuple(args, "O!O:setup_cards", &PyTuple_Type, &cards, &fn)) return NULL;
    if (PyTuple_GET_SIZE(cards) != 52 || !PyCallable_Check(fn)) {
        PyErr_SetString(PyExc_ValueError, "_speedups: 52 cards and a function were expected");
        return NULL;
    }
    for (int i = 0; i < 52; i++) {
        PyObject *card = PyTuple_GET_ITEM(cards, i);
        for (int j = 0; j < i; j++) {
            if (PyTuple_GET_ITEM(cards, j) == card) {
                PyErr_SetString(PyExc_ValueError, "_speedups: 52 different cards were expected");
                return NULL;
            }
        }
    }
    /* A perfect hash of the cards' addresses: odd multipliers tried until the 52 slots
     * differ and none is 0 (about one in fifteen does); none found (never seen), no card
     * is found by address and every one is read from its slot. */
    memset(card_keys, 0, sizeof card_keys); /* the old cards stay kept by card_objects */
    memset(card_bits, 0, sizeof card_bits);
    uint64_t mult = 0x9E3779B97F4A7C15ull;
    for (int tries = 0; tries < 100000; tries++, mult = mult * 6364136223846793005ull
                                                        + 1442695040888963407ull) {
        uint8_t used[CARD_SLOTS] = {0};
        int ok = 1;
        card_multiplier = mult | 1;
        for (int i = 0; i < 52 && ok; i++) {
            unsigned h = card_slot(PyTuple_GET_ITEM(cards, i));
            ok = h != 0 && !used[h];
            used[h] = 1;
        }
        if (!ok) continue;
        for (int i = 0; i < 52; i++) {
            unsigned h = card_slot(PyTuple_GET_ITEM(cards, i));
            card_keys[h] = PyTuple_GET_ITEM(cards, i);
            card_bits[h] = (uint64_t)1 << i;
        }
        break;
    }
    for (int i = 0; i < 52; i++) {
        PyObject *card = PyTuple_GET_ITEM(cards, i);
        Py_INCREF(card);
        Py_XSETREF(card_objects[i], card);
    }
    Py_INCREF(fn);
    Py_XSETREF(py_cards_from_mask, fn);
    Py_RETURN_NONE;
}

/* ---- the fields made when read ---- */

/* The int in a slot as a mask, 0 with an error set if it is not one. */
static int
slot_mask(PyObject *obj, Py_ssize_t offset, uint64_t *out)
{
    if (mask_of_int(*(PyObject **)((char *)obj + offset), out)) return 1;
    PyErr_SetString(PyExc_TypeError, "_speedups: a mask slot holds no mask");
    return 0;
}

/* The meld masks in a slot (a tuple of ints) into ``masks``; how many, -1 on error. */
static int
slot_melds(PyObject *obj, Py_ssize_t offset, uint64_t *masks)
{
    PyObject *t = *(PyObject **)((char *)obj + offset);
    if (t != NULL && PyTuple_CheckExact(t) && PyTuple_GET_SIZE(t) <= 17) {
        int n = (int)PyTuple_GET_SIZE(t), i = 0;
        while (i < n && mask_of_int(PyTuple_GET_ITEM(t, i), &masks[i])) i++;
        if (i == n) return n;
    }
    PyErr_SetString(PyExc_TypeError, "_speedups: a melds slot holds no melds");
    return -1;
}

/* The cards of each meld met, kept (melds._meld_cards): the card tuples of results are made
 * of them; and the meld's mask as an int, which the answers' meld tuples hold.  Open
 * addressing on the meld's mask; a few hundred melds are legal, and past MELDS_KEPT a
 * meld's values are made each time. */
#define MELD_SLOTS 1024
#define MELDS_KEPT 768
static uint64_t meld_keys[MELD_SLOTS];
static PyObject *meld_values[MELD_SLOTS], *meld_ints[MELD_SLOTS];
static int melds_kept;

/* The slot of a meld: its own, a free one to keep it in, or -1 (none left). */
static int
meld_slot(uint64_t meld)
{
    unsigned h = (unsigned)((meld * 0x9E3779B97F4A7C15ull) >> 54);
    for (;; h = (h + 1) & (MELD_SLOTS - 1)) {
        if (meld_keys[h] == meld) return (int)h;
        if (meld_keys[h] == 0) break;
    }
    if (!meld || melds_kept == MELDS_KEPT) return -1;
    melds_kept++;
    meld_keys[h] = meld;
    return (int)h;
}

/* The cards of a meld mask (a new reference). */
PyObject *
meld_cards(uint64_t meld)
{
    int h = meld_slot(meld);
    if (h >= 0 && meld_values[h] != NULL) {
        Py_INCREF(meld_values[h]);
        return meld_values[h];
    }
    PyObject *cards = tuple_of_mask(meld);
    if (cards != NULL && h >= 0) {
        Py_INCREF(cards);
        meld_values[h] = cards;
    }
    return cards;
}

/* A meld's mask as an int (a new reference), kept like its cards. */
PyObject *
meld_int(uint64_t meld)
{
    int h = meld_slot(meld);
    if (h >= 0 && meld_ints[h] != NULL) {
        Py_INCREF(meld_ints[h]);
        return meld_ints[h];
    }
    PyObject *v = PyLong_FromUnsignedLongLong(meld);
    if (v != NULL && h >= 0) {
        Py_INCREF(v);
        meld_ints[h] = v;
    }
    return v;
}

/* melds._melds_cards: the cards of each meld. */
static PyObject *
melds_cards(PyObject *obj, Py_ssize_t offset)
{
    uint64_t masks[17];
    int n = slot_melds(obj, offset, masks);
    if (n < 0) return NULL;
    if (n == 0) {
        Py_INCREF(empty_tuple);
        return empty_tuple;
    }
    PyObject *out = PyTuple_New(n);
    if (out == NULL) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *cards = meld_cards(masks[i]);
        if (cards == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, i, cards);
    }
    return out;
}

/* melds._unmatched_cards: the cards of the hand in none of the melds. */
static PyObject *
unmatched_cards(PyObject *obj, Py_ssize_t hand_offset, Py_ssize_t melds_offset)
{
    uint64_t hand, masks[17];
    if (!slot_mask(obj, hand_offset, &hand)) return NULL;
    int n = slot_melds(obj, melds_offset, masks);
    if (n < 0) return NULL;
    for (int i = 0; i < n; i++) hand &= ~masks[i];
    return tuple_of_mask(hand);
}

static int
is_a(PyObject *obj, PyTypeObject *type)
{
    if (type != NULL && PyObject_TypeCheck(obj, type)) return 1;
    PyErr_SetString(PyExc_TypeError, "_speedups: not the type set up");
    return 0;
}

PyObject *
sp_arrangement_melds(PyObject *module, PyObject *arr)
{
    return is_a(arr, arrangement_type) ? melds_cards(arr, arr_off[1]) : NULL;
}

PyObject *
sp_arrangement_unmatched(PyObject *module, PyObject *arr)
{
    return is_a(arr, arrangement_type) ? unmatched_cards(arr, arr_off[0], arr_off[1]) : NULL;
}

/* HandScore's slots: 5 _mask_defender, 6 _mask_defender_melds, 7 _mask_knocker_melds,
 * 8 _mask_knocker_unmatched. */
PyObject *
sp_score_knocker_melds(PyObject *module, PyObject *score)
{
    return is_a(score, score_type) ? melds_cards(score, score_off[7]) : NULL;
}

PyObject *
sp_score_knocker_unmatched(PyObject *module, PyObject *score)
{
    uint64_t mask;
    if (!is_a(score, score_type) || !slot_mask(score, score_off[8], &mask)) return NULL;
    return tuple_of_mask(mask);
}

PyObject *
sp_score_defender_melds(PyObject *module, PyObject *score)
{
    return is_a(score, score_type) ? melds_cards(score, score_off[6]) : NULL;
}

PyObject *
sp_score_defender_unmatched(PyObject *module, PyObject *score)
{
    return is_a(score, score_type) ? unmatched_cards(score, score_off[5], score_off[6]) : NULL;
}

/* melds.layoffs_from_masks: a Layoff a card laid off (the slot's (way, meld) pairs), in
 * canonical order. */
PyObject *
sp_score_layoffs(PyObject *module, PyObject *score)
{
    if (!is_a(score, score_type)) return NULL;
    if (layoff_type == NULL) return not_set_up();
    PyObject *pairs = *(PyObject **)((char *)score + score_off[9]); /* _mask_pairs */
    if (pairs == NULL || !PyTuple_CheckExact(pairs) || PyTuple_GET_SIZE(pairs) > 17) goto bad;
    int np = (int)PyTuple_GET_SIZE(pairs);
    if (np == 0) {
        Py_INCREF(empty_tuple);
        return empty_tuple;
    }
    uint64_t ways[17], onto[17], all = 0;
    for (int i = 0; i < np; i++) {
        PyObject *pair = PyTuple_GET_ITEM(pairs, i);
        if (!PyTuple_CheckExact(pair) || PyTuple_GET_SIZE(pair) != 2
                || !mask_of_int(PyTuple_GET_ITEM(pair, 0), &ways[i])
                || !mask_of_int(PyTuple_GET_ITEM(pair, 1), &onto[i])
                || (ways[i] & all))
            goto bad;
        all |= ways[i];
    }
    /* The cards' pairs by card: the ways never share a card, so canonical order is the
     * order of the bits of ``all``. */
    int8_t pair_of[52];
    for (int i = 0; i < np; i++)
        for (uint64_t w = ways[i]; w; w &= w - 1) pair_of[__builtin_ctzll(w)] = (int8_t)i;
    PyObject *melds[17] = {NULL}, *out = PyTuple_New(popcount(all));
    if (out == NULL) return NULL;
    Py_ssize_t k = 0;
    for (uint64_t w = all; w; w &= w - 1, k++) {
        int card = __builtin_ctzll(w), i = pair_of[card];
        if (melds[i] == NULL && (melds[i] = meld_cards(onto[i])) == NULL) goto fail;
        PyObject *lay = layoff_type->tp_alloc(layoff_type, 0);
        if (lay == NULL) goto fail;
        Py_INCREF(card_objects[card]);
        set_slot(lay, layoff_off[0], card_objects[card]);
        Py_INCREF(melds[i]);
        set_slot(lay, layoff_off[1], melds[i]);
        PyTuple_SET_ITEM(out, k, lay);
    }
    for (int i = 0; i < np; i++) Py_XDECREF(melds[i]);
    return out;
fail:
    for (int i = 0; i < np; i++) Py_XDECREF(melds[i]);
    Py_DECREF(out);
    return NULL;
bad:
    PyErr_SetString(PyExc_TypeError, "_speedups: a pairs slot holds no lay-offs");
    return NULL;
}
