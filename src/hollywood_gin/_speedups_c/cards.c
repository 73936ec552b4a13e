/* The card tuples of the C path: cards.cards_from_mask, and the fields of answers made when
 * first read (melds.Arrangement's melds and unmatched, scoring.HandScore's melds and
 * unmatched cards), made from the masks their slots keep, as melds.py and scoring.py make
 * them (module.c says what the module is). */
#include "speedups.h"

/* Set by setup_cards(): the 52 cards in canonical order, and the Python function. */
static PyObject *card_objects[52];
static PyObject *py_cards_from_mask;

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
    PyObject *v = *(PyObject **)((char *)obj + offset);
    if (v != NULL && PyLong_CheckExact(v)) {
        int overflow;
        long long m = PyLong_AsLongLongAndOverflow(v, &overflow);
        if (m == -1 && PyErr_Occurred()) return 0;
        if (!overflow && m >= 0 && !((unsigned long long)m >> 52)) {
            *out = (uint64_t)m;
            return 1;
        }
    }
    PyErr_SetString(PyExc_TypeError, "_speedups: a mask slot holds no mask");
    return 0;
}

/* The meld masks in a slot (a tuple of ints) into ``masks``; how many, -1 on error. */
static int
slot_melds(PyObject *obj, Py_ssize_t offset, uint64_t *masks)
{
    PyObject *t = *(PyObject **)((char *)obj + offset);
    if (t == NULL || !PyTuple_CheckExact(t) || PyTuple_GET_SIZE(t) > 17) {
        PyErr_SetString(PyExc_TypeError, "_speedups: a melds slot holds no melds");
        return -1;
    }
    int n = (int)PyTuple_GET_SIZE(t);
    for (int i = 0; i < n; i++) {
        PyObject *v = PyTuple_GET_ITEM(t, i);
        int overflow;
        long long m = PyLong_CheckExact(v) ? PyLong_AsLongLongAndOverflow(v, &overflow) : -1;
        if (m == -1 && PyErr_Occurred()) return -1;
        if (m < 0 || overflow || (unsigned long long)m >> 52) {
            PyErr_SetString(PyExc_TypeError, "_speedups: a melds slot holds no melds");
            return -1;
        }
        masks[i] = (uint64_t)m;
    }
    return n;
}

/* melds._melds_cards: the cards of each meld. */
static PyObject *
melds_cards(PyObject *obj, Py_ssize_t offset)
{
    uint64_t masks[17];
    int n = slot_melds(obj, offset, masks);
    if (n < 0) return NULL;
    PyObject *out = PyTuple_New(n);
    if (out == NULL) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *cards = tuple_of_mask(masks[i]);
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
