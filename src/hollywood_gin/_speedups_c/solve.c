/* Cards to a mask, and the least deadwood of a mask (solve.deadwood_of_mask), for the
 * optional C path of the card API (module.c says what the module is). */
#include "speedups.h"

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

int
deadwood_of_mask(uint64_t mask)
{
    unsigned s0 = mask & BLOCK, s1 = mask >> 13 & BLOCK, s2 = mask >> 26 & BLOCK,
             s3 = mask >> 39 & BLOCK;
    unsigned ranks = (s0 & s1 & (s2 | s3)) | (s2 & s3 & (s0 | s1));
    if (!ranks) return RUNS[s0] + RUNS[s1] + RUNS[s2] + RUNS[s3];
    return deadwood_with_sets(ranks, s0, s1, s2, s3);
}

/* ---- reading cards ---- */

/* The bit of a card that is not one of the 52 set up (made by object.__new__, say): its
 * stored bit, or 0 for anything that is not a card as the engine makes them. */
static uint64_t
other_bit(PyObject *item)
{
    uint64_t v;
    if (Py_TYPE(item) != card_type) return 0;
    if (!mask_of_int(*(PyObject **)((char *)item + bit_offset), &v)) return 0;
    if (v == 0 || (v & (v - 1))) return 0;
    return v;
}

/* The bit of one card, or 0 for anything that is not a card as the engine makes them.  The
 * cards met are the 52 of the deck (Card() gives them, pickling too): found by address. */
static inline uint64_t
bit_of(PyObject *item)
{
    uint64_t b = known_card_bit(item);
    return b ? b : other_bit(item);
}

/* The mask of a list, tuple or set of cards: 1 with *mask and *count (items given) set,
 * 0 for anything the Python path should take (another iterable, a non-card), -1 on error. */
int
read_cards(PyObject *cards, uint64_t *mask, Py_ssize_t *count)
{
    uint64_t m = 0, b;
    if (PyList_CheckExact(cards) || PyTuple_CheckExact(cards)) {
        Py_ssize_t n = PySequence_Fast_GET_SIZE(cards), known = 0;
        PyObject **items = PySequence_Fast_ITEMS(cards);
        for (Py_ssize_t i = 0; i < n; i++) { /* the deck's cards, without a branch */
            b = known_card_bit(items[i]);
            m |= b;
            known += b != 0;
        }
        if (known != n) { /* another object among them: each read with care */
            m = 0;
            for (Py_ssize_t i = 0; i < n; i++) {
                if (!(b = bit_of(items[i]))) return 0;
                m |= b;
            }
        }
        *mask = m;
        *count = n;
        return 1;
    }
    if (PyAnySet_CheckExact(cards)) {
        Py_ssize_t n = 0;
#ifndef Py_GIL_DISABLED
        /* The set's own table (setobject.h): an entry is a live item when its key is set
         * and its hash is not -1 (-1 marks a removed item's dummy).  Nothing here runs
         * Python code, so the table cannot change under the walk.  First every entry
         * without a branch (an empty one's NULL finds no card): all the items found among
         * the deck's cards is the usual case; otherwise each entry is read with care. */
        PySetObject *so = (PySetObject *)cards;
        setentry *table = so->table;
        Py_ssize_t known = 0, size = so->mask + 1;
        for (Py_ssize_t i = 0; i < size; i++) {
            b = known_card_bit(table[i].key);
            m |= b;
            known += b != 0;
        }
        if (known != so->used) {
            m = 0;
            for (Py_ssize_t i = 0; i < size; i++) {
                if (table[i].key == NULL || table[i].hash == -1) continue;
                if (!(b = bit_of(table[i].key))) return 0;
                m |= b;
            }
        }
        n = so->used;
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
