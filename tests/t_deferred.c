/* Errors met on one rank alone in the steady state: an allocation inside a
 * repeated evaluation, injected on the last rank (mni_fault_arm). The call
 * returns on every rank, makes no collective, and moves its messages so
 * no rank waits; the error is raised on every rank, with its message and
 * the rank it came from, at the next point where the ranks communicate:
 * mn_ctx_sync, or a reduction. At one rank the call itself returns it.
 * The same for an array whose storage cannot be allocated on one rank:
 * creating it makes no collective, evaluations skip that rank's work and
 * the next reduction raises the error everywhere. After that, evaluations
 * work again and give the serial loop's values. */
#include "mn_test.h"
#include "mn_impl.h" /* mni_fault_arm */

/* every MPI_Allreduce in this process, the library's included (PMPI) */
static int64_t nallreduce = 0;
int MPI_Allreduce(const void *in, void *out, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm) {
  nallreduce++;
  return PMPI_Allreduce(in, out, n, t, op, comm);
}

static double fa(int64_t i) { return 1.0 + (double)i; }
static double fb(int64_t i) { return 0.5 * (double)(i % 13); }

/* c = a[1:] + b[:-1], against the serial loop */
static void check_sum(mn_array *c, int64_t n, const char *what) {
  double *got = mt_all(c);
  int64_t bad = 0;
  for (int64_t i = 0; i < n - 1; i++) bad += got[i] != fa(i + 1) + fb(i);
  T_CHECK(bad == 0, "%s: %lld of %lld elements differ from the serial loop", what, (long long)bad, (long long)(n - 1));
  free(got);
}

int main(int argc, char **argv) {
  mn_ctx *ctx = mt_init(argc, argv);
  int P = mn_ctx_size(ctx), last = P - 1, r = mn_ctx_rank(ctx);
  int64_t n = 1000, m = n - 1;
  mn_array *a = mt_new(ctx, MN_FLOAT64, 1, &n, fa), *b = mt_new(ctx, MN_FLOAT64, 1, &n, fb);
  mn_array *c = mt_new(ctx, MN_FLOAT64, 1, &m, NULL);
  mn_index i1 = mn_slice(1, MN_NONE, 1), i0 = mn_slice(0, -1, 1);
  mn_array *x = mt_view(a, 1, &i1), *y = mt_view(b, 1, &i0);
  if (!x || !y || !c) return 1;

  /* the first evaluation builds the plans and agrees; repeats make no collective */
  T_OK(mn_array_binary(MN_OP_ADD, x, y, c));
  int64_t a0 = nallreduce;
  for (int k = 0; k < 3; k++) T_OK(mn_array_binary(MN_OP_ADD, x, y, c));
  T_CHECK(nallreduce == a0, "3 repeated evaluations made %lld allreduces (expected none)", (long long)(nallreduce - a0));
  check_sum(c, n, "steady state");

  /* a failure on the last rank alone: deferred, raised by mn_ctx_sync */
  T_OK(mn_array_fill(c, mn_scalar_f64(-1.0)));
  if (r == last) mni_fault_arm(MNI_FAULT_EVAL, 1);
  a0 = nallreduce;
  int rc = mn_array_binary(MN_OP_ADD, x, y, c);
  int64_t during = nallreduce - a0;
  if (P == 1) {
    T_EXPECT(rc, MN_ERR_MEM, "one rank: the failed evaluation", "cannot allocate", "pieces");
  } else {
    T_CHECK(rc == MN_SUCCESS, "the failed evaluation returned %s on rank %d, expected the error deferred",
            mn_err_name(rc), r);
    T_CHECK(during == 0, "the failed evaluation made %lld allreduces (expected none)", (long long)during);
    char from[32];
    snprintf(from, sizeof from, "rank %d", last);
    T_EXPECT(mn_ctx_sync(ctx), MN_ERR_MEM, "mn_ctx_sync after a failure on one rank", "cannot allocate", "pieces",
             "met earlier on this rank", r == last ? NULL : from);
    /* the other ranks computed their part; the failed rank left its own alone */
    double *got = mt_all(c);
    mn_local loc;
    T_OK(mn_array_local(c, &loc));
    int64_t lo = loc.lo[0], hi = loc.lo[0] + loc.count[0], untouched = 0;
    for (int64_t i = lo; i < hi; i++) untouched += got[i] == -1.0;
    T_CHECK(r == last ? untouched == hi - lo : untouched == 0,
            "rank %d: %lld of its %lld elements left at -1 (expected %s)", r, (long long)untouched,
            (long long)(hi - lo), r == last ? "all" : "none");
    free(got);
  }
  T_OK(mn_ctx_sync(ctx)); /* raised once: nothing left */
  T_OK(mn_array_binary(MN_OP_ADD, x, y, c));
  check_sum(c, n, "after the error");

  /* raised by the next reduction instead, on every rank */
  if (r == last) mni_fault_arm(MNI_FAULT_EVAL, 1);
  rc = mn_array_binary(MN_OP_ADD, x, y, c);
  T_CHECK(P == 1 ? rc == MN_ERR_MEM : rc == MN_SUCCESS, "second failure: returned %s on rank %d", mn_err_name(rc), r);
  mn_scalar s;
  T_EXPECT(mn_array_reduce(MN_RED_SUM, a, &s), P == 1 ? MN_SUCCESS : MN_ERR_MEM, "a reduction after a failure",
           "cannot allocate", "pieces");
  T_OK(mn_array_reduce(MN_RED_SUM, a, &s));
  T_CHECK(s.v.f == (double)n * (double)(n + 1) / 2, "sum %.17g, expected %.17g", s.v.f, (double)n * (n + 1) / 2);

  /* an array whose storage cannot be allocated on the last rank: created on
   * every rank with no collective, written and read by evaluations that
   * skip that rank's work, and the error raised by the next reduction */
  mn_array *t = NULL;
  T_OK(mn_array_create_empty(ctx, MN_FLOAT64, 1, &m, &t)); /* the same statements once, to keep their plans */
  T_OK(mn_array_binary(MN_OP_ADD, x, y, t));
  T_OK(mn_array_binary(MN_OP_MUL, t, y, c));
  T_OK(mn_array_reduce(MN_RED_SUM, t, &s));
  mn_array_destroy(&t);
  if (r == last) mni_fault_arm(MNI_FAULT_ARRAY, 1);
  a0 = nallreduce;
  rc = mn_array_create_empty(ctx, MN_FLOAT64, 1, &m, &t);
  T_CHECK(P == 1 ? rc == MN_ERR_MEM && !t : rc == MN_SUCCESS && t, "creation with storage lost returned %s on rank %d",
          mn_err_name(rc), r);
  T_CHECK(nallreduce == a0, "creating an array made %lld allreduces (expected none)", (long long)(nallreduce - a0));
  if (t) {
    T_OK(mn_array_binary(MN_OP_ADD, x, y, t)); /* written */
    T_OK(mn_array_binary(MN_OP_MUL, t, y, c)); /* read, shifted onto c's split */
    T_EXPECT(mn_array_reduce(MN_RED_SUM, t, &s), MN_ERR_MEM, "a reduction after storage was lost", "cannot allocate",
             "bytes for the local block of a float64 array of shape (999,)");
    T_OK(mn_ctx_sync(ctx));
    mn_array_destroy(&t);
  }
  T_OK(mn_array_binary(MN_OP_ADD, x, y, c));
  check_sum(c, n, "after lost storage");

  mn_array_destroy(&x);
  mn_array_destroy(&y);
  mn_array_destroy(&a);
  mn_array_destroy(&b);
  mn_array_destroy(&c);
  return mt_finish(&ctx);
}
