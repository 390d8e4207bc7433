/* The profiling log: after a known sequence of operations the counters
 * must equal what the test computes on its own: calls; messages and bytes
 * of a halo exchange from the partition's boxes (which ranks' widened
 * boxes meet mine); an SpMV's from the matrix's rows; allreduces per CG
 * iteration from solvers/cg.c (one after p.Ap, one after the update:
 * none at one rank, where no MPI_Allreduce is issued). Then the summary
 * over ranks, the printed table, reset, and logging off. */
#include "mt_solver.h"

enum { N0 = 24, N1 = 18, W = 2, K_EVAL = 5, R_RED = 3, H_HALO = 4 };

/* messages and bytes this rank sends for an SpMV ghost exchange: to each
 * other rank, the distinct columns I own that its rows reference */
static void spmv_expect(const mt_prob *p, int me, int P, int64_t *msgs, int64_t *bytes) {
  int64_t n = mt_n(p), c0 = mn_split_start(n, P, me), c1 = c0 + mn_split_size(n, P, me);
  char *used = malloc((size_t)n);
  *msgs = *bytes = 0;
  for (int q = 0; q < P; q++) {
    if (q == me) continue;
    memset(used, 0, (size_t)n);
    int64_t r0 = mn_split_start(n, P, q), r1 = r0 + mn_split_size(n, P, q), cols[8], cnt = 0;
    double v[8];
    for (int64_t i = r0; i < r1; i++) {
      int k = mt_row(p, i, cols, v);
      for (int j = 0; j < k; j++)
        if (cols[j] >= c0 && cols[j] < c1 && !used[cols[j]]) { used[cols[j]] = 1; cnt++; }
    }
    if (cnt) { (*msgs)++; *bytes += cnt * 8; }
  }
  free(used);
}

static mn_log_stats get(mn_ctx *ctx, mn_log_event ev) {
  mn_log_stats s;
  T_OK(mn_log_get(ctx, ev, &s));
  return s;
}

static void expect_zero(mn_ctx *ctx, const char *when) {
  for (int k = 0; k < MN_LOG_NEVENTS; k++) {
    mn_log_stats s = get(ctx, (mn_log_event)k);
    T_CHECK(!s.calls && !s.time && !s.mem_bytes && !s.messages && !s.msg_bytes && !s.allreduces,
            "%s: %s has calls %lld, time %g, mem %lld, msgs %lld, bytes %lld, allreduces %lld", when,
            mn_log_event_name((mn_log_event)k), (long long)s.calls, s.time, (long long)s.mem_bytes,
            (long long)s.messages, (long long)s.msg_bytes, (long long)s.allreduces);
  }
}

static double f_x(int64_t i) { return 0.5 * (double)i; }
static double f_y(int64_t i) { return 1.0 - (double)(i % 7); }

/* k evaluations, r reductions, h halo exchanges */
static void arrays_part(mn_ctx *ctx, mn_array *x, mn_array *y, mn_array *z, mn_array *g) {
  for (int k = 0; k < K_EVAL; k++) T_OK(mn_array_binary(MN_OP_ADD, x, y, z));
  for (int r = 0; r < R_RED; r++) {
    mn_scalar s;
    T_OK(mn_array_reduce(MN_RED_SUM, z, &s));
    double ref = 0;
    for (int64_t i = 0; i < N0 * N1; i++) ref += f_x(i) + f_y(i);
    T_CLOSE(mn_scalar_as_f64(s), ref, 1e-12);
  }
  for (int h = 0; h < H_HALO; h++) T_OK(mn_array_halo_exchange(g));
  (void)ctx;
}

/* a CG solve of maxit iterations (tolerances 0: it runs them all) */
static void cg_with(mn_ksp_type method, mn_ctx *ctx, mn_op *op, mn_array *b, mn_array *x, int64_t maxit) {
  mn_solver *s = NULL;
  T_OK(mn_solver_create(ctx, &s));
  T_OK(mn_solver_set_operator(s, op));
  T_OK(mn_solver_set_method(s, method));
  T_OK(mn_solver_set_pc(s, MN_PC_NONE));
  T_OK(mn_solver_set_tolerances(s, 0, 0, maxit));
  T_OK(mn_array_fill(x, mn_scalar_f64(0)));
  T_OK(mn_solver_solve(s, b, x));
  int64_t its = -1;
  mn_stop_reason why;
  T_OK(mn_solver_get_result(s, &its, NULL, &why));
  T_CHECK(its == maxit && why == MN_DIVERGED_MAXIT, "CG ran %lld iterations (%s), expected %lld", (long long)its,
          mn_stop_reason_name(why), (long long)maxit);
  mn_solver_destroy(&s);
}
static void cg(mn_ctx *ctx, mn_op *op, mn_array *b, mn_array *x, int64_t maxit) { cg_with(MN_KSP_CG, ctx, op, b, x, maxit); }

int main(int argc, char **argv) {
  mn_ctx *ctx = mt_init(argc, argv);
  int P = mn_ctx_size(ctx), me = mn_ctx_rank(ctx);
  const int64_t shape[2] = {N0, N1};
  mn_layout *lay = NULL;
  mn_array *x = NULL, *y = NULL, *z = NULL, *g = NULL;
  T_OK(mn_layout_create_block(ctx, 2, shape, NULL, &lay));
  T_OK(mn_array_create_on(lay, MN_FLOAT64, 0, &x));
  T_OK(mn_array_create_on(lay, MN_FLOAT64, 0, &y));
  T_OK(mn_array_create_on(lay, MN_FLOAT64, 0, &z));
  T_OK(mn_array_create_on(lay, MN_FLOAT64, W, &g));
  mt_set(x, f_x);
  mt_set(y, f_y);

  /* logging off (unless MANIPLE_LOG_VIEW asked for it): nothing counted */
  int was_on = mn_log_enabled(ctx);
  arrays_part(ctx, x, y, z, g);
  if (!was_on) expect_zero(ctx, "logging never enabled");

  T_OK(mn_log_enable(ctx));
  T_CHECK(mn_log_enabled(ctx), "mn_log_enabled is 0 after mn_log_enable");
  T_OK(mn_log_reset(ctx));
  expect_zero(ctx, "after reset");
  arrays_part(ctx, x, y, z, g);

  mn_log_stats ev = get(ctx, MN_LOG_EVAL), red = get(ctx, MN_LOG_REDUCE), halo = get(ctx, MN_LOG_HALO);
  int64_t lo[2], hi[2];
  mn_layout_box(lay, me, lo, hi);
  int64_t nloc = (hi[0] - lo[0]) * (hi[1] - lo[1]);
  T_CHECK(ev.calls == K_EVAL, "eval calls %lld, expected %d", (long long)ev.calls, K_EVAL);
  /* x and y read, z written, 8 bytes each, per owned point */
  T_CHECK(ev.mem_bytes == K_EVAL * 3 * 8 * nloc, "eval bytes %lld, expected %lld", (long long)ev.mem_bytes,
          (long long)(K_EVAL * 3 * 8 * nloc));
  T_CHECK(red.calls == R_RED, "reduce calls %lld, expected %d", (long long)red.calls, R_RED);
  T_CHECK(red.mem_bytes == R_RED * 8 * nloc, "reduce bytes %lld, expected %lld", (long long)red.mem_bytes,
          (long long)(R_RED * 8 * nloc));
  /* a reduction's partials are combined over ranks at least once */
  T_CHECK(P == 1 ? red.allreduces == 0 : red.allreduces >= R_RED, "reduce allreduces %lld at %d ranks",
          (long long)red.allreduces, P);
  int64_t hm, hb;
  const int flat[2] = {0, 0};
  mt_halo_expect(lay, me, P, shape, W, flat, 8, &hm, &hb);
  T_CHECK(halo.calls == H_HALO, "halo calls %lld, expected %d", (long long)halo.calls, H_HALO);
  T_CHECK(halo.messages == H_HALO * hm && halo.msg_bytes == H_HALO * hb,
          "halo sent %lld messages of %lld bytes, expected %lld of %lld", (long long)halo.messages,
          (long long)halo.msg_bytes, (long long)(H_HALO * hm), (long long)(H_HALO * hb));
  mn_log_stats pb = get(ctx, MN_LOG_PLAN_BEGIN), pe = get(ctx, MN_LOG_PLAN_END);
  T_CHECK(pb.calls >= H_HALO && pe.calls == pb.calls, "plan begin %lld, end %lld calls for %d halo exchanges",
          (long long)pb.calls, (long long)pe.calls, H_HALO);
  /* the evaluations read aligned arrays: only the halo exchanges send */
  T_CHECK(pb.messages == halo.messages && pb.msg_bytes == halo.msg_bytes,
          "plan begins sent %lld messages of %lld bytes, the halo exchanges %lld of %lld", (long long)pb.messages,
          (long long)pb.msg_bytes, (long long)halo.messages, (long long)halo.msg_bytes);

  /* one SpMV on the 2-d Poisson matrix */
  mt_prob prob = {MT_POISSON2, 12, 10, 1, 0};
  int64_t nm = mt_n(&prob);
  mn_csr *A = mt_csr(ctx, &prob);
  mn_array *u = NULL, *v = NULL;
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &nm, 0, &u));
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &nm, 0, &v));
  mt_set(u, mt_rhs);
  T_OK(mn_log_reset(ctx));
  T_OK(mn_csr_spmv(A, u, v));
  int64_t sm, sb;
  spmv_expect(&prob, me, P, &sm, &sb);
  mn_log_stats sp = get(ctx, MN_LOG_SPMV);
  T_CHECK(sp.calls == 1, "spmv calls %lld", (long long)sp.calls);
  T_CHECK(sp.messages == sm && sp.msg_bytes == sb, "spmv sent %lld messages of %lld bytes, expected %lld of %lld",
          (long long)sp.messages, (long long)sp.msg_bytes, (long long)sm, (long long)sb);
  T_CHECK(get(ctx, MN_LOG_PLAN_BEGIN).calls == 1 && get(ctx, MN_LOG_PLAN_END).calls == 1,
          "an SpMV is one ghost plan begin and end");
  /* vectors on the matrix's own split: no collective beyond the ghosts */
  T_CHECK(sp.allreduces == 0 && get(ctx, MN_LOG_ALLREDUCE).calls == 0, "an SpMV made %lld allreduces",
          (long long)sp.allreduces);

  /* CG: the counters of a 7-iteration solve minus those of a 3-iteration one */
  mn_op *op = NULL;
  T_OK(mn_op_create_csr(A, &op));
  mn_log_stats a3[MN_LOG_NEVENTS], a7[MN_LOG_NEVENTS];
  T_OK(mn_log_reset(ctx));
  cg(ctx, op, u, v, 3);
  for (int k = 0; k < MN_LOG_NEVENTS; k++) a3[k] = get(ctx, (mn_log_event)k);
  T_OK(mn_log_reset(ctx));
  cg(ctx, op, u, v, 7);
  for (int k = 0; k < MN_LOG_NEVENTS; k++) a7[k] = get(ctx, (mn_log_event)k);
#define PER_IT(e, field) ((a7[e].field - a3[e].field) / 4.0)
  const int ar_per_it = P > 1 ? 2 : 0; /* mni_sv_allsum: MPI only when there are other ranks */
  T_CHECK(PER_IT(MN_LOG_ALLREDUCE, calls) == ar_per_it, "%g allreduces per CG iteration at %d ranks, expected %d",
          PER_IT(MN_LOG_ALLREDUCE, calls), P, ar_per_it);
  T_CHECK(PER_IT(MN_LOG_SOLVE, allreduces) == ar_per_it, "the solve saw %g allreduces per iteration, expected %d",
          PER_IT(MN_LOG_SOLVE, allreduces), ar_per_it);
  T_CHECK(PER_IT(MN_LOG_SV_OP, calls) == 1 && PER_IT(MN_LOG_SPMV, calls) == 1,
          "per CG iteration: %g operator applies, %g SpMVs (expected 1, 1)", PER_IT(MN_LOG_SV_OP, calls),
          PER_IT(MN_LOG_SPMV, calls));
  T_CHECK(PER_IT(MN_LOG_SV_DOT, calls) == 2 && PER_IT(MN_LOG_SV_UPDATE, calls) == 2,
          "per CG iteration: %g sums, %g updates (expected 2, 2)", PER_IT(MN_LOG_SV_DOT, calls),
          PER_IT(MN_LOG_SV_UPDATE, calls));
  T_CHECK(PER_IT(MN_LOG_SV_OP, messages) == sm && PER_IT(MN_LOG_SV_OP, msg_bytes) == sb,
          "per CG iteration the operator sent %g messages of %g bytes, expected %lld of %lld",
          PER_IT(MN_LOG_SV_OP, messages), PER_IT(MN_LOG_SV_OP, msg_bytes), (long long)sm, (long long)sb);
  T_CHECK(a3[MN_LOG_SOLVE].calls == 1 && a7[MN_LOG_SOLVE].calls == 1 && a7[MN_LOG_SV_SETUP].calls == 1 &&
              a7[MN_LOG_SV_PC].calls == 0,
          "one solve, one set-up, no preconditioner apply");
  /* CG1 (Chronopoulos and Gear): its two sums in one allreduce */
  T_OK(mn_log_reset(ctx));
  cg_with(MN_KSP_CG1, ctx, op, u, v, 3);
  mn_log_stats c3 = get(ctx, MN_LOG_ALLREDUCE);
  T_OK(mn_log_reset(ctx));
  cg_with(MN_KSP_CG1, ctx, op, u, v, 7);
  mn_log_stats c7 = get(ctx, MN_LOG_ALLREDUCE);
  T_CHECK((c7.calls - c3.calls) / 4.0 == (P > 1 ? 1 : 0), "%g allreduces per CG1 iteration at %d ranks, expected %d",
          (c7.calls - c3.calls) / 4.0, P, P > 1 ? 1 : 0);
  /* inclusive: the solve holds its operator applies' messages */
  T_CHECK(a7[MN_LOG_SOLVE].messages >= a7[MN_LOG_SV_OP].messages && a7[MN_LOG_SOLVE].time >= a7[MN_LOG_SV_OP].time,
          "the solve's counters do not include its operator applies'");

  /* a bit of everything, then the summary over ranks and the table */
  T_OK(mn_log_reset(ctx));
  arrays_part(ctx, x, y, z, g);
  T_OK(mn_csr_spmv(A, u, v));
  cg(ctx, op, u, v, 3);
  mn_log_row rows[MN_LOG_NEVENTS];
  T_OK(mn_log_summary(ctx, rows));
  int64_t hm_all = 0, mine[2] = {hm, hb}, all[2];
  MPI_Allreduce(mine, all, 2, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  hm_all = all[0];
  T_CHECK(rows[MN_LOG_HALO].messages == H_HALO * hm_all && rows[MN_LOG_HALO].msg_bytes == H_HALO * all[1],
          "summary: halo messages %lld (%lld bytes) over ranks, expected %lld (%lld)",
          (long long)rows[MN_LOG_HALO].messages, (long long)rows[MN_LOG_HALO].msg_bytes, (long long)(H_HALO * hm_all),
          (long long)(H_HALO * all[1]));
  T_CHECK(rows[MN_LOG_EVAL].calls >= K_EVAL, "summary: %lld evaluations", (long long)rows[MN_LOG_EVAL].calls);
  for (int k = 0; k < MN_LOG_NEVENTS; k++) {
    mn_log_stats s = get(ctx, (mn_log_event)k);
    const mn_log_row *r = &rows[k];
    T_CHECK(s.time >= 0 && r->time >= 0, "%s: negative time", mn_log_event_name((mn_log_event)k));
    T_CHECK(r->time_max >= r->time * (1 - 1e-12) && r->time_max >= s.time && r->imbalance >= 1 - 1e-12,
            "%s: max %g, mean %g, mine %g, imbalance %g", mn_log_event_name((mn_log_event)k), r->time_max, r->time,
            s.time, r->imbalance);
    T_CHECK(r->calls >= s.calls, "%s: max calls %lld below mine %lld", mn_log_event_name((mn_log_event)k),
            (long long)r->calls, (long long)s.calls);
  }
  FILE *f = tmpfile();
  T_CHECK(f, "tmpfile failed");
  if (f) {
    T_OK(mn_log_view(ctx, f));
    long len = ftell(f);
    rewind(f);
    char *text = calloc((size_t)len + 1, 1);
    T_CHECK(fread(text, 1, (size_t)len, f) == (size_t)len, "cannot read the table back");
    if (me != 0) T_CHECK(len == 0, "rank %d printed %ld bytes of table", me, len);
    const mn_log_event used[] = {MN_LOG_EVAL,  MN_LOG_REDUCE, MN_LOG_PLAN_BEGIN, MN_LOG_PLAN_END, MN_LOG_HALO,
                                 MN_LOG_SPMV,  MN_LOG_SOLVE,  MN_LOG_SV_SETUP,   MN_LOG_SV_OP,    MN_LOG_SV_DOT,
                                 MN_LOG_SV_UPDATE};
    for (size_t k = 0; me == 0 && k < sizeof used / sizeof *used; k++) {
      char row[64];
      snprintf(row, sizeof row, "\n%s ", mn_log_event_name(used[k]));
      T_CHECK(strstr(text, row), "the table has no row for %s:\n%s", mn_log_event_name(used[k]), text);
    }
    if (me == 0) {
      T_CHECK(strstr(text, "inclusive"), "the table does not say that times are inclusive");
      T_CHECK(P == 1 || strstr(text, "\nallreduce "), "the table has no allreduce row at %d ranks", P);
      T_CHECK(!strstr(text, "\nstencil "), "the table has a stencil row but no stencil was applied");
    }
    free(text);
    fclose(f);
  }

  /* reset zeroes everything; disabled, nothing more is counted */
  T_OK(mn_log_reset(ctx));
  expect_zero(ctx, "after the second reset");
  T_OK(mn_log_disable(ctx));
  T_CHECK(!mn_log_enabled(ctx), "mn_log_enabled after mn_log_disable");
  arrays_part(ctx, x, y, z, g);
  cg(ctx, op, u, v, 2);
  expect_zero(ctx, "logging disabled");
  mn_log_stats bad;
  T_CHECK(mn_log_get(ctx, MN_LOG_NEVENTS, &bad) == MN_ERR_ARG, "an unknown event is not MN_ERR_ARG");
  T_CHECK(!strcmp(mn_log_event_name(MN_LOG_NEVENTS), "unknown"), "name of an unknown event");

  mn_op_destroy(&op);
  mn_csr_destroy(&A);
  mn_array_destroy(&u);
  mn_array_destroy(&v);
  mn_array_destroy(&x);
  mn_array_destroy(&y);
  mn_array_destroy(&z);
  mn_array_destroy(&g);
  mn_layout_destroy(&lay);
  return mt_finish(&ctx);
}
