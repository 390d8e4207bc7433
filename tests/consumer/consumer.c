/* Links against an installed maniple: sum of arange(10) must be 45. */
#include <maniple/maniple.h>
#include <stdio.h>

int main(void) {
  mn_ctx *ctx;
  mn_array *a;
  int64_t n = 10;
  mn_scalar s;
  if (mn_ctx_create(MPI_COMM_WORLD, MN_BACKEND_CPU, &ctx) || mn_array_create(ctx, MN_INT64, 1, &n, 0, &a) ||
      mn_array_arange(a, 0, 1) || mn_array_reduce(MN_RED_SUM, a, &s)) {
    fprintf(stderr, "%s\n", mn_ctx_errmsg(NULL));
    return 1;
  }
  mn_array_destroy(&a);
  mn_ctx_destroy(&ctx);
  if (s.v.i != 45) { fprintf(stderr, "sum(arange(10)) = %lld, expected 45\n", (long long)s.v.i); return 1; }
  return 0;
}
