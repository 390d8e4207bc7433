/* mn_ctx_bcast and mn_ctx_all, the collectives front ends use: values
 * against a serial reference, the profiling log's counts, bad roots. */
#include "mn_test.h"

int main(int argc, char **argv) {
  mn_ctx *ctx = mt_init(argc, argv);
  int P = mn_ctx_size(ctx), me = mn_ctx_rank(ctx);
  /* from each root in turn: a pattern only the root holds */
  for (int root = 0; root < P; root++) {
    enum { N = 1000 };
    unsigned char buf[N];
    for (int i = 0; i < N; i++) buf[i] = me == root ? (unsigned char)(i * 7 + root) : 0xee;
    T_OK(mn_ctx_bcast(ctx, buf, N, root));
    int bad = -1;
    for (int i = 0; i < N && bad < 0; i++)
      if (buf[i] != (unsigned char)(i * 7 + root)) bad = i;
    T_CHECK(bad < 0, "bcast from %d: byte %d is %d, expected %d", root, bad, bad < 0 ? 0 : buf[bad],
            bad < 0 ? 0 : (unsigned char)(bad * 7 + root));
  }
  T_OK(mn_ctx_bcast(ctx, NULL, 0, 0)); /* nothing to send is fine */
  /* all: false when any rank says no */
  for (int no = -1; no < P; no++) {
    int all = -1;
    T_OK(mn_ctx_all(ctx, me != no, &all));
    T_CHECK(all == (no < 0), "mn_ctx_all with rank %d saying no gave %d", no, all);
  }
  /* counted by the log: one bcast event, one allreduce */
  T_OK(mn_log_enable(ctx));
  T_OK(mn_log_reset(ctx));
  double v = me == 0 ? 2.5 : 0;
  int all = 0;
  T_OK(mn_ctx_bcast(ctx, &v, sizeof v, 0));
  T_OK(mn_ctx_all(ctx, 1, &all));
  mn_log_stats b, a;
  T_OK(mn_log_get(ctx, MN_LOG_BCAST, &b));
  T_OK(mn_log_get(ctx, MN_LOG_ALLREDUCE, &a));
  T_CHECK(v == 2.5 && all == 1, "bcast gave %g, all %d", v, all);
  T_CHECK(b.calls == 1 && a.calls == 1, "log counted %lld bcasts and %lld allreduces, expected 1 and 1",
          (long long)b.calls, (long long)a.calls);
  T_CHECK(!strcmp(mn_log_event_name(MN_LOG_BCAST), "bcast"), "event name %s", mn_log_event_name(MN_LOG_BCAST));
  T_OK(mn_log_disable(ctx));
  /* a bad root is refused on every rank, before any message */
  char c = 0;
  int e = mn_ctx_bcast(ctx, &c, 1, P);
  T_CHECK(e == MN_ERR_ARG && strstr(mn_ctx_errmsg(ctx), "root rank"), "root %d gave %s: %s", P, mn_err_name(e),
          mn_ctx_errmsg(ctx));
  e = mn_ctx_bcast(ctx, &c, -1, 0);
  T_CHECK(e == MN_ERR_ARG && strstr(mn_ctx_errmsg(ctx), "-1 bytes"), "n = -1 gave %s: %s", mn_err_name(e),
          mn_ctx_errmsg(ctx));
  return mt_finish(&ctx);
}
