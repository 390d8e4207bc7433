/* maniple: distributed dense and sparse arrays over MPI. Umbrella header. */
#ifndef MANIPLE_H
#define MANIPLE_H
#include "mn_core.h"
#include "mn_log.h"
#include "mn_layout.h"
#include "mn_array.h"
#include "mn_select.h"
#include "mn_sort.h"
#include "mn_linalg.h"
#include "mn_partition.h"
#include "mn_sparse.h"
#include "mn_solver.h"
#include "mn_stencil.h"
#endif
