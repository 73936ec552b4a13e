/* The private header of the optional C path of the card API (hollywood_gin._speedups): what
 * its files share.  module.c (the module, its setup and the functions deadwood and
 * best_melds), solve.c (cards to a mask, the least deadwood), cards.c (masks to card tuples:
 * cards_from_mask, the answers' fields made when read, the lay-offs), fields.c (the
 * descriptor of a field made when read), arrange.c (R8.1's arrangement) and score.c
 * (score_hand) are compiled into the one extension. */
#ifndef HOLLYWOOD_GIN_SPEEDUPS_H
#define HOLLYWOOD_GIN_SPEEDUPS_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <stdint.h>
#include <string.h>

#define BLOCK 0x1FFFu
#define MAX_SOLVED 24   /* melds.MAX_SOLVED_CARDS */
#define MAX_ARRANGED 11 /* melds.MAX_ARRANGED_CARDS */

/* module.c: the runs-only deadwood of every suit block (solve._RUN_DEADWOOD), the summed
 * card values of every block, and what setup() gives: the types, the slots' offsets and the
 * Python functions; the interned names and the empty tuple. */
extern uint8_t RUNS[8192];
extern uint8_t POINTS[8192];
extern PyTypeObject *card_type, *arrangement_type, *score_type;
extern Py_ssize_t bit_offset;
extern Py_ssize_t arr_off[5];    /* _hand, _masks, _melds, _unmatched, deadwood */
extern Py_ssize_t score_off[15]; /* HandScore.__slots__ in order */
extern PyObject *py_deadwood, *py_best_melds, *py_score_hand, *py_with_sets, *later,
    *default_rules;
extern PyObject *s_knock, *s_undercut, *s_gin, *s_big_gin, *s_knocker, *s_defender,
    *s_knock_limit, *s_gin_bonus, *s_big_gin_bonus, *s_undercut_bonus, *s_rules,
    *s_knocker_melds;
extern PyObject *empty_tuple;

PyObject *not_set_up(void);
int slot_offset(PyTypeObject *type, const char *name, Py_ssize_t *offset);

/* cards.c: the 52 cards setup_cards() was given, found by their address (each is kept, so
 * no other object can have it) through a perfect hash setup_cards() finds: a card's slot
 * holds it and its bit, every other slot NULL and 0, and slot 0, where NULL falls, holds
 * no card.  A look-up is a multiplication and a compare, no loop. */
#define CARD_SLOTS 512
extern PyObject *card_keys[CARD_SLOTS];
extern uint64_t card_bits[CARD_SLOTS];
extern uint64_t card_multiplier;

static inline unsigned
card_slot(PyObject *obj)
{
    return (unsigned)((((uintptr_t)obj >> 4) * card_multiplier) >> 55); /* 9 bits */
}

/* The bit of one of the 52 cards set up, 0 for any other object (NULL included). */
static inline uint64_t
known_card_bit(PyObject *obj)
{
    unsigned h = card_slot(obj);
    return card_keys[h] == obj ? card_bits[h] : 0;
}

/* The int ``v`` as a 52-bit mask: 1 and *out set, or 0 for anything else (no error set).
 * On CPython 3.11 to 3.13 with 30-bit digits its digits are read where longintrepr.h
 * puts them (a 52-bit int has at most two); elsewhere through the API. */
static inline int
mask_of_int(PyObject *v, uint64_t *out)
{
    if (v == NULL || !PyLong_CheckExact(v)) return 0;
#if PyLong_SHIFT == 30 && PY_VERSION_HEX >= 0x030B0000 && PY_VERSION_HEX < 0x030E0000
    const digit *d;
    Py_ssize_t n;
#if PY_VERSION_HEX < 0x030C0000
    n = Py_SIZE(v); /* negative for a negative int */
    d = ((PyLongObject *)v)->ob_digit;
#else
    uintptr_t tag = ((PyLongObject *)v)->long_value.lv_tag;
    n = (tag & 3) == 2 ? -1 : (Py_ssize_t)(tag >> 3); /* sign 2: negative */
    d = ((PyLongObject *)v)->long_value.ob_digit;
#endif
    if (n == 0) *out = 0;
    else if (n == 1) *out = d[0];
    else if (n == 2 && !(d[1] >> 22)) *out = (uint64_t)d[0] | (uint64_t)d[1] << 30;
    else return 0;
    return 1;
#else
    int overflow;
    long long m = PyLong_AsLongLongAndOverflow(v, &overflow);
    if (m == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        return 0;
    }
    if (overflow || m < 0 || (unsigned long long)m >> 52) return 0;
    *out = (uint64_t)m;
    return 1;
#endif
}

/* Bits set, without a call (__builtin_popcountll is one, to libgcc, unless the build
 * targets a CPU known to have the instruction). */
static inline int
popcount(uint64_t m)
{
    m -= m >> 1 & 0x5555555555555555ull;
    m = (m & 0x3333333333333333ull) + (m >> 2 & 0x3333333333333333ull);
    m = (m + (m >> 4)) & 0x0F0F0F0F0F0F0F0Full;
    return (int)((m * 0x0101010101010101ull) >> 56);
}

static inline void
set_slot(PyObject *obj, Py_ssize_t offset, PyObject *value)
{
    /* ``value`` is a new reference, stolen */
    *(PyObject **)((char *)obj + offset) = value;
}

/* solve.c */
int deadwood_of_mask(uint64_t mask);
int read_cards(PyObject *cards, uint64_t *mask, Py_ssize_t *count);

/* arrange.c: every least arrangement of a block's runs, as met (for block_ways, a test's). */
typedef struct {
    int n;              /* 0: not met yet (a block has at least one) */
    int best;           /* the way R8.1 picks */
    uint8_t *len;       /* runs in each way */
    uint16_t (*runs)[4];
} BlockWays;
BlockWays *ways_of(unsigned block);
PyObject *way_tuple(BlockWays *bw, int way, int suit);
PyObject *best_tuple(int suit, unsigned block);
PyObject *arranged(uint64_t mask, int *dead);

/* cards.c */
PyObject *meld_cards(uint64_t meld);
PyObject *meld_int(uint64_t meld);
PyObject *sp_cards_from_mask(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
                             PyObject *kwnames);
PyObject *sp_setup_cards(PyObject *module, PyObject *args);
PyObject *sp_arrangement_melds(PyObject *module, PyObject *arr);
PyObject *sp_arrangement_unmatched(PyObject *module, PyObject *arr);
PyObject *sp_score_knocker_melds(PyObject *module, PyObject *score);
PyObject *sp_score_knocker_unmatched(PyObject *module, PyObject *score);
PyObject *sp_score_defender_melds(PyObject *module, PyObject *score);
PyObject *sp_score_defender_unmatched(PyObject *module, PyObject *score);
PyObject *sp_score_layoffs(PyObject *module, PyObject *score);
extern PyTypeObject *layoff_type;
extern Py_ssize_t layoff_off[2]; /* card, meld */

/* fields.c */
extern PyTypeObject FieldType;
PyObject *sp_made_when_read(PyObject *module, PyObject *args);

/* score.c */
PyObject *sp_score_hand(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
                        PyObject *kwnames);

#endif
