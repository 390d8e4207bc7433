/* The .npy header dictionary, read as numpy.lib.format reads it (npy_header.c). */
#ifndef MANIPLE_NPY_HEADER_H
#define MANIPLE_NPY_HEADER_H

#include <maniple/mn_core.h>
#include <stddef.h>
#include <stdint.h>

/* NumPy refuses longer headers unless allow_pickle=True (_MAX_HEADER_SIZE) */
#define MN_NPY_MAX_HEADER_CHARS 10000

typedef struct {
  int dtype;   /* an mn_dtype */
  int fortran; /* 'fortran_order': True */
  int ndim;
  int64_t shape[MN_MAXDIM];
} mn_npy_header;

/* Parse the header text (len bytes after the magic string, version and
 * length field) of a format `major`.0 file at path. Accepts and rejects
 * what NumPy does: the text is a Python literal evaluated as
 * ast.literal_eval would (comments, implicit string concatenation, escapes,
 * duplicated keys with the last value kept, Python 2 'L' suffixes in
 * versions 1 and 2), and it must be a dict with exactly the keys 'descr'
 * (a string), 'fortran_order' (True or False) and 'shape' (a tuple of
 * non-negative ints). Errors: MN_ERR_FORMAT naming the file and quoting
 * the header, MN_ERR_DTYPE for a dtype maniple does not hold, and
 * MN_ERR_NOTIMPL for more axes than MN_MAXDIM or a \N{...} escape in a
 * string (which maniple does not decode). */
int mn_npy_parse_header(const char *path, const char *text, size_t len, int major, mn_npy_header *h);

#endif
