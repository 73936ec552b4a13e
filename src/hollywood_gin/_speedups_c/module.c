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
 *
 * Its files (speedups.h says what they share): this one, the module with its setup and the
 * functions deadwood and best_melds; solve.c, cards to a mask and the least deadwood;
 * cards.c, masks to card tuples (cards_from_mask, the answers' fields made when read, the
 * lay-offs); fields.c, the descriptor of a field made when read (frozen.made_when_read);
 * arrange.c, R8.1's arrangement; score.c, score_hand.
 */
#include "speedups.h"

uint8_t RUNS[8192], POINTS[8192];

/* Set by setup(): the types, the slots' offsets and the Python functions. */
PyTypeObject *card_type, *arrangement_type, *score_type;
Py_ssize_t bit_offset;
Py_ssize_t arr_off[5];    /* _hand, _masks, _melds, _unmatched, deadwood */
Py_ssize_t score_off[15]; /* HandScore.__slots__ in order */
PyObject *py_deadwood, *py_best_melds, *py_score_hand,
    *py_with_sets, *later, *default_rules;
PyObject *s_knock, *s_undercut, *s_gin, *s_big_gin, *s_knocker, *s_defender,
    *s_knock_limit, *s_gin_bonus, *s_big_gin_bonus, *s_undercut_bonus, *s_rules,
    *s_knocker_melds;
PyObject *empty_tuple;

/* An Arrangement as the frozen maker makes it. */
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

PyObject *
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

/* ---- setup ---- */

int
slot_offset(PyTypeObject *type, const char *name, Py_ssize_t *offset)
{
    /* the class's or a base's (a subclass's instances have its slots where it has them) */
    PyObject *descr = PyObject_GetAttrString((PyObject *)type, name);
    if (descr == NULL) PyErr_Clear();
    else Py_DECREF(descr); /* kept by the class that has it */
    if (descr == NULL || !Py_IS_TYPE(descr, &PyMemberDescr_Type)
            || !PyType_IsSubtype(type, PyDescr_TYPE(descr))) {
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

/* setup_score(HandScore, slots, score_hand, default rules, Layoff): after setup_melds */
static PyObject *
sp_setup_score(PyObject *module, PyObject *args)
{
    PyObject *score, *slots, *fn, *rules, *layoff;
    if (!PyArg_ParseTuple(args, "O!O!OOO!:setup_score", &PyType_Type, &score, &PyTuple_Type,
                          &slots, &fn, &rules, &PyType_Type, &layoff))
        return NULL;
    if (card_type == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "_speedups: setup_melds first");
        return NULL;
    }
    Py_ssize_t off[15], lay[2];
    if (offsets((PyTypeObject *)score, slots, off, 15) < 0 || check_callables(&fn, 1) < 0
            || slot_offset((PyTypeObject *)layoff, "card", &lay[0]) < 0
            || slot_offset((PyTypeObject *)layoff, "meld", &lay[1]) < 0)
        return NULL;
    memcpy(score_off, off, sizeof score_off);
    memcpy(layoff_off, lay, sizeof layoff_off);
    keep(score, (PyObject **)&score_type);
    keep(layoff, (PyObject **)&layoff_type);
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
    {"setup_cards", sp_setup_cards, METH_VARARGS,
     "Give the module the 52 cards in canonical order and the Python cards_from_mask."},
    {"cards_from_mask", (PyCFunction)(void (*)(void))sp_cards_from_mask,
     METH_FASTCALL | METH_KEYWORDS,
     "The cards of a mask in canonical order: the C path of cards.pure_cards_from_mask,\n"
     "the source of truth, which takes anything but a 52-bit int."},
    {"arrangement_melds", sp_arrangement_melds, METH_O,
     "Arrangement.melds made when read (melds._arrangement_melds)."},
    {"arrangement_unmatched", sp_arrangement_unmatched, METH_O,
     "Arrangement.unmatched made when read (melds._arrangement_unmatched)."},
    {"score_knocker_melds", sp_score_knocker_melds, METH_O,
     "HandScore.knocker_melds made when read."},
    {"score_knocker_unmatched", sp_score_knocker_unmatched, METH_O,
     "HandScore.knocker_unmatched made when read."},
    {"score_defender_melds", sp_score_defender_melds, METH_O,
     "HandScore.defender_melds made when read."},
    {"score_defender_unmatched", sp_score_defender_unmatched, METH_O,
     "HandScore.defender_unmatched made when read."},
    {"score_layoffs", sp_score_layoffs, METH_O,
     "HandScore.layoffs made when read (melds.layoffs_from_masks)."},
    {"made_when_read", sp_made_when_read, METH_VARARGS,
     "made_when_read(cls, name, make, later): frozen.made_when_read in C, a descriptor over\n"
     "the slot _name that makes the field with make(obj) when it holds later."},
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
    if (PyType_Ready(&FieldType) < 0) return NULL;
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
