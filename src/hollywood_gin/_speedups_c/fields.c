/* The C path of frozen.made_when_read: a field of a frozen, slotted dataclass kept in the
 * private slot ``_name``, set by ``__init__`` as any field is, or left LATER by a fast maker
 * and then made by ``make(obj)`` when first read, and kept.  The Python version is a
 * property, whose read runs a Python frame; this descriptor reads the slot in C, and calls
 * a maker that is a C function of one argument (the card tuples' makers of cards.c) without
 * an argument tuple (module.c says what the module is). */
#include "speedups.h"

typedef struct {
    PyObject_HEAD
    PyTypeObject *owner; /* the class whose slot it reads */
    PyObject *name;      /* the field's name */
    PyObject *private;   /* its slot's, "_" and the name */
    PyObject *make;      /* make(obj): the field's value */
    PyObject *later;     /* the mark of a field not made yet */
    PyObject *doc;
    PyCFunction cmake;   /* make's C function and its self, when make is one of one */
    PyObject *cself;
    Py_ssize_t offset;   /* the private slot's */
} Field;

/* What the Python property does, through the attribute ``_name`` (an object not of the
 * class: another with such an attribute, the error of one without). */
static PyObject *
other_get(Field *f, PyObject *obj)
{
    PyObject *value = PyObject_GetAttr(obj, f->private);
    if (value == NULL || value != f->later) return value;
    Py_DECREF(value);
    value = PyObject_CallOneArg(f->make, obj);
    if (value != NULL && PyObject_GenericSetAttr(obj, f->private, value) < 0) Py_CLEAR(value);
    return value;
}

static PyObject *
field_get(PyObject *self, PyObject *obj, PyObject *type)
{
    Field *f = (Field *)self;
    if (obj == NULL || obj == Py_None) { /* read on the class: the descriptor, as a property */
        Py_INCREF(self);
        return self;
    }
    if (!PyObject_TypeCheck(obj, f->owner)) return other_get(f, obj);
    PyObject **slot = (PyObject **)((char *)obj + f->offset);
    PyObject *value = *slot;
    if (value == NULL) return other_get(f, obj); /* never set: the slot's own error */
    if (value != f->later) {
        Py_INCREF(value);
        return value;
    }
    value = f->cmake != NULL ? f->cmake(f->cself, obj) : PyObject_CallOneArg(f->make, obj);
    if (value == NULL) return NULL;
    Py_INCREF(value);
    Py_XSETREF(*slot, value); /* the maker may have run Python code: the slot read again */
    return value;
}

static int
field_set(PyObject *self, PyObject *obj, PyObject *value)
{
    Field *f = (Field *)self;
    if (value == NULL) {
        PyErr_Format(PyExc_AttributeError, "field '%U' of '%.100s' object has no deleter",
                     f->name, Py_TYPE(obj)->tp_name);
        return -1;
    }
    if (!PyObject_TypeCheck(obj, f->owner))
        return PyObject_GenericSetAttr(obj, f->private, value);
    Py_INCREF(value);
    Py_XSETREF(*(PyObject **)((char *)obj + f->offset), value);
    return 0;
}

static int
field_traverse(PyObject *self, visitproc visit, void *arg)
{
    Field *f = (Field *)self;
    Py_VISIT(f->owner);
    Py_VISIT(f->make);
    Py_VISIT(f->later);
    Py_VISIT(f->doc);
    Py_VISIT(f->cself);
    return 0;
}

static int
field_clear(PyObject *self)
{
    Field *f = (Field *)self;
    f->cmake = NULL;
    Py_CLEAR(f->owner);
    Py_CLEAR(f->make);
    Py_CLEAR(f->later);
    Py_CLEAR(f->doc);
    Py_CLEAR(f->cself);
    return 0;
}

static void
field_dealloc(PyObject *self)
{
    PyObject_GC_UnTrack(self);
    field_clear(self);
    Py_CLEAR(((Field *)self)->name);
    Py_CLEAR(((Field *)self)->private);
    Py_TYPE(self)->tp_free(self);
}

static PyObject *
field_repr(PyObject *self)
{
    Field *f = (Field *)self;
    return PyUnicode_FromFormat("<field '%U' of '%.100s' objects, made when read>", f->name,
                                f->owner == NULL ? "?" : f->owner->tp_name);
}

static PyMemberDef field_members[] = {
    {"__doc__", T_OBJECT, offsetof(Field, doc), READONLY, NULL},
    {"__name__", T_OBJECT, offsetof(Field, name), READONLY, NULL},
    {"__objclass__", T_OBJECT, offsetof(Field, owner), READONLY, NULL},
    {"make", T_OBJECT, offsetof(Field, make), READONLY, "How the field is made when read."},
    {NULL},
};

PyTypeObject FieldType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "hollywood_gin._speedups.field_made_when_read",
    .tp_basicsize = sizeof(Field),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "A field of a frozen dataclass made when first read (frozen.made_when_read).",
    .tp_dealloc = field_dealloc,
    .tp_free = PyObject_GC_Del,
    .tp_traverse = field_traverse,
    .tp_clear = field_clear,
    .tp_repr = field_repr,
    .tp_members = field_members,
    .tp_descr_get = field_get,
    .tp_descr_set = field_set,
};

/* made_when_read(cls, name, make, later): frozen.made_when_read in C. */
PyObject *
sp_made_when_read(PyObject *module, PyObject *args)
{
    PyObject *cls, *name, *make, *later;
    if (!PyArg_ParseTuple(args, "O!UOO:made_when_read", &PyType_Type, &cls, &name, &make,
                          &later))
        return NULL;
    if (!PyCallable_Check(make)) {
        PyErr_SetString(PyExc_TypeError, "made_when_read: make must be callable");
        return NULL;
    }
    PyObject *private = PyUnicode_FromFormat("_%U", name);
    if (private == NULL) return NULL;
    PyUnicode_InternInPlace(&private);
    const char *text = PyUnicode_AsUTF8(private);
    Py_ssize_t offset;
    Field *f = NULL;
    if (text == NULL || slot_offset((PyTypeObject *)cls, text, &offset) < 0
            || (f = PyObject_GC_New(Field, &FieldType)) == NULL) {
        Py_DECREF(private);
        return NULL;
    }
    f->private = private;
    Py_INCREF(cls);
    f->owner = (PyTypeObject *)cls;
    Py_INCREF(name);
    f->name = name;
    Py_INCREF(make);
    f->make = make;
    Py_INCREF(later);
    f->later = later;
    f->doc = PyUnicode_FromFormat("The %U (made when read).", name);
    f->cmake = NULL;
    f->cself = NULL;
    f->offset = offset;
    if (PyCFunction_Check(make) && PyCFunction_GET_FLAGS(make) == METH_O) {
        f->cmake = PyCFunction_GET_FUNCTION(make);
        f->cself = PyCFunction_GET_SELF(make);
        Py_XINCREF(f->cself);
    }
    PyObject_GC_Track((PyObject *)f);
    if (f->doc == NULL || PyObject_SetAttr(cls, name, (PyObject *)f) < 0) {
        Py_DECREF(f);
        return NULL;
    }
    Py_DECREF(f);
    Py_RETURN_NONE;
}
